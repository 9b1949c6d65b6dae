from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.outbox_entry import OutboxEntry
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    tenant: str,
    endpoint: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/admin/v1/tenants/{tenant}/webhooks/{endpoint}/test".format(tenant=quote(str(tenant), safe=""),endpoint=quote(str(endpoint), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> OutboxEntry | Problem | None:
    if response.status_code == 202:
        response_202 = OutboxEntry.from_dict(response.json())



        return response_202

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[OutboxEntry | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tenant: str,
    endpoint: str,
    *,
    client: AuthenticatedClient | Client,

) -> Response[OutboxEntry | Problem]:
    """ Queue a signed `webhook.test` event for one endpoint; follow it in the outbox

    Args:
        tenant (str):
        endpoint (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OutboxEntry | Problem]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
endpoint=endpoint,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    tenant: str,
    endpoint: str,
    *,
    client: AuthenticatedClient | Client,

) -> OutboxEntry | Problem | None:
    """ Queue a signed `webhook.test` event for one endpoint; follow it in the outbox

    Args:
        tenant (str):
        endpoint (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OutboxEntry | Problem
     """


    return sync_detailed(
        tenant=tenant,
endpoint=endpoint,
client=client,

    ).parsed

async def asyncio_detailed(
    tenant: str,
    endpoint: str,
    *,
    client: AuthenticatedClient | Client,

) -> Response[OutboxEntry | Problem]:
    """ Queue a signed `webhook.test` event for one endpoint; follow it in the outbox

    Args:
        tenant (str):
        endpoint (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OutboxEntry | Problem]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
endpoint=endpoint,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    tenant: str,
    endpoint: str,
    *,
    client: AuthenticatedClient | Client,

) -> OutboxEntry | Problem | None:
    """ Queue a signed `webhook.test` event for one endpoint; follow it in the outbox

    Args:
        tenant (str):
        endpoint (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OutboxEntry | Problem
     """


    return (await asyncio_detailed(
        tenant=tenant,
endpoint=endpoint,
client=client,

    )).parsed
