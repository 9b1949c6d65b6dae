from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.ban_page import BanPage
from ...models.list_room_mutes_active import ListRoomMutesActive
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    tenant: str,
    room: int,
    *,
    account: str | Unset = UNSET,
    active: ListRoomMutesActive | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["account"] = account

    json_active: str | Unset = UNSET
    if not isinstance(active, Unset):
        json_active = active.value

    params["active"] = json_active

    params["limit"] = limit

    params["cursor"] = cursor


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/admin/v1/tenants/{tenant}/rooms/{room}/mutes".format(tenant=quote(str(tenant), safe=""),room=quote(str(room), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> BanPage | Problem | None:
    if response.status_code == 200:
        response_200 = BanPage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[BanPage | Problem]:
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
    account: str | Unset = UNSET,
    active: ListRoomMutesActive | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> Response[BanPage | Problem]:
    """ The room's mutes, newest first

    Args:
        tenant (str):
        room (int):
        account (str | Unset):
        active (ListRoomMutesActive | Unset):
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BanPage | Problem]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
room=room,
account=account,
active=active,
limit=limit,
cursor=cursor,

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
    account: str | Unset = UNSET,
    active: ListRoomMutesActive | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> BanPage | Problem | None:
    """ The room's mutes, newest first

    Args:
        tenant (str):
        room (int):
        account (str | Unset):
        active (ListRoomMutesActive | Unset):
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BanPage | Problem
     """


    return sync_detailed(
        tenant=tenant,
room=room,
client=client,
account=account,
active=active,
limit=limit,
cursor=cursor,

    ).parsed

async def asyncio_detailed(
    tenant: str,
    room: int,
    *,
    client: AuthenticatedClient | Client,
    account: str | Unset = UNSET,
    active: ListRoomMutesActive | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> Response[BanPage | Problem]:
    """ The room's mutes, newest first

    Args:
        tenant (str):
        room (int):
        account (str | Unset):
        active (ListRoomMutesActive | Unset):
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BanPage | Problem]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
room=room,
account=account,
active=active,
limit=limit,
cursor=cursor,

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
    account: str | Unset = UNSET,
    active: ListRoomMutesActive | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> BanPage | Problem | None:
    """ The room's mutes, newest first

    Args:
        tenant (str):
        room (int):
        account (str | Unset):
        active (ListRoomMutesActive | Unset):
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BanPage | Problem
     """


    return (await asyncio_detailed(
        tenant=tenant,
room=room,
client=client,
account=account,
active=active,
limit=limit,
cursor=cursor,

    )).parsed
