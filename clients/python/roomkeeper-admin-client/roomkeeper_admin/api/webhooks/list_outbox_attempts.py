from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.attempt_page import AttemptPage
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    tenant: str,
    entry: int,
    *,
    limit: int | Unset = 50,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["limit"] = limit


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/admin/v1/tenants/{tenant}/outbox/{entry}/attempts".format(tenant=quote(str(tenant), safe=""),entry=quote(str(entry), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AttemptPage | Problem | None:
    if response.status_code == 200:
        response_200 = AttemptPage.from_dict(response.json())



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

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AttemptPage | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tenant: str,
    entry: int,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 50,

) -> Response[AttemptPage | Problem]:
    """ An outbox entry's delivery attempts, newest first: outcome, latency and, for webhooks, the
    receiver's status

    Args:
        tenant (str):
        entry (int):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AttemptPage | Problem]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
entry=entry,
limit=limit,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    tenant: str,
    entry: int,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 50,

) -> AttemptPage | Problem | None:
    """ An outbox entry's delivery attempts, newest first: outcome, latency and, for webhooks, the
    receiver's status

    Args:
        tenant (str):
        entry (int):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AttemptPage | Problem
     """


    return sync_detailed(
        tenant=tenant,
entry=entry,
client=client,
limit=limit,

    ).parsed

async def asyncio_detailed(
    tenant: str,
    entry: int,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 50,

) -> Response[AttemptPage | Problem]:
    """ An outbox entry's delivery attempts, newest first: outcome, latency and, for webhooks, the
    receiver's status

    Args:
        tenant (str):
        entry (int):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AttemptPage | Problem]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
entry=entry,
limit=limit,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    tenant: str,
    entry: int,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 50,

) -> AttemptPage | Problem | None:
    """ An outbox entry's delivery attempts, newest first: outcome, latency and, for webhooks, the
    receiver's status

    Args:
        tenant (str):
        entry (int):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AttemptPage | Problem
     """


    return (await asyncio_detailed(
        tenant=tenant,
entry=entry,
client=client,
limit=limit,

    )).parsed
