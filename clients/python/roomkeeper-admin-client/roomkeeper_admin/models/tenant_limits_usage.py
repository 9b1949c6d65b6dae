from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="TenantLimitsUsage")



@_attrs_define
class TenantLimitsUsage:
    """ 
        Attributes:
            accounts (int):
            open_rooms (int):
            sockets (int):
     """

    accounts: int
    open_rooms: int
    sockets: int





    def to_dict(self) -> dict[str, Any]:
        accounts = self.accounts

        open_rooms = self.open_rooms

        sockets = self.sockets


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "accounts": accounts,
            "openRooms": open_rooms,
            "sockets": sockets,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        accounts = d.pop("accounts")

        open_rooms = d.pop("openRooms")

        sockets = d.pop("sockets")

        tenant_limits_usage = cls(
            accounts=accounts,
            open_rooms=open_rooms,
            sockets=sockets,
        )

        return tenant_limits_usage

