from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="WebhookEndpoint")



@_attrs_define
class WebhookEndpoint:
    """ 
        Attributes:
            events (list[str]): Event types sent; "*" for all
            name (str):
            signing_secrets (int): Signatures per delivery: two while a secret is rotated
            url (str):
     """

    events: list[str]
    name: str
    signing_secrets: int
    url: str





    def to_dict(self) -> dict[str, Any]:
        events = self.events



        name = self.name

        signing_secrets = self.signing_secrets

        url = self.url


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "events": events,
            "name": name,
            "signingSecrets": signing_secrets,
            "url": url,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        events = cast(list[str], d.pop("events"))


        name = d.pop("name")

        signing_secrets = d.pop("signingSecrets")

        url = d.pop("url")

        webhook_endpoint = cls(
            events=events,
            name=name,
            signing_secrets=signing_secrets,
            url=url,
        )

        return webhook_endpoint

