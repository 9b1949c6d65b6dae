from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.room_session_close_reason_type_1 import RoomSessionCloseReasonType1
from ..models.room_session_close_reason_type_2_type_1 import RoomSessionCloseReasonType2Type1
from ..models.room_session_close_reason_type_3_type_1 import RoomSessionCloseReasonType3Type1
from ..models.room_session_state import RoomSessionState
from typing import cast
import datetime






T = TypeVar("T", bound="RoomSession")



@_attrs_define
class RoomSession:
    """ 
        Attributes:
            close_reason (None | RoomSessionCloseReasonType1 | RoomSessionCloseReasonType2Type1 |
                RoomSessionCloseReasonType3Type1):
            closed_at (datetime.datetime | None):
            duration_seconds (int): Open to close; to now while open
            members (int): Joined now
            messages (int | None): Texts in its local IM chatroom; null for a vendor's chatroom or none
            name (str):
            opened_at (datetime.datetime):
            owner (str):
            peak_members (int): The most joined at once
            plugin (str):
            room (int):
            state (RoomSessionState):
            total_joins (int):
     """

    close_reason: None | RoomSessionCloseReasonType1 | RoomSessionCloseReasonType2Type1 | RoomSessionCloseReasonType3Type1
    closed_at: datetime.datetime | None
    duration_seconds: int
    members: int
    messages: int | None
    name: str
    opened_at: datetime.datetime
    owner: str
    peak_members: int
    plugin: str
    room: int
    state: RoomSessionState
    total_joins: int





    def to_dict(self) -> dict[str, Any]:
        close_reason: None | str
        if isinstance(self.close_reason, RoomSessionCloseReasonType1):
            close_reason = self.close_reason.value
        elif isinstance(self.close_reason, RoomSessionCloseReasonType2Type1):
            close_reason = self.close_reason.value
        elif isinstance(self.close_reason, RoomSessionCloseReasonType3Type1):
            close_reason = self.close_reason.value
        else:
            close_reason = self.close_reason

        closed_at: None | str
        if isinstance(self.closed_at, datetime.datetime):
            closed_at = self.closed_at.isoformat()
        else:
            closed_at = self.closed_at

        duration_seconds = self.duration_seconds

        members = self.members

        messages: int | None
        messages = self.messages

        name = self.name

        opened_at = self.opened_at.isoformat()

        owner = self.owner

        peak_members = self.peak_members

        plugin = self.plugin

        room = self.room

        state = self.state.value

        total_joins = self.total_joins


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "closeReason": close_reason,
            "closedAt": closed_at,
            "durationSeconds": duration_seconds,
            "members": members,
            "messages": messages,
            "name": name,
            "openedAt": opened_at,
            "owner": owner,
            "peakMembers": peak_members,
            "plugin": plugin,
            "room": room,
            "state": state,
            "totalJoins": total_joins,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_close_reason(data: object) -> None | RoomSessionCloseReasonType1 | RoomSessionCloseReasonType2Type1 | RoomSessionCloseReasonType3Type1:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                close_reason_type_1 = RoomSessionCloseReasonType1(data)



                return close_reason_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                close_reason_type_2_type_1 = RoomSessionCloseReasonType2Type1(data)



                return close_reason_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                close_reason_type_3_type_1 = RoomSessionCloseReasonType3Type1(data)



                return close_reason_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RoomSessionCloseReasonType1 | RoomSessionCloseReasonType2Type1 | RoomSessionCloseReasonType3Type1, data)

        close_reason = _parse_close_reason(d.pop("closeReason"))


        def _parse_closed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                closed_at_type_0 = datetime.datetime.fromisoformat(data)



                return closed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        closed_at = _parse_closed_at(d.pop("closedAt"))


        duration_seconds = d.pop("durationSeconds")

        members = d.pop("members")

        def _parse_messages(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        messages = _parse_messages(d.pop("messages"))


        name = d.pop("name")

        opened_at = datetime.datetime.fromisoformat(d.pop("openedAt"))




        owner = d.pop("owner")

        peak_members = d.pop("peakMembers")

        plugin = d.pop("plugin")

        room = d.pop("room")

        state = RoomSessionState(d.pop("state"))




        total_joins = d.pop("totalJoins")

        room_session = cls(
            close_reason=close_reason,
            closed_at=closed_at,
            duration_seconds=duration_seconds,
            members=members,
            messages=messages,
            name=name,
            opened_at=opened_at,
            owner=owner,
            peak_members=peak_members,
            plugin=plugin,
            room=room,
            state=state,
            total_joins=total_joins,
        )

        return room_session

