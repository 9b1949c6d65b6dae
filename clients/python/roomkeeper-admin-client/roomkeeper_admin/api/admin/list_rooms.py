from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.list_rooms_state import ListRoomsState
from ...models.problem import Problem
from ...models.room_page import RoomPage
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    tenant: str,
    *,
    state: ListRoomsState | Unset = UNSET,
    plugin: str | Unset = UNSET,
    owner: str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_state: str | Unset = UNSET
    if not isinstance(state, Unset):
        json_state = state.value

    params["state"] = json_state

    params["plugin"] = plugin

    params["owner"] = owner

    params["limit"] = limit

    params["cursor"] = cursor


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/admin/v1/tenants/{tenant}/rooms".format(tenant=quote(str(tenant), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | RoomPage | None:
    if response.status_code == 200:
        response_200 = RoomPage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | RoomPage]:
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
    state: ListRoomsState | Unset = UNSET,
    plugin: str | Unset = UNSET,
    owner: str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> Response[Problem | RoomPage]:
    """ A tenant's rooms, newest first

    Args:
        tenant (str):
        state (ListRoomsState | Unset):
        plugin (str | Unset):
        owner (str | Unset):
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RoomPage]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
state=state,
plugin=plugin,
owner=owner,
limit=limit,
cursor=cursor,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    tenant: str,
    *,
    client: AuthenticatedClient | Client,
    state: ListRoomsState | Unset = UNSET,
    plugin: str | Unset = UNSET,
    owner: str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> Problem | RoomPage | None:
    """ A tenant's rooms, newest first

    Args:
        tenant (str):
        state (ListRoomsState | Unset):
        plugin (str | Unset):
        owner (str | Unset):
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RoomPage
     """


    return sync_detailed(
        tenant=tenant,
client=client,
state=state,
plugin=plugin,
owner=owner,
limit=limit,
cursor=cursor,

    ).parsed

async def asyncio_detailed(
    tenant: str,
    *,
    client: AuthenticatedClient | Client,
    state: ListRoomsState | Unset = UNSET,
    plugin: str | Unset = UNSET,
    owner: str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> Response[Problem | RoomPage]:
    """ A tenant's rooms, newest first

    Args:
        tenant (str):
        state (ListRoomsState | Unset):
        plugin (str | Unset):
        owner (str | Unset):
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RoomPage]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
state=state,
plugin=plugin,
owner=owner,
limit=limit,
cursor=cursor,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    tenant: str,
    *,
    client: AuthenticatedClient | Client,
    state: ListRoomsState | Unset = UNSET,
    plugin: str | Unset = UNSET,
    owner: str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> Problem | RoomPage | None:
    """ A tenant's rooms, newest first

    Args:
        tenant (str):
        state (ListRoomsState | Unset):
        plugin (str | Unset):
        owner (str | Unset):
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RoomPage
     """


    return (await asyncio_detailed(
        tenant=tenant,
client=client,
state=state,
plugin=plugin,
owner=owner,
limit=limit,
cursor=cursor,

    )).parsed
