from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.sealmic_plugin import SealmicPlugin
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.sealmic_room_options import SealmicRoomOptions





T = TypeVar("T", bound="Sealmic")



@_attrs_define
class Sealmic:
    """ 
        Attributes:
            name (str): Shown to members; blanks at either end are trimmed
            owner (str): The owner's account
            plugin (SealmicPlugin):
            options (SealmicRoomOptions | Unset):
            ttl_seconds (int | None | Unset): Seconds until the room expires (366 days at most); the tenant's policy when
                absent or null
     """

    name: str
    owner: str
    plugin: SealmicPlugin
    options: SealmicRoomOptions | Unset = UNSET
    ttl_seconds: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.sealmic_room_options import SealmicRoomOptions # noqa: PLC0415
        name = self.name

        owner = self.owner

        plugin = self.plugin.value

        options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options.to_dict()

        ttl_seconds: int | None | Unset
        if isinstance(self.ttl_seconds, Unset):
            ttl_seconds = UNSET
        else:
            ttl_seconds = self.ttl_seconds


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "owner": owner,
            "plugin": plugin,
        })
        if options is not UNSET:
            field_dict["options"] = options
        if ttl_seconds is not UNSET:
            field_dict["ttlSeconds"] = ttl_seconds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sealmic_room_options import SealmicRoomOptions # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        owner = d.pop("owner")

        plugin = SealmicPlugin(d.pop("plugin"))




        _options = d.pop("options", UNSET)
        options: SealmicRoomOptions | Unset
        if isinstance(_options,  Unset):
            options = UNSET
        else:
            options = SealmicRoomOptions.from_dict(_options)




        def _parse_ttl_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        ttl_seconds = _parse_ttl_seconds(d.pop("ttlSeconds", UNSET))


        sealmic = cls(
            name=name,
            owner=owner,
            plugin=plugin,
            options=options,
            ttl_seconds=ttl_seconds,
        )


        sealmic.additional_properties = d
        return sealmic

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
