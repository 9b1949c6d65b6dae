from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.room_session_page import RoomSessionPage
from ...types import UNSET, Unset
from typing import cast
import datetime



def _get_kwargs(
    tenant: str,
    *,
    plugin: str | Unset = UNSET,
    room: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["plugin"] = plugin

    params["room"] = room

    json_from_: str | Unset = UNSET
    if not isinstance(from_, Unset):
        json_from_ = from_.isoformat()
    params["from"] = json_from_

    json_to: str | Unset = UNSET
    if not isinstance(to, Unset):
        json_to = to.isoformat()
    params["to"] = json_to

    params["limit"] = limit

    params["cursor"] = cursor


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/admin/v1/tenants/{tenant}/sessions".format(tenant=quote(str(tenant), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | RoomSessionPage | None:
    if response.status_code == 200:
        response_200 = RoomSessionPage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | RoomSessionPage]:
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
    plugin: str | Unset = UNSET,
    room: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> Response[Problem | RoomSessionPage]:
    """ Every room's session facts, newest first

     When each room opened and closed (and why), how long it lasted (so far, while open), how many are in
    it now, how many joins it had in all and at most at once, and how many texts its local IM chatroom
    carried (null for a vendor's chatroom). Kept by the statements that change them, never counted on
    request.

    Args:
        tenant (str):
        plugin (str | Unset):
        room (str | Unset):
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RoomSessionPage]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
plugin=plugin,
room=room,
from_=from_,
to=to,
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
    plugin: str | Unset = UNSET,
    room: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> Problem | RoomSessionPage | None:
    """ Every room's session facts, newest first

     When each room opened and closed (and why), how long it lasted (so far, while open), how many are in
    it now, how many joins it had in all and at most at once, and how many texts its local IM chatroom
    carried (null for a vendor's chatroom). Kept by the statements that change them, never counted on
    request.

    Args:
        tenant (str):
        plugin (str | Unset):
        room (str | Unset):
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RoomSessionPage
     """


    return sync_detailed(
        tenant=tenant,
client=client,
plugin=plugin,
room=room,
from_=from_,
to=to,
limit=limit,
cursor=cursor,

    ).parsed

async def asyncio_detailed(
    tenant: str,
    *,
    client: AuthenticatedClient | Client,
    plugin: str | Unset = UNSET,
    room: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> Response[Problem | RoomSessionPage]:
    """ Every room's session facts, newest first

     When each room opened and closed (and why), how long it lasted (so far, while open), how many are in
    it now, how many joins it had in all and at most at once, and how many texts its local IM chatroom
    carried (null for a vendor's chatroom). Kept by the statements that change them, never counted on
    request.

    Args:
        tenant (str):
        plugin (str | Unset):
        room (str | Unset):
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RoomSessionPage]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
plugin=plugin,
room=room,
from_=from_,
to=to,
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
    plugin: str | Unset = UNSET,
    room: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> Problem | RoomSessionPage | None:
    """ Every room's session facts, newest first

     When each room opened and closed (and why), how long it lasted (so far, while open), how many are in
    it now, how many joins it had in all and at most at once, and how many texts its local IM chatroom
    carried (null for a vendor's chatroom). Kept by the statements that change them, never counted on
    request.

    Args:
        tenant (str):
        plugin (str | Unset):
        room (str | Unset):
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RoomSessionPage
     """


    return (await asyncio_detailed(
        tenant=tenant,
client=client,
plugin=plugin,
room=room,
from_=from_,
to=to,
limit=limit,
cursor=cursor,

    )).parsed
