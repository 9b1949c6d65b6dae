from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.audit_entry_action import AuditEntryAction
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.audit_entry_detail import AuditEntryDetail





T = TypeVar("T", bound="AuditEntry")



@_attrs_define
class AuditEntry:
    """ 
        Attributes:
            action (AuditEntryAction): What was done
            actor (str): `operator`, `tenant-admin` (a tenant file's key), `key:<id> (<label>)` (a key made through the
                API), `account:<id>` (a room's host) or `system`
            at (datetime.datetime):
            client_address (None | str):
            detail (AuditEntryDetail):
            id (str): The row's cursor
            key_fingerprint (None | str): 16 hex digits of the admin key's HMAC-SHA-256 under the server's secret (never the
                key); null for a host, and for the operator's acts shown to a tenant
            outcome (str): What came of it in a word or two (ok, removed, not a member, 3 sessions, 2 replayed)
            request_id (None | str): The request's X-Request-Id (the caller's, or one the server drew)
            target (str): What was acted on: room:<id>, room:<id>/account:<id>, account:<id>, outbox:<id>, webhook:<name>,
                tenants
            tenant (None | str): Null for an act on no one tenant (a tenant reload)
     """

    action: AuditEntryAction
    actor: str
    at: datetime.datetime
    client_address: None | str
    detail: AuditEntryDetail
    id: str
    key_fingerprint: None | str
    outcome: str
    request_id: None | str
    target: str
    tenant: None | str





    def to_dict(self) -> dict[str, Any]:
        from ..models.audit_entry_detail import AuditEntryDetail # noqa: PLC0415
        action = self.action.value

        actor = self.actor

        at = self.at.isoformat()

        client_address: None | str
        client_address = self.client_address

        detail = self.detail.to_dict()

        id = self.id

        key_fingerprint: None | str
        key_fingerprint = self.key_fingerprint

        outcome = self.outcome

        request_id: None | str
        request_id = self.request_id

        target = self.target

        tenant: None | str
        tenant = self.tenant


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "action": action,
            "actor": actor,
            "at": at,
            "clientAddress": client_address,
            "detail": detail,
            "id": id,
            "keyFingerprint": key_fingerprint,
            "outcome": outcome,
            "requestId": request_id,
            "target": target,
            "tenant": tenant,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_entry_detail import AuditEntryDetail # noqa: PLC0415
        d = dict(src_dict)
        action = AuditEntryAction(d.pop("action"))




        actor = d.pop("actor")

        at = datetime.datetime.fromisoformat(d.pop("at"))




        def _parse_client_address(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        client_address = _parse_client_address(d.pop("clientAddress"))


        detail = AuditEntryDetail.from_dict(d.pop("detail"))




        id = d.pop("id")

        def _parse_key_fingerprint(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        key_fingerprint = _parse_key_fingerprint(d.pop("keyFingerprint"))


        outcome = d.pop("outcome")

        def _parse_request_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        request_id = _parse_request_id(d.pop("requestId"))


        target = d.pop("target")

        def _parse_tenant(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tenant = _parse_tenant(d.pop("tenant"))


        audit_entry = cls(
            action=action,
            actor=actor,
            at=at,
            client_address=client_address,
            detail=detail,
            id=id,
            key_fingerprint=key_fingerprint,
            outcome=outcome,
            request_id=request_id,
            target=target,
            tenant=tenant,
        )

        return audit_entry

