from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.admin_key import AdminKey
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    tenant: str,
    key_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/admin/v1/tenants/{tenant}/keys/{key_id}".format(tenant=quote(str(tenant), safe=""),key_id=quote(str(key_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AdminKey | Problem | None:
    if response.status_code == 200:
        response_200 = AdminKey.from_dict(response.json())



        return response_200

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AdminKey | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tenant: str,
    key_id: str,
    *,
    client: AuthenticatedClient | Client,

) -> Response[AdminKey | Problem]:
    """ Revoke an admin key: refused on every instance from the next request

    Args:
        tenant (str):
        key_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminKey | Problem]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
key_id=key_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    tenant: str,
    key_id: str,
    *,
    client: AuthenticatedClient | Client,

) -> AdminKey | Problem | None:
    """ Revoke an admin key: refused on every instance from the next request

    Args:
        tenant (str):
        key_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminKey | Problem
     """


    return sync_detailed(
        tenant=tenant,
key_id=key_id,
client=client,

    ).parsed

async def asyncio_detailed(
    tenant: str,
    key_id: str,
    *,
    client: AuthenticatedClient | Client,

) -> Response[AdminKey | Problem]:
    """ Revoke an admin key: refused on every instance from the next request

    Args:
        tenant (str):
        key_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminKey | Problem]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
key_id=key_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    tenant: str,
    key_id: str,
    *,
    client: AuthenticatedClient | Client,

) -> AdminKey | Problem | None:
    """ Revoke an admin key: refused on every instance from the next request

    Args:
        tenant (str):
        key_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminKey | Problem
     """


    return (await asyncio_detailed(
        tenant=tenant,
key_id=key_id,
client=client,

    )).parsed
