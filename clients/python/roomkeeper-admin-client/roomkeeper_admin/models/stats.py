from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.stats_outbox import StatsOutbox
  from ..models.stats_rooms import StatsRooms





T = TypeVar("T", bound="Stats")



@_attrs_define
class Stats:
    """ 
        Attributes:
            outbox (StatsOutbox):
            rooms (StatsRooms):
            tenant (str):
     """

    outbox: StatsOutbox
    rooms: StatsRooms
    tenant: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.stats_outbox import StatsOutbox # noqa: PLC0415
        from ..models.stats_rooms import StatsRooms # noqa: PLC0415
        outbox = self.outbox.to_dict()

        rooms = self.rooms.to_dict()

        tenant = self.tenant


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "outbox": outbox,
            "rooms": rooms,
            "tenant": tenant,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stats_outbox import StatsOutbox # noqa: PLC0415
        from ..models.stats_rooms import StatsRooms # noqa: PLC0415
        d = dict(src_dict)
        outbox = StatsOutbox.from_dict(d.pop("outbox"))




        rooms = StatsRooms.from_dict(d.pop("rooms"))




        tenant = d.pop("tenant")

        stats = cls(
            outbox=outbox,
            rooms=rooms,
            tenant=tenant,
        )

        return stats

