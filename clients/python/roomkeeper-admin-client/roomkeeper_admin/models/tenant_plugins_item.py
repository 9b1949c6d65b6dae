from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="TenantPluginsItem")



@_attrs_define
class TenantPluginsItem:
    """ 
        Attributes:
            capacity (int):
            id (str):
            join_requires_im (bool):
            room_ttl_seconds (int):
            wire (str):
     """

    capacity: int
    id: str
    join_requires_im: bool
    room_ttl_seconds: int
    wire: str





    def to_dict(self) -> dict[str, Any]:
        capacity = self.capacity

        id = self.id

        join_requires_im = self.join_requires_im

        room_ttl_seconds = self.room_ttl_seconds

        wire = self.wire


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "capacity": capacity,
            "id": id,
            "joinRequiresIM": join_requires_im,
            "roomTTLSeconds": room_ttl_seconds,
            "wire": wire,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        capacity = d.pop("capacity")

        id = d.pop("id")

        join_requires_im = d.pop("joinRequiresIM")

        room_ttl_seconds = d.pop("roomTTLSeconds")

        wire = d.pop("wire")

        tenant_plugins_item = cls(
            capacity=capacity,
            id=id,
            join_requires_im=join_requires_im,
            room_ttl_seconds=room_ttl_seconds,
            wire=wire,
        )

        return tenant_plugins_item

