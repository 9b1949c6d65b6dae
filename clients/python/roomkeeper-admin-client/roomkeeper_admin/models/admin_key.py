from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.admin_scope import AdminScope
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="AdminKey")



@_attrs_define
class AdminKey:
    """ 
        Attributes:
            created_at (datetime.datetime):
            created_by (str): who made it, as the audit log names callers
            id (str):
            label (str):
            scopes (list[AdminScope]):
            expires_at (datetime.datetime | Unset):
            key (str | Unset): the key itself: only in the answer that made it
            last_used_at (datetime.datetime | Unset): to the minute
            revoked_at (datetime.datetime | Unset):
     """

    created_at: datetime.datetime
    created_by: str
    id: str
    label: str
    scopes: list[AdminScope]
    expires_at: datetime.datetime | Unset = UNSET
    key: str | Unset = UNSET
    last_used_at: datetime.datetime | Unset = UNSET
    revoked_at: datetime.datetime | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        created_by = self.created_by

        id = self.id

        label = self.label

        scopes = []
        for scopes_item_data in self.scopes:
            scopes_item = scopes_item_data.value
            scopes.append(scopes_item)



        expires_at: str | Unset = UNSET
        if not isinstance(self.expires_at, Unset):
            expires_at = self.expires_at.isoformat()

        key = self.key

        last_used_at: str | Unset = UNSET
        if not isinstance(self.last_used_at, Unset):
            last_used_at = self.last_used_at.isoformat()

        revoked_at: str | Unset = UNSET
        if not isinstance(self.revoked_at, Unset):
            revoked_at = self.revoked_at.isoformat()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "createdAt": created_at,
            "createdBy": created_by,
            "id": id,
            "label": label,
            "scopes": scopes,
        })
        if expires_at is not UNSET:
            field_dict["expiresAt"] = expires_at
        if key is not UNSET:
            field_dict["key"] = key
        if last_used_at is not UNSET:
            field_dict["lastUsedAt"] = last_used_at
        if revoked_at is not UNSET:
            field_dict["revokedAt"] = revoked_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        created_by = d.pop("createdBy")

        id = d.pop("id")

        label = d.pop("label")

        scopes = []
        _scopes = d.pop("scopes")
        for scopes_item_data in (_scopes):
            scopes_item = AdminScope(scopes_item_data)



            scopes.append(scopes_item)


        _expires_at = d.pop("expiresAt", UNSET)
        expires_at: datetime.datetime | Unset
        if isinstance(_expires_at,  Unset):
            expires_at = UNSET
        else:
            expires_at = datetime.datetime.fromisoformat(_expires_at)




        key = d.pop("key", UNSET)

        _last_used_at = d.pop("lastUsedAt", UNSET)
        last_used_at: datetime.datetime | Unset
        if isinstance(_last_used_at,  Unset):
            last_used_at = UNSET
        else:
            last_used_at = datetime.datetime.fromisoformat(_last_used_at)




        _revoked_at = d.pop("revokedAt", UNSET)
        revoked_at: datetime.datetime | Unset
        if isinstance(_revoked_at,  Unset):
            revoked_at = UNSET
        else:
            revoked_at = datetime.datetime.fromisoformat(_revoked_at)




        admin_key = cls(
            created_at=created_at,
            created_by=created_by,
            id=id,
            label=label,
            scopes=scopes,
            expires_at=expires_at,
            key=key,
            last_used_at=last_used_at,
            revoked_at=revoked_at,
        )

        return admin_key

