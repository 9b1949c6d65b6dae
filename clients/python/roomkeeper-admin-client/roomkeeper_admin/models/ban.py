from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="Ban")



@_attrs_define
class Ban:
    """ 
        Attributes:
            account (str):
            active (bool): In force now: neither lifted nor expired
            created_at (datetime.datetime):
            created_by (str):
            expires_at (datetime.datetime | None): null: until lifted
            id (str):
            lifted_at (datetime.datetime | None):
            lifted_by (None | str):
            reason (str):
            room (int | None): null: every room of the tenant
     """

    account: str
    active: bool
    created_at: datetime.datetime
    created_by: str
    expires_at: datetime.datetime | None
    id: str
    lifted_at: datetime.datetime | None
    lifted_by: None | str
    reason: str
    room: int | None





    def to_dict(self) -> dict[str, Any]:
        account = self.account

        active = self.active

        created_at = self.created_at.isoformat()

        created_by = self.created_by

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        id = self.id

        lifted_at: None | str
        if isinstance(self.lifted_at, datetime.datetime):
            lifted_at = self.lifted_at.isoformat()
        else:
            lifted_at = self.lifted_at

        lifted_by: None | str
        lifted_by = self.lifted_by

        reason = self.reason

        room: int | None
        room = self.room


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "account": account,
            "active": active,
            "createdAt": created_at,
            "createdBy": created_by,
            "expiresAt": expires_at,
            "id": id,
            "liftedAt": lifted_at,
            "liftedBy": lifted_by,
            "reason": reason,
            "room": room,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        account = d.pop("account")

        active = d.pop("active")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        created_by = d.pop("createdBy")

        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)



                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(d.pop("expiresAt"))


        id = d.pop("id")

        def _parse_lifted_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                lifted_at_type_0 = datetime.datetime.fromisoformat(data)



                return lifted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        lifted_at = _parse_lifted_at(d.pop("liftedAt"))


        def _parse_lifted_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        lifted_by = _parse_lifted_by(d.pop("liftedBy"))


        reason = d.pop("reason")

        def _parse_room(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        room = _parse_room(d.pop("room"))


        ban = cls(
            account=account,
            active=active,
            created_at=created_at,
            created_by=created_by,
            expires_at=expires_at,
            id=id,
            lifted_at=lifted_at,
            lifted_by=lifted_by,
            reason=reason,
            room=room,
        )

        return ban

