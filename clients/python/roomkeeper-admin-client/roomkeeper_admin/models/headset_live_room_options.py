from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="HeadsetLiveRoomOptions")



@_attrs_define
class HeadsetLiveRoomOptions:
    """ 
        Attributes:
            device_id (str): a headset bound to the room's owner
     """

    device_id: str





    def to_dict(self) -> dict[str, Any]:
        device_id = self.device_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "deviceId": device_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        device_id = d.pop("deviceId")

        headset_live_room_options = cls(
            device_id=device_id,
        )

        return headset_live_room_options

