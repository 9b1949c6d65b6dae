from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.ban import Ban





T = TypeVar("T", bound="Kicked")



@_attrs_define
class Kicked:
    """ 
        Attributes:
            account (str):
            ban (Ban | None): The ban that keeps it out for the kick's duration; null without a duration
            room (int):
     """

    account: str
    ban: Ban | None
    room: int





    def to_dict(self) -> dict[str, Any]:
        from ..models.ban import Ban # noqa: PLC0415
        account = self.account

        ban: dict[str, Any] | None
        if isinstance(self.ban, Ban):
            ban = self.ban.to_dict()
        else:
            ban = self.ban

        room = self.room


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "account": account,
            "ban": ban,
            "room": room,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.ban import Ban # noqa: PLC0415
        d = dict(src_dict)
        account = d.pop("account")

        def _parse_ban(data: object) -> Ban | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                ban_type_0 = Ban.from_dict(data)



                return ban_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Ban | None, data)

        ban = _parse_ban(d.pop("ban"))


        room = d.pop("room")

        kicked = cls(
            account=account,
            ban=ban,
            room=room,
        )

        return kicked

