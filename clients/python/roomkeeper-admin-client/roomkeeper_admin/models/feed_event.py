from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.feed_event_data import FeedEventData





T = TypeVar("T", bound="FeedEvent")



@_attrs_define
class FeedEvent:
    """ 
        Attributes:
            cursor (str): This event's place in the feed
            data (FeedEventData): As the webhook's: the event's fields, tenant and roomId (none for a tenant-wide ban and
                its lift)
            event_id (str): The event's id on its room's timeline
            id (str): The `webhook-id` its webhooks carry (derived from the body: a back end that takes both dedupes by it)
            timestamp (datetime.datetime):
            type_ (str): As the webhook's: room.created, member.joined, … or a plugin's type
     """

    cursor: str
    data: FeedEventData
    event_id: str
    id: str
    timestamp: datetime.datetime
    type_: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.feed_event_data import FeedEventData # noqa: PLC0415
        cursor = self.cursor

        data = self.data.to_dict()

        event_id = self.event_id

        id = self.id

        timestamp = self.timestamp.isoformat()

        type_ = self.type_


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "cursor": cursor,
            "data": data,
            "eventId": event_id,
            "id": id,
            "timestamp": timestamp,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.feed_event_data import FeedEventData # noqa: PLC0415
        d = dict(src_dict)
        cursor = d.pop("cursor")

        data = FeedEventData.from_dict(d.pop("data"))




        event_id = d.pop("eventId")

        id = d.pop("id")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))




        type_ = d.pop("type")

        feed_event = cls(
            cursor=cursor,
            data=data,
            event_id=event_id,
            id=id,
            timestamp=timestamp,
            type_=type_,
        )

        return feed_event

