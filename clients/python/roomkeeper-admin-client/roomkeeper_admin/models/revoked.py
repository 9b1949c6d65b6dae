from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Revoked")



@_attrs_define
class Revoked:
    """ 
        Attributes:
            revoked (int):
     """

    revoked: int





    def to_dict(self) -> dict[str, Any]:
        revoked = self.revoked


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "revoked": revoked,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        revoked = d.pop("revoked")

        revoked = cls(
            revoked=revoked,
        )

        return revoked

