from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="UsagePeriod")



@_attrs_define
class UsagePeriod:
    """ 
        Attributes:
            api_requests (int):
            im_messages (int): Texts in local IM chatrooms
            joins (int):
            member_minutes (float):
            peak_members (int): The most members joined at once, over the tenant's rooms
            room_minutes (float):
            rooms_opened (int):
            start (datetime.datetime): The hour's or UTC day's start
            webhook_deliveries (int): Deliveries the tenant's endpoints accepted
     """

    api_requests: int
    im_messages: int
    joins: int
    member_minutes: float
    peak_members: int
    room_minutes: float
    rooms_opened: int
    start: datetime.datetime
    webhook_deliveries: int





    def to_dict(self) -> dict[str, Any]:
        api_requests = self.api_requests

        im_messages = self.im_messages

        joins = self.joins

        member_minutes = self.member_minutes

        peak_members = self.peak_members

        room_minutes = self.room_minutes

        rooms_opened = self.rooms_opened

        start = self.start.isoformat()

        webhook_deliveries = self.webhook_deliveries


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "apiRequests": api_requests,
            "imMessages": im_messages,
            "joins": joins,
            "memberMinutes": member_minutes,
            "peakMembers": peak_members,
            "roomMinutes": room_minutes,
            "roomsOpened": rooms_opened,
            "start": start,
            "webhookDeliveries": webhook_deliveries,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        api_requests = d.pop("apiRequests")

        im_messages = d.pop("imMessages")

        joins = d.pop("joins")

        member_minutes = d.pop("memberMinutes")

        peak_members = d.pop("peakMembers")

        room_minutes = d.pop("roomMinutes")

        rooms_opened = d.pop("roomsOpened")

        start = datetime.datetime.fromisoformat(d.pop("start"))




        webhook_deliveries = d.pop("webhookDeliveries")

        usage_period = cls(
            api_requests=api_requests,
            im_messages=im_messages,
            joins=joins,
            member_minutes=member_minutes,
            peak_members=peak_members,
            room_minutes=room_minutes,
            rooms_opened=rooms_opened,
            start=start,
            webhook_deliveries=webhook_deliveries,
        )

        return usage_period

