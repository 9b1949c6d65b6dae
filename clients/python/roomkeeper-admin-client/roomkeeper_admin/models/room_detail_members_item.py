from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="RoomDetailMembersItem")



@_attrs_define
class RoomDetailMembersItem:
    """ 
        Attributes:
            accid (str):
            joined_at (datetime.datetime):
            role (str):
            status (str):
     """

    accid: str
    joined_at: datetime.datetime
    role: str
    status: str





    def to_dict(self) -> dict[str, Any]:
        accid = self.accid

        joined_at = self.joined_at.isoformat()

        role = self.role

        status = self.status


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "accid": accid,
            "joinedAt": joined_at,
            "role": role,
            "status": status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        accid = d.pop("accid")

        joined_at = datetime.datetime.fromisoformat(d.pop("joinedAt"))




        role = d.pop("role")

        status = d.pop("status")

        room_detail_members_item = cls(
            accid=accid,
            joined_at=joined_at,
            role=role,
            status=status,
        )

        return room_detail_members_item

