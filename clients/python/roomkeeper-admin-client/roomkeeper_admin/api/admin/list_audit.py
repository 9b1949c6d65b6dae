from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.audit_page import AuditPage
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    tenant: str | Unset = UNSET,
    after: str | Unset = UNSET,
    before: str | Unset = UNSET,
    action: str | Unset = UNSET,
    actor: str | Unset = UNSET,
    limit: int | Unset = 50,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["tenant"] = tenant

    params["after"] = after

    params["before"] = before

    params["action"] = action

    params["actor"] = actor

    params["limit"] = limit


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/admin/v1/audit",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AuditPage | Problem | None:
    if response.status_code == 200:
        response_200 = AuditPage.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())



        return response_403

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AuditPage | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    tenant: str | Unset = UNSET,
    after: str | Unset = UNSET,
    before: str | Unset = UNSET,
    action: str | Unset = UNSET,
    actor: str | Unset = UNSET,
    limit: int | Unset = 50,

) -> Response[AuditPage | Problem]:
    """ Every tenant's audit log and the operator's own acts (the operator key only)

     As a tenant's, across tenants; `tenant` narrows it to one. Acts on no one tenant (a tenant reload)
    have `tenant` null.

    Args:
        tenant (str | Unset):
        after (str | Unset):
        before (str | Unset):
        action (str | Unset):
        actor (str | Unset):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditPage | Problem]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
after=after,
before=before,
action=action,
actor=actor,
limit=limit,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    tenant: str | Unset = UNSET,
    after: str | Unset = UNSET,
    before: str | Unset = UNSET,
    action: str | Unset = UNSET,
    actor: str | Unset = UNSET,
    limit: int | Unset = 50,

) -> AuditPage | Problem | None:
    """ Every tenant's audit log and the operator's own acts (the operator key only)

     As a tenant's, across tenants; `tenant` narrows it to one. Acts on no one tenant (a tenant reload)
    have `tenant` null.

    Args:
        tenant (str | Unset):
        after (str | Unset):
        before (str | Unset):
        action (str | Unset):
        actor (str | Unset):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditPage | Problem
     """


    return sync_detailed(
        client=client,
tenant=tenant,
after=after,
before=before,
action=action,
actor=actor,
limit=limit,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    tenant: str | Unset = UNSET,
    after: str | Unset = UNSET,
    before: str | Unset = UNSET,
    action: str | Unset = UNSET,
    actor: str | Unset = UNSET,
    limit: int | Unset = 50,

) -> Response[AuditPage | Problem]:
    """ Every tenant's audit log and the operator's own acts (the operator key only)

     As a tenant's, across tenants; `tenant` narrows it to one. Acts on no one tenant (a tenant reload)
    have `tenant` null.

    Args:
        tenant (str | Unset):
        after (str | Unset):
        before (str | Unset):
        action (str | Unset):
        actor (str | Unset):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditPage | Problem]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
after=after,
before=before,
action=action,
actor=actor,
limit=limit,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    tenant: str | Unset = UNSET,
    after: str | Unset = UNSET,
    before: str | Unset = UNSET,
    action: str | Unset = UNSET,
    actor: str | Unset = UNSET,
    limit: int | Unset = 50,

) -> AuditPage | Problem | None:
    """ Every tenant's audit log and the operator's own acts (the operator key only)

     As a tenant's, across tenants; `tenant` narrows it to one. Acts on no one tenant (a tenant reload)
    have `tenant` null.

    Args:
        tenant (str | Unset):
        after (str | Unset):
        before (str | Unset):
        action (str | Unset):
        actor (str | Unset):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditPage | Problem
     """


    return (await asyncio_detailed(
        client=client,
tenant=tenant,
after=after,
before=before,
action=action,
actor=actor,
limit=limit,

    )).parsed
