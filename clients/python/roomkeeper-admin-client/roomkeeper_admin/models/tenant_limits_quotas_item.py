from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="TenantLimitsQuotasItem")



@_attrs_define
class TenantLimitsQuotasItem:
    """ 
        Attributes:
            plugin (str):
            max_open_rooms (int | None | Unset):
            max_open_rooms_per_owner (int | None | Unset):
     """

    plugin: str
    max_open_rooms: int | None | Unset = UNSET
    max_open_rooms_per_owner: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        plugin = self.plugin

        max_open_rooms: int | None | Unset
        if isinstance(self.max_open_rooms, Unset):
            max_open_rooms = UNSET
        else:
            max_open_rooms = self.max_open_rooms

        max_open_rooms_per_owner: int | None | Unset
        if isinstance(self.max_open_rooms_per_owner, Unset):
            max_open_rooms_per_owner = UNSET
        else:
            max_open_rooms_per_owner = self.max_open_rooms_per_owner


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "plugin": plugin,
        })
        if max_open_rooms is not UNSET:
            field_dict["maxOpenRooms"] = max_open_rooms
        if max_open_rooms_per_owner is not UNSET:
            field_dict["maxOpenRoomsPerOwner"] = max_open_rooms_per_owner

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        plugin = d.pop("plugin")

        def _parse_max_open_rooms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_open_rooms = _parse_max_open_rooms(d.pop("maxOpenRooms", UNSET))


        def _parse_max_open_rooms_per_owner(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_open_rooms_per_owner = _parse_max_open_rooms_per_owner(d.pop("maxOpenRoomsPerOwner", UNSET))


        tenant_limits_quotas_item = cls(
            plugin=plugin,
            max_open_rooms=max_open_rooms,
            max_open_rooms_per_owner=max_open_rooms_per_owner,
        )

        return tenant_limits_quotas_item

