from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.audio_chatroom import AudioChatroom
from ...models.headset_live import HeadsetLive
from ...models.live_quiz import LiveQuiz
from ...models.music_lesson import MusicLesson
from ...models.one_to_one_call import OneToOneCall
from ...models.problem import Problem
from ...models.room import Room
from ...models.sealmic import Sealmic
from typing import cast



def _get_kwargs(
    tenant: str,
    *,
    body: AudioChatroom | HeadsetLive | LiveQuiz | MusicLesson | OneToOneCall | Sealmic,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/admin/v1/tenants/{tenant}/rooms".format(tenant=quote(str(tenant), safe=""),),
    }

    
    if isinstance(body, AudioChatroom):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, Sealmic):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, MusicLesson):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, LiveQuiz):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, HeadsetLive):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()


    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Room | None:
    if response.status_code == 201:
        response_201 = Room.from_dict(response.json())



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

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())



        return response_429

    if response.status_code == 502:
        response_502 = Problem.from_dict(response.json())



        return response_502

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
    *,
    client: AuthenticatedClient | Client,
    body: AudioChatroom | HeadsetLive | LiveQuiz | MusicLesson | OneToOneCall | Sealmic,

) -> Response[Problem | Room]:
    """ Create a room

    Args:
        tenant (str):
        body (AudioChatroom | HeadsetLive | LiveQuiz | MusicLesson | OneToOneCall | Sealmic): One
            schema per plugin this server hosts. A plugin the tenant does not enable is
            `plugin_not_enabled` (404); an option the plugin does not name is `invalid_options` (422).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Room]
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
    body: AudioChatroom | HeadsetLive | LiveQuiz | MusicLesson | OneToOneCall | Sealmic,

) -> Problem | Room | None:
    """ Create a room

    Args:
        tenant (str):
        body (AudioChatroom | HeadsetLive | LiveQuiz | MusicLesson | OneToOneCall | Sealmic): One
            schema per plugin this server hosts. A plugin the tenant does not enable is
            `plugin_not_enabled` (404); an option the plugin does not name is `invalid_options` (422).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Room
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
    body: AudioChatroom | HeadsetLive | LiveQuiz | MusicLesson | OneToOneCall | Sealmic,

) -> Response[Problem | Room]:
    """ Create a room

    Args:
        tenant (str):
        body (AudioChatroom | HeadsetLive | LiveQuiz | MusicLesson | OneToOneCall | Sealmic): One
            schema per plugin this server hosts. A plugin the tenant does not enable is
            `plugin_not_enabled` (404); an option the plugin does not name is `invalid_options` (422).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Room]
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
    body: AudioChatroom | HeadsetLive | LiveQuiz | MusicLesson | OneToOneCall | Sealmic,

) -> Problem | Room | None:
    """ Create a room

    Args:
        tenant (str):
        body (AudioChatroom | HeadsetLive | LiveQuiz | MusicLesson | OneToOneCall | Sealmic): One
            schema per plugin this server hosts. A plugin the tenant does not enable is
            `plugin_not_enabled` (404); an option the plugin does not name is `invalid_options` (422).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Room
     """


    return (await asyncio_detailed(
        tenant=tenant,
client=client,
body=body,

    )).parsed
