from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.budget import Budget
  from ..models.budgets import Budgets
  from ..models.tenant_limits_quotas_item import TenantLimitsQuotasItem
  from ..models.tenant_limits_usage import TenantLimitsUsage





T = TypeVar("T", bound="TenantLimits")



@_attrs_define
class TenantLimits:
    """ 
        Attributes:
            budgets (Budgets):
            instances (int):
            per_instance (Budgets):
            quotas (list[TenantLimitsQuotasItem]):
            room_joins (Budget):
            tenant (str):
            usage (TenantLimitsUsage):
            max_accounts (int | None | Unset): accounts the tenant may hold; absent: no quota
     """

    budgets: Budgets
    instances: int
    per_instance: Budgets
    quotas: list[TenantLimitsQuotasItem]
    room_joins: Budget
    tenant: str
    usage: TenantLimitsUsage
    max_accounts: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.budget import Budget # noqa: PLC0415
        from ..models.budgets import Budgets # noqa: PLC0415
        from ..models.tenant_limits_quotas_item import TenantLimitsQuotasItem # noqa: PLC0415
        from ..models.tenant_limits_usage import TenantLimitsUsage # noqa: PLC0415
        budgets = self.budgets.to_dict()

        instances = self.instances

        per_instance = self.per_instance.to_dict()

        quotas = []
        for quotas_item_data in self.quotas:
            quotas_item = quotas_item_data.to_dict()
            quotas.append(quotas_item)



        room_joins = self.room_joins.to_dict()

        tenant = self.tenant

        usage = self.usage.to_dict()

        max_accounts: int | None | Unset
        if isinstance(self.max_accounts, Unset):
            max_accounts = UNSET
        else:
            max_accounts = self.max_accounts


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "budgets": budgets,
            "instances": instances,
            "perInstance": per_instance,
            "quotas": quotas,
            "roomJoins": room_joins,
            "tenant": tenant,
            "usage": usage,
        })
        if max_accounts is not UNSET:
            field_dict["maxAccounts"] = max_accounts

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.budget import Budget # noqa: PLC0415
        from ..models.budgets import Budgets # noqa: PLC0415
        from ..models.tenant_limits_quotas_item import TenantLimitsQuotasItem # noqa: PLC0415
        from ..models.tenant_limits_usage import TenantLimitsUsage # noqa: PLC0415
        d = dict(src_dict)
        budgets = Budgets.from_dict(d.pop("budgets"))




        instances = d.pop("instances")

        per_instance = Budgets.from_dict(d.pop("perInstance"))




        quotas = []
        _quotas = d.pop("quotas")
        for quotas_item_data in (_quotas):
            quotas_item = TenantLimitsQuotasItem.from_dict(quotas_item_data)



            quotas.append(quotas_item)


        room_joins = Budget.from_dict(d.pop("roomJoins"))




        tenant = d.pop("tenant")

        usage = TenantLimitsUsage.from_dict(d.pop("usage"))




        def _parse_max_accounts(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_accounts = _parse_max_accounts(d.pop("maxAccounts", UNSET))


        tenant_limits = cls(
            budgets=budgets,
            instances=instances,
            per_instance=per_instance,
            quotas=quotas,
            room_joins=room_joins,
            tenant=tenant,
            usage=usage,
            max_accounts=max_accounts,
        )

        return tenant_limits

