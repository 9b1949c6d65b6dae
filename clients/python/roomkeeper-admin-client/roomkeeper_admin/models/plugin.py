from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Plugin")



@_attrs_define
class Plugin:
    """ 
        Attributes:
            default_capacity (int):
            default_room_ttl_seconds (int):
            id (str):
            routes (list[str]):
            wire (str):
     """

    default_capacity: int
    default_room_ttl_seconds: int
    id: str
    routes: list[str]
    wire: str





    def to_dict(self) -> dict[str, Any]:
        default_capacity = self.default_capacity

        default_room_ttl_seconds = self.default_room_ttl_seconds

        id = self.id

        routes = self.routes



        wire = self.wire


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "defaultCapacity": default_capacity,
            "defaultRoomTTLSeconds": default_room_ttl_seconds,
            "id": id,
            "routes": routes,
            "wire": wire,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        default_capacity = d.pop("defaultCapacity")

        default_room_ttl_seconds = d.pop("defaultRoomTTLSeconds")

        id = d.pop("id")

        routes = cast(list[str], d.pop("routes"))


        wire = d.pop("wire")

        plugin = cls(
            default_capacity=default_capacity,
            default_room_ttl_seconds=default_room_ttl_seconds,
            id=id,
            routes=routes,
            wire=wire,
        )

        return plugin

