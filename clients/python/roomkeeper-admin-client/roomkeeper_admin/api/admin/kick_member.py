from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.kick import Kick
from ...models.kicked import Kicked
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    tenant: str,
    room: int,
    account: str,
    *,
    body: Kick | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/admin/v1/tenants/{tenant}/rooms/{room}/members/{account}/kick".format(tenant=quote(str(tenant), safe=""),room=quote(str(room), safe=""),account=quote(str(account), safe=""),),
    }

    
    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Kicked | Problem | None:
    if response.status_code == 200:
        response_200 = Kicked.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Kicked | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tenant: str,
    room: int,
    account: str,
    *,
    client: AuthenticatedClient | Client,
    body: Kick | Unset = UNSET,

) -> Response[Kicked | Problem]:
    """ Take an account out of a room, and keep it out for a while

     Its membership ends, the plugin frees its seat or mic position and tells the room (SealMic: a
    `kick`), and the room's timeline and webhooks say `member.kicked`. With `durationSeconds` the
    account is also banned from the room until then (the answer's `ban`): no join, seat apply or local
    IM chatroom enter gets it back in, whatever token it holds.

    Args:
        tenant (str):
        room (int):
        account (str):
        body (Kick | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Kicked | Problem]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
room=room,
account=account,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    tenant: str,
    room: int,
    account: str,
    *,
    client: AuthenticatedClient | Client,
    body: Kick | Unset = UNSET,

) -> Kicked | Problem | None:
    """ Take an account out of a room, and keep it out for a while

     Its membership ends, the plugin frees its seat or mic position and tells the room (SealMic: a
    `kick`), and the room's timeline and webhooks say `member.kicked`. With `durationSeconds` the
    account is also banned from the room until then (the answer's `ban`): no join, seat apply or local
    IM chatroom enter gets it back in, whatever token it holds.

    Args:
        tenant (str):
        room (int):
        account (str):
        body (Kick | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Kicked | Problem
     """


    return sync_detailed(
        tenant=tenant,
room=room,
account=account,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    tenant: str,
    room: int,
    account: str,
    *,
    client: AuthenticatedClient | Client,
    body: Kick | Unset = UNSET,

) -> Response[Kicked | Problem]:
    """ Take an account out of a room, and keep it out for a while

     Its membership ends, the plugin frees its seat or mic position and tells the room (SealMic: a
    `kick`), and the room's timeline and webhooks say `member.kicked`. With `durationSeconds` the
    account is also banned from the room until then (the answer's `ban`): no join, seat apply or local
    IM chatroom enter gets it back in, whatever token it holds.

    Args:
        tenant (str):
        room (int):
        account (str):
        body (Kick | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Kicked | Problem]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
room=room,
account=account,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    tenant: str,
    room: int,
    account: str,
    *,
    client: AuthenticatedClient | Client,
    body: Kick | Unset = UNSET,

) -> Kicked | Problem | None:
    """ Take an account out of a room, and keep it out for a while

     Its membership ends, the plugin frees its seat or mic position and tells the room (SealMic: a
    `kick`), and the room's timeline and webhooks say `member.kicked`. With `durationSeconds` the
    account is also banned from the room until then (the answer's `ban`): no join, seat apply or local
    IM chatroom enter gets it back in, whatever token it holds.

    Args:
        tenant (str):
        room (int):
        account (str):
        body (Kick | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Kicked | Problem
     """


    return (await asyncio_detailed(
        tenant=tenant,
room=room,
account=account,
client=client,
body=body,

    )).parsed
