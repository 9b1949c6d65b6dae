from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.outbox_entry_status import OutboxEntryStatus
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="OutboxEntry")



@_attrs_define
class OutboxEntry:
    """ 
        Attributes:
            attempts (int):
            created_at (datetime.datetime):
            id (int):
            kind (str):
            next_attempt_at (datetime.datetime):
            payload (Any):
            status (OutboxEntryStatus):
            delivered_at (datetime.datetime | None | Unset):
            last_error (None | str | Unset):
            room_id (int | None | Unset):
     """

    attempts: int
    created_at: datetime.datetime
    id: int
    kind: str
    next_attempt_at: datetime.datetime
    payload: Any
    status: OutboxEntryStatus
    delivered_at: datetime.datetime | None | Unset = UNSET
    last_error: None | str | Unset = UNSET
    room_id: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        created_at = self.created_at.isoformat()

        id = self.id

        kind = self.kind

        next_attempt_at = self.next_attempt_at.isoformat()

        payload = self.payload

        status = self.status.value

        delivered_at: None | str | Unset
        if isinstance(self.delivered_at, Unset):
            delivered_at = UNSET
        elif isinstance(self.delivered_at, datetime.datetime):
            delivered_at = self.delivered_at.isoformat()
        else:
            delivered_at = self.delivered_at

        last_error: None | str | Unset
        if isinstance(self.last_error, Unset):
            last_error = UNSET
        else:
            last_error = self.last_error

        room_id: int | None | Unset
        if isinstance(self.room_id, Unset):
            room_id = UNSET
        else:
            room_id = self.room_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "attempts": attempts,
            "createdAt": created_at,
            "id": id,
            "kind": kind,
            "nextAttemptAt": next_attempt_at,
            "payload": payload,
            "status": status,
        })
        if delivered_at is not UNSET:
            field_dict["deliveredAt"] = delivered_at
        if last_error is not UNSET:
            field_dict["lastError"] = last_error
        if room_id is not UNSET:
            field_dict["roomId"] = room_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempts = d.pop("attempts")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        id = d.pop("id")

        kind = d.pop("kind")

        next_attempt_at = datetime.datetime.fromisoformat(d.pop("nextAttemptAt"))




        payload = d.pop("payload")

        status = OutboxEntryStatus(d.pop("status"))




        def _parse_delivered_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                delivered_at_type_0 = datetime.datetime.fromisoformat(data)



                return delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        delivered_at = _parse_delivered_at(d.pop("deliveredAt", UNSET))


        def _parse_last_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        last_error = _parse_last_error(d.pop("lastError", UNSET))


        def _parse_room_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        room_id = _parse_room_id(d.pop("roomId", UNSET))


        outbox_entry = cls(
            attempts=attempts,
            created_at=created_at,
            id=id,
            kind=kind,
            next_attempt_at=next_attempt_at,
            payload=payload,
            status=status,
            delivered_at=delivered_at,
            last_error=last_error,
            room_id=room_id,
        )

        return outbox_entry

