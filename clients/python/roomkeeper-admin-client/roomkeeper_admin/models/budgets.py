from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.budget import Budget





T = TypeVar("T", bound="Budgets")



@_attrs_define
class Budgets:
    """ 
        Attributes:
            account (Budget):
            admin (Budget):
            client (Budget):
     """

    account: Budget
    admin: Budget
    client: Budget





    def to_dict(self) -> dict[str, Any]:
        from ..models.budget import Budget # noqa: PLC0415
        account = self.account.to_dict()

        admin = self.admin.to_dict()

        client = self.client.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "account": account,
            "admin": admin,
            "client": client,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.budget import Budget # noqa: PLC0415
        d = dict(src_dict)
        account = Budget.from_dict(d.pop("account"))




        admin = Budget.from_dict(d.pop("admin"))




        client = Budget.from_dict(d.pop("client"))




        budgets = cls(
            account=account,
            admin=admin,
            client=client,
        )

        return budgets

