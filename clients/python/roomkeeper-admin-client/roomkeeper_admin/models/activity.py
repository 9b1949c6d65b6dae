from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.activity_buckets_item import ActivityBucketsItem





T = TypeVar("T", bound="Activity")



@_attrs_define
class Activity:
    """ 
        Attributes:
            buckets (list[ActivityBucketsItem]):
            tenant (str):
     """

    buckets: list[ActivityBucketsItem]
    tenant: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.activity_buckets_item import ActivityBucketsItem # noqa: PLC0415
        buckets = []
        for buckets_item_data in self.buckets:
            buckets_item = buckets_item_data.to_dict()
            buckets.append(buckets_item)



        tenant = self.tenant


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "buckets": buckets,
            "tenant": tenant,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.activity_buckets_item import ActivityBucketsItem # noqa: PLC0415
        d = dict(src_dict)
        buckets = []
        _buckets = d.pop("buckets")
        for buckets_item_data in (_buckets):
            buckets_item = ActivityBucketsItem.from_dict(buckets_item_data)



            buckets.append(buckets_item)


        tenant = d.pop("tenant")

        activity = cls(
            buckets=buckets,
            tenant=tenant,
        )

        return activity

