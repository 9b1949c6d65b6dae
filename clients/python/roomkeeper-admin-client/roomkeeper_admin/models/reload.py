from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Reload")



@_attrs_define
class Reload:
    """ 
        Attributes:
            applied (bool):
            tenants (int):
     """

    applied: bool
    tenants: int





    def to_dict(self) -> dict[str, Any]:
        applied = self.applied

        tenants = self.tenants


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "applied": applied,
            "tenants": tenants,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        applied = d.pop("applied")

        tenants = d.pop("tenants")

        reload = cls(
            applied=applied,
            tenants=tenants,
        )

        return reload

