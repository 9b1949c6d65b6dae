from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="SealmicRoomOptions")



@_attrs_define
class SealmicRoomOptions:
    """ 
        Attributes:
            room_type (int | Unset): the app's room type (0 when absent)
     """

    room_type: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        room_type = self.room_type


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if room_type is not UNSET:
            field_dict["roomType"] = room_type

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        room_type = d.pop("roomType", UNSET)

        sealmic_room_options = cls(
            room_type=room_type,
        )

        return sealmic_room_options

