from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="OneToOneCallRoomOptions")



@_attrs_define
class OneToOneCallRoomOptions:
    """ 
        Attributes:
            callee (str): the account rung; the owner is the caller
     """

    callee: str





    def to_dict(self) -> dict[str, Any]:
        callee = self.callee


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "callee": callee,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        callee = d.pop("callee")

        one_to_one_call_room_options = cls(
            callee=callee,
        )

        return one_to_one_call_room_options

