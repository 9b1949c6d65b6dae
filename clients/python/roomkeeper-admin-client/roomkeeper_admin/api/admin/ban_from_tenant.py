from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.ban import Ban
from ...models.new_ban import NewBan
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    tenant: str,
    *,
    body: NewBan,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/admin/v1/tenants/{tenant}/bans".format(tenant=quote(str(tenant), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Ban | Problem | None:
    if response.status_code == 201:
        response_201 = Ban.from_dict(response.json())



        return response_201

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

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())



        return response_415

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Ban | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tenant: str,
    *,
    client: AuthenticatedClient | Client,
    body: NewBan,

) -> Response[Ban | Problem]:
    """ Keep an account out of every room of the tenant

     Its sessions and IM tokens end now (its sockets close); until `durationSeconds` from now, or until
    lifted, it gets no new session, no IM token from a plugin's login and no join. Webhooks say
    `member.banned` (without a room).

    Args:
        tenant (str):
        body (NewBan):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Ban | Problem]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    tenant: str,
    *,
    client: AuthenticatedClient | Client,
    body: NewBan,

) -> Ban | Problem | None:
    """ Keep an account out of every room of the tenant

     Its sessions and IM tokens end now (its sockets close); until `durationSeconds` from now, or until
    lifted, it gets no new session, no IM token from a plugin's login and no join. Webhooks say
    `member.banned` (without a room).

    Args:
        tenant (str):
        body (NewBan):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Ban | Problem
     """


    return sync_detailed(
        tenant=tenant,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    tenant: str,
    *,
    client: AuthenticatedClient | Client,
    body: NewBan,

) -> Response[Ban | Problem]:
    """ Keep an account out of every room of the tenant

     Its sessions and IM tokens end now (its sockets close); until `durationSeconds` from now, or until
    lifted, it gets no new session, no IM token from a plugin's login and no join. Webhooks say
    `member.banned` (without a room).

    Args:
        tenant (str):
        body (NewBan):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Ban | Problem]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    tenant: str,
    *,
    client: AuthenticatedClient | Client,
    body: NewBan,

) -> Ban | Problem | None:
    """ Keep an account out of every room of the tenant

     Its sessions and IM tokens end now (its sockets close); until `durationSeconds` from now, or until
    lifted, it gets no new session, no IM token from a plugin's login and no join. Webhooks say
    `member.banned` (without a room).

    Args:
        tenant (str):
        body (NewBan):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Ban | Problem
     """


    return (await asyncio_detailed(
        tenant=tenant,
client=client,
body=body,

    )).parsed
