from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.ban import Ban
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    tenant: str,
    room: int,
    mute: int,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/admin/v1/tenants/{tenant}/rooms/{room}/mutes/{mute}".format(tenant=quote(str(tenant), safe=""),room=quote(str(room), safe=""),mute=quote(str(mute), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Ban | Problem | None:
    if response.status_code == 200:
        response_200 = Ban.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Ban | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tenant: str,
    room: int,
    mute: int,
    *,
    client: AuthenticatedClient | Client,

) -> Response[Ban | Problem]:
    """ Lift a mute of the room that is in force

     The account may speak again at once; the mute stays listed, with `liftedAt`. Webhooks say
    `member.unmuted`.

    Args:
        tenant (str):
        room (int):
        mute (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Ban | Problem]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
room=room,
mute=mute,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    tenant: str,
    room: int,
    mute: int,
    *,
    client: AuthenticatedClient | Client,

) -> Ban | Problem | None:
    """ Lift a mute of the room that is in force

     The account may speak again at once; the mute stays listed, with `liftedAt`. Webhooks say
    `member.unmuted`.

    Args:
        tenant (str):
        room (int):
        mute (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Ban | Problem
     """


    return sync_detailed(
        tenant=tenant,
room=room,
mute=mute,
client=client,

    ).parsed

async def asyncio_detailed(
    tenant: str,
    room: int,
    mute: int,
    *,
    client: AuthenticatedClient | Client,

) -> Response[Ban | Problem]:
    """ Lift a mute of the room that is in force

     The account may speak again at once; the mute stays listed, with `liftedAt`. Webhooks say
    `member.unmuted`.

    Args:
        tenant (str):
        room (int):
        mute (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Ban | Problem]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
room=room,
mute=mute,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    tenant: str,
    room: int,
    mute: int,
    *,
    client: AuthenticatedClient | Client,

) -> Ban | Problem | None:
    """ Lift a mute of the room that is in force

     The account may speak again at once; the mute stays listed, with `liftedAt`. Webhooks say
    `member.unmuted`.

    Args:
        tenant (str):
        room (int):
        mute (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Ban | Problem
     """


    return (await asyncio_detailed(
        tenant=tenant,
room=room,
mute=mute,
client=client,

    )).parsed
