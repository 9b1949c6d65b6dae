from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.attempt_outcome import AttemptOutcome
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="Attempt")



@_attrs_define
class Attempt:
    """ 
        Attributes:
            at (datetime.datetime):
            attempt (int):
            latency_ms (int):
            outcome (AttemptOutcome):
            error (None | str | Unset):
            status_code (int | None | Unset): The receiver's HTTP status (webhooks); null when it did not answer
     """

    at: datetime.datetime
    attempt: int
    latency_ms: int
    outcome: AttemptOutcome
    error: None | str | Unset = UNSET
    status_code: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        attempt = self.attempt

        latency_ms = self.latency_ms

        outcome = self.outcome.value

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        status_code: int | None | Unset
        if isinstance(self.status_code, Unset):
            status_code = UNSET
        else:
            status_code = self.status_code


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "at": at,
            "attempt": attempt,
            "latencyMs": latency_ms,
            "outcome": outcome,
        })
        if error is not UNSET:
            field_dict["error"] = error
        if status_code is not UNSET:
            field_dict["statusCode"] = status_code

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))




        attempt = d.pop("attempt")

        latency_ms = d.pop("latencyMs")

        outcome = AttemptOutcome(d.pop("outcome"))




        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))


        def _parse_status_code(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        status_code = _parse_status_code(d.pop("statusCode", UNSET))


        attempt = cls(
            at=at,
            attempt=attempt,
            latency_ms=latency_ms,
            outcome=outcome,
            error=error,
            status_code=status_code,
        )

        return attempt

