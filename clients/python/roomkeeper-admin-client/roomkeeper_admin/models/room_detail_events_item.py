from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="RoomDetailEventsItem")



@_attrs_define
class RoomDetailEventsItem:
    """ 
        Attributes:
            actor (str):
            at (datetime.datetime):
            detail (Any):
            id (int):
            kind (str):
     """

    actor: str
    at: datetime.datetime
    detail: Any
    id: int
    kind: str





    def to_dict(self) -> dict[str, Any]:
        actor = self.actor

        at = self.at.isoformat()

        detail = self.detail

        id = self.id

        kind = self.kind


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "actor": actor,
            "at": at,
            "detail": detail,
            "id": id,
            "kind": kind,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        actor = d.pop("actor")

        at = datetime.datetime.fromisoformat(d.pop("at"))




        detail = d.pop("detail")

        id = d.pop("id")

        kind = d.pop("kind")

        room_detail_events_item = cls(
            actor=actor,
            at=at,
            detail=detail,
            id=id,
            kind=kind,
        )

        return room_detail_events_item

