from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.tenant_plugins_item import TenantPluginsItem





T = TypeVar("T", bound="Tenant")



@_attrs_define
class Tenant:
    """ 
        Attributes:
            id (str):
            im_provider (str):
            intercom_provider (str):
            live_provider (str):
            name (str):
            plugins (list[TenantPluginsItem]):
     """

    id: str
    im_provider: str
    intercom_provider: str
    live_provider: str
    name: str
    plugins: list[TenantPluginsItem]





    def to_dict(self) -> dict[str, Any]:
        from ..models.tenant_plugins_item import TenantPluginsItem # noqa: PLC0415
        id = self.id

        im_provider = self.im_provider

        intercom_provider = self.intercom_provider

        live_provider = self.live_provider

        name = self.name

        plugins = []
        for plugins_item_data in self.plugins:
            plugins_item = plugins_item_data.to_dict()
            plugins.append(plugins_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "imProvider": im_provider,
            "intercomProvider": intercom_provider,
            "liveProvider": live_provider,
            "name": name,
            "plugins": plugins,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.tenant_plugins_item import TenantPluginsItem # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        im_provider = d.pop("imProvider")

        intercom_provider = d.pop("intercomProvider")

        live_provider = d.pop("liveProvider")

        name = d.pop("name")

        plugins = []
        _plugins = d.pop("plugins")
        for plugins_item_data in (_plugins):
            plugins_item = TenantPluginsItem.from_dict(plugins_item_data)



            plugins.append(plugins_item)


        tenant = cls(
            id=id,
            im_provider=im_provider,
            intercom_provider=intercom_provider,
            live_provider=live_provider,
            name=name,
            plugins=plugins,
        )

        return tenant

