from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="AudioChatroomRoomOptions")



@_attrs_define
class AudioChatroomRoomOptions:
    """ 
        Attributes:
            thumbnail (str | Unset): the room's picture (URL); one of the tenant's thumbnails when absent
     """

    thumbnail: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        thumbnail = self.thumbnail


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if thumbnail is not UNSET:
            field_dict["thumbnail"] = thumbnail

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        thumbnail = d.pop("thumbnail", UNSET)

        audio_chatroom_room_options = cls(
            thumbnail=thumbnail,
        )

        return audio_chatroom_room_options

