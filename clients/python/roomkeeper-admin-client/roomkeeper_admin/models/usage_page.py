from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.usage_page_granularity import UsagePageGranularity
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.usage_period import UsagePeriod





T = TypeVar("T", bound="UsagePage")



@_attrs_define
class UsagePage:
    """ 
        Attributes:
            from_ (datetime.datetime):
            granularity (UsagePageGranularity):
            items (list[UsagePeriod]):
            tenant (str):
            to (datetime.datetime):
     """

    from_: datetime.datetime
    granularity: UsagePageGranularity
    items: list[UsagePeriod]
    tenant: str
    to: datetime.datetime





    def to_dict(self) -> dict[str, Any]:
        from ..models.usage_period import UsagePeriod # noqa: PLC0415
        from_ = self.from_.isoformat()

        granularity = self.granularity.value

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)



        tenant = self.tenant

        to = self.to.isoformat()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "from": from_,
            "granularity": granularity,
            "items": items,
            "tenant": tenant,
            "to": to,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.usage_period import UsagePeriod # noqa: PLC0415
        d = dict(src_dict)
        from_ = datetime.datetime.fromisoformat(d.pop("from"))




        granularity = UsagePageGranularity(d.pop("granularity"))




        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            items_item = UsagePeriod.from_dict(items_item_data)



            items.append(items_item)


        tenant = d.pop("tenant")

        to = datetime.datetime.fromisoformat(d.pop("to"))




        usage_page = cls(
            from_=from_,
            granularity=granularity,
            items=items,
            tenant=tenant,
            to=to,
        )

        return usage_page

