from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.extend import Extend
from ...models.problem import Problem
from ...models.room import Room
from typing import cast



def _get_kwargs(
    tenant: str,
    room: int,
    *,
    body: Extend,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/admin/v1/tenants/{tenant}/rooms/{room}/extend".format(tenant=quote(str(tenant), safe=""),room=quote(str(room), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Room | None:
    if response.status_code == 200:
        response_200 = Room.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | Room]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tenant: str,
    room: int,
    *,
    client: AuthenticatedClient | Client,
    body: Extend,

) -> Response[Problem | Room]:
    """ Move an open room's expiry later

    Args:
        tenant (str):
        room (int):
        body (Extend):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Room]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
room=room,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    tenant: str,
    room: int,
    *,
    client: AuthenticatedClient | Client,
    body: Extend,

) -> Problem | Room | None:
    """ Move an open room's expiry later

    Args:
        tenant (str):
        room (int):
        body (Extend):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Room
     """


    return sync_detailed(
        tenant=tenant,
room=room,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    tenant: str,
    room: int,
    *,
    client: AuthenticatedClient | Client,
    body: Extend,

) -> Response[Problem | Room]:
    """ Move an open room's expiry later

    Args:
        tenant (str):
        room (int):
        body (Extend):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Room]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
room=room,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    tenant: str,
    room: int,
    *,
    client: AuthenticatedClient | Client,
    body: Extend,

) -> Problem | Room | None:
    """ Move an open room's expiry later

    Args:
        tenant (str):
        room (int):
        body (Extend):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Room
     """


    return (await asyncio_detailed(
        tenant=tenant,
room=room,
client=client,
body=body,

    )).parsed
