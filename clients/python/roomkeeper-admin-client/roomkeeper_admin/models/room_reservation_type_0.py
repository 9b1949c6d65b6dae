from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="RoomReservationType0")



@_attrs_define
class RoomReservationType0:
    """ null: the room is not reserved

        Attributes:
            accounts (list[str]):
            on_lapse (str):
            until (datetime.datetime):
            claimed_at (datetime.datetime | None | Unset):
     """

    accounts: list[str]
    on_lapse: str
    until: datetime.datetime
    claimed_at: datetime.datetime | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        accounts = self.accounts



        on_lapse = self.on_lapse

        until = self.until.isoformat()

        claimed_at: None | str | Unset
        if isinstance(self.claimed_at, Unset):
            claimed_at = UNSET
        elif isinstance(self.claimed_at, datetime.datetime):
            claimed_at = self.claimed_at.isoformat()
        else:
            claimed_at = self.claimed_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "accounts": accounts,
            "onLapse": on_lapse,
            "until": until,
        })
        if claimed_at is not UNSET:
            field_dict["claimedAt"] = claimed_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        accounts = cast(list[str], d.pop("accounts"))


        on_lapse = d.pop("onLapse")

        until = datetime.datetime.fromisoformat(d.pop("until"))




        def _parse_claimed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                claimed_at_type_0 = datetime.datetime.fromisoformat(data)



                return claimed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        claimed_at = _parse_claimed_at(d.pop("claimedAt", UNSET))


        room_reservation_type_0 = cls(
            accounts=accounts,
            on_lapse=on_lapse,
            until=until,
            claimed_at=claimed_at,
        )

        return room_reservation_type_0

