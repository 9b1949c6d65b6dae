from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.room import Room
  from ..models.room_detail_events_item import RoomDetailEventsItem
  from ..models.room_detail_members_item import RoomDetailMembersItem





T = TypeVar("T", bound="RoomDetail")



@_attrs_define
class RoomDetail:
    """ 
        Attributes:
            events (list[RoomDetailEventsItem]):
            members (list[RoomDetailMembersItem]):
            room (Room):
     """

    events: list[RoomDetailEventsItem]
    members: list[RoomDetailMembersItem]
    room: Room





    def to_dict(self) -> dict[str, Any]:
        from ..models.room import Room # noqa: PLC0415
        from ..models.room_detail_events_item import RoomDetailEventsItem # noqa: PLC0415
        from ..models.room_detail_members_item import RoomDetailMembersItem # noqa: PLC0415
        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)



        members = []
        for members_item_data in self.members:
            members_item = members_item_data.to_dict()
            members.append(members_item)



        room = self.room.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "events": events,
            "members": members,
            "room": room,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.room import Room # noqa: PLC0415
        from ..models.room_detail_events_item import RoomDetailEventsItem # noqa: PLC0415
        from ..models.room_detail_members_item import RoomDetailMembersItem # noqa: PLC0415
        d = dict(src_dict)
        events = []
        _events = d.pop("events")
        for events_item_data in (_events):
            events_item = RoomDetailEventsItem.from_dict(events_item_data)



            events.append(events_item)


        members = []
        _members = d.pop("members")
        for members_item_data in (_members):
            members_item = RoomDetailMembersItem.from_dict(members_item_data)



            members.append(members_item)


        room = Room.from_dict(d.pop("room"))




        room_detail = cls(
            events=events,
            members=members,
            room=room,
        )

        return room_detail

