from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="ActivityBucketsItem")



@_attrs_define
class ActivityBucketsItem:
    """ 
        Attributes:
            closed (int):
            created (int):
            joined (int):
            left (int):
            minute (datetime.datetime):
     """

    closed: int
    created: int
    joined: int
    left: int
    minute: datetime.datetime





    def to_dict(self) -> dict[str, Any]:
        closed = self.closed

        created = self.created

        joined = self.joined

        left = self.left

        minute = self.minute.isoformat()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "closed": closed,
            "created": created,
            "joined": joined,
            "left": left,
            "minute": minute,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        closed = d.pop("closed")

        created = d.pop("created")

        joined = d.pop("joined")

        left = d.pop("left")

        minute = datetime.datetime.fromisoformat(d.pop("minute"))




        activity_buckets_item = cls(
            closed=closed,
            created=created,
            joined=joined,
            left=left,
            minute=minute,
        )

        return activity_buckets_item

