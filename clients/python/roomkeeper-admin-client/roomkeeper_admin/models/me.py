from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.admin_scope import AdminScope
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Me")



@_attrs_define
class Me:
    """ 
        Attributes:
            actor (str): `operator`, `tenant-admin` (a tenant file's key) or `key:<id> (<label>)`
            scopes (list[AdminScope]):
            tenant (str | Unset): the tenant a tenant's key reaches; absent for the operator
     """

    actor: str
    scopes: list[AdminScope]
    tenant: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        actor = self.actor

        scopes = []
        for scopes_item_data in self.scopes:
            scopes_item = scopes_item_data.value
            scopes.append(scopes_item)



        tenant = self.tenant


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "actor": actor,
            "scopes": scopes,
        })
        if tenant is not UNSET:
            field_dict["tenant"] = tenant

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        actor = d.pop("actor")

        scopes = []
        _scopes = d.pop("scopes")
        for scopes_item_data in (_scopes):
            scopes_item = AdminScope(scopes_item_data)



            scopes.append(scopes_item)


        tenant = d.pop("tenant", UNSET)

        me = cls(
            actor=actor,
            scopes=scopes,
            tenant=tenant,
        )

        return me

