from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.room_state import RoomState
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.room_attributes import RoomAttributes
  from ..models.room_reservation_type_0 import RoomReservationType0





T = TypeVar("T", bound="Room")



@_attrs_define
class Room:
    """ 
        Attributes:
            attributes (RoomAttributes):
            capacity (int):
            created_at (datetime.datetime):
            expires_at (datetime.datetime):
            id (int):
            name (str):
            owner (str):
            plugin (str):
            state (RoomState):
            tenant (str):
            close_reason (None | str | Unset):
            closed_at (datetime.datetime | None | Unset):
            im_chatroom_id (None | str | Unset):
            reservation (None | RoomReservationType0 | Unset): null: the room is not reserved
     """

    attributes: RoomAttributes
    capacity: int
    created_at: datetime.datetime
    expires_at: datetime.datetime
    id: int
    name: str
    owner: str
    plugin: str
    state: RoomState
    tenant: str
    close_reason: None | str | Unset = UNSET
    closed_at: datetime.datetime | None | Unset = UNSET
    im_chatroom_id: None | str | Unset = UNSET
    reservation: None | RoomReservationType0 | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.room_attributes import RoomAttributes # noqa: PLC0415
        from ..models.room_reservation_type_0 import RoomReservationType0 # noqa: PLC0415
        attributes = self.attributes.to_dict()

        capacity = self.capacity

        created_at = self.created_at.isoformat()

        expires_at = self.expires_at.isoformat()

        id = self.id

        name = self.name

        owner = self.owner

        plugin = self.plugin

        state = self.state.value

        tenant = self.tenant

        close_reason: None | str | Unset
        if isinstance(self.close_reason, Unset):
            close_reason = UNSET
        else:
            close_reason = self.close_reason

        closed_at: None | str | Unset
        if isinstance(self.closed_at, Unset):
            closed_at = UNSET
        elif isinstance(self.closed_at, datetime.datetime):
            closed_at = self.closed_at.isoformat()
        else:
            closed_at = self.closed_at

        im_chatroom_id: None | str | Unset
        if isinstance(self.im_chatroom_id, Unset):
            im_chatroom_id = UNSET
        else:
            im_chatroom_id = self.im_chatroom_id

        reservation: dict[str, Any] | None | Unset
        if isinstance(self.reservation, Unset):
            reservation = UNSET
        elif isinstance(self.reservation, RoomReservationType0):
            reservation = self.reservation.to_dict()
        else:
            reservation = self.reservation


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "attributes": attributes,
            "capacity": capacity,
            "createdAt": created_at,
            "expiresAt": expires_at,
            "id": id,
            "name": name,
            "owner": owner,
            "plugin": plugin,
            "state": state,
            "tenant": tenant,
        })
        if close_reason is not UNSET:
            field_dict["closeReason"] = close_reason
        if closed_at is not UNSET:
            field_dict["closedAt"] = closed_at
        if im_chatroom_id is not UNSET:
            field_dict["imChatroomId"] = im_chatroom_id
        if reservation is not UNSET:
            field_dict["reservation"] = reservation

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.room_attributes import RoomAttributes # noqa: PLC0415
        from ..models.room_reservation_type_0 import RoomReservationType0 # noqa: PLC0415
        d = dict(src_dict)
        attributes = RoomAttributes.from_dict(d.pop("attributes"))




        capacity = d.pop("capacity")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        expires_at = datetime.datetime.fromisoformat(d.pop("expiresAt"))




        id = d.pop("id")

        name = d.pop("name")

        owner = d.pop("owner")

        plugin = d.pop("plugin")

        state = RoomState(d.pop("state"))




        tenant = d.pop("tenant")

        def _parse_close_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        close_reason = _parse_close_reason(d.pop("closeReason", UNSET))


        def _parse_closed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                closed_at_type_0 = datetime.datetime.fromisoformat(data)



                return closed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        closed_at = _parse_closed_at(d.pop("closedAt", UNSET))


        def _parse_im_chatroom_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        im_chatroom_id = _parse_im_chatroom_id(d.pop("imChatroomId", UNSET))


        def _parse_reservation(data: object) -> None | RoomReservationType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reservation_type_0 = RoomReservationType0.from_dict(data)



                return reservation_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RoomReservationType0 | Unset, data)

        reservation = _parse_reservation(d.pop("reservation", UNSET))


        room = cls(
            attributes=attributes,
            capacity=capacity,
            created_at=created_at,
            expires_at=expires_at,
            id=id,
            name=name,
            owner=owner,
            plugin=plugin,
            state=state,
            tenant=tenant,
            close_reason=close_reason,
            closed_at=closed_at,
            im_chatroom_id=im_chatroom_id,
            reservation=reservation,
        )

        return room

