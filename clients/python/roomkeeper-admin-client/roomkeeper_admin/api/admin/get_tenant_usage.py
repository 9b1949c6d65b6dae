from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.get_tenant_usage_format import GetTenantUsageFormat
from ...models.get_tenant_usage_granularity import GetTenantUsageGranularity
from ...models.problem import Problem
from ...models.usage_page import UsagePage
from ...types import UNSET, Unset
from typing import cast
import datetime



def _get_kwargs(
    tenant: str,
    *,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    granularity: GetTenantUsageGranularity | Unset = GetTenantUsageGranularity.HOUR,
    format_: GetTenantUsageFormat | Unset = GetTenantUsageFormat.JSON,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_from_: str | Unset = UNSET
    if not isinstance(from_, Unset):
        json_from_ = from_.isoformat()
    params["from"] = json_from_

    json_to: str | Unset = UNSET
    if not isinstance(to, Unset):
        json_to = to.isoformat()
    params["to"] = json_to

    json_granularity: str | Unset = UNSET
    if not isinstance(granularity, Unset):
        json_granularity = granularity.value

    params["granularity"] = json_granularity

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_.value

    params["format"] = json_format_


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/admin/v1/tenants/{tenant}/usage".format(tenant=quote(str(tenant), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | UsagePage | None:
    if response.status_code == 200:
        response_200 = UsagePage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | UsagePage]:
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
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    granularity: GetTenantUsageGranularity | Unset = GetTenantUsageGranularity.HOUR,
    format_: GetTenantUsageFormat | Unset = GetTenantUsageFormat.JSON,

) -> Response[Problem | UsagePage]:
    """ The tenant's usage by hour or UTC day, as JSON or CSV

     Room-minutes and member-minutes (open rooms and joined members integrated over time), the most
    members joined at once, rooms opened, joins, API requests, local IM texts and webhook deliveries,
    per period that has any. Kept by a rollup every 30 seconds (and when this is asked), never by
    scanning on request. `format=csv` is the billing export: a header row, then one row per period.

    Args:
        tenant (str):
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        granularity (GetTenantUsageGranularity | Unset):  Default: GetTenantUsageGranularity.HOUR.
        format_ (GetTenantUsageFormat | Unset):  Default: GetTenantUsageFormat.JSON.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | UsagePage]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
from_=from_,
to=to,
granularity=granularity,
format_=format_,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    tenant: str,
    *,
    client: AuthenticatedClient | Client,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    granularity: GetTenantUsageGranularity | Unset = GetTenantUsageGranularity.HOUR,
    format_: GetTenantUsageFormat | Unset = GetTenantUsageFormat.JSON,

) -> Problem | UsagePage | None:
    """ The tenant's usage by hour or UTC day, as JSON or CSV

     Room-minutes and member-minutes (open rooms and joined members integrated over time), the most
    members joined at once, rooms opened, joins, API requests, local IM texts and webhook deliveries,
    per period that has any. Kept by a rollup every 30 seconds (and when this is asked), never by
    scanning on request. `format=csv` is the billing export: a header row, then one row per period.

    Args:
        tenant (str):
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        granularity (GetTenantUsageGranularity | Unset):  Default: GetTenantUsageGranularity.HOUR.
        format_ (GetTenantUsageFormat | Unset):  Default: GetTenantUsageFormat.JSON.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | UsagePage
     """


    return sync_detailed(
        tenant=tenant,
client=client,
from_=from_,
to=to,
granularity=granularity,
format_=format_,

    ).parsed

async def asyncio_detailed(
    tenant: str,
    *,
    client: AuthenticatedClient | Client,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    granularity: GetTenantUsageGranularity | Unset = GetTenantUsageGranularity.HOUR,
    format_: GetTenantUsageFormat | Unset = GetTenantUsageFormat.JSON,

) -> Response[Problem | UsagePage]:
    """ The tenant's usage by hour or UTC day, as JSON or CSV

     Room-minutes and member-minutes (open rooms and joined members integrated over time), the most
    members joined at once, rooms opened, joins, API requests, local IM texts and webhook deliveries,
    per period that has any. Kept by a rollup every 30 seconds (and when this is asked), never by
    scanning on request. `format=csv` is the billing export: a header row, then one row per period.

    Args:
        tenant (str):
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        granularity (GetTenantUsageGranularity | Unset):  Default: GetTenantUsageGranularity.HOUR.
        format_ (GetTenantUsageFormat | Unset):  Default: GetTenantUsageFormat.JSON.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | UsagePage]
     """


    kwargs = _get_kwargs(
        tenant=tenant,
from_=from_,
to=to,
granularity=granularity,
format_=format_,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    tenant: str,
    *,
    client: AuthenticatedClient | Client,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    granularity: GetTenantUsageGranularity | Unset = GetTenantUsageGranularity.HOUR,
    format_: GetTenantUsageFormat | Unset = GetTenantUsageFormat.JSON,

) -> Problem | UsagePage | None:
    """ The tenant's usage by hour or UTC day, as JSON or CSV

     Room-minutes and member-minutes (open rooms and joined members integrated over time), the most
    members joined at once, rooms opened, joins, API requests, local IM texts and webhook deliveries,
    per period that has any. Kept by a rollup every 30 seconds (and when this is asked), never by
    scanning on request. `format=csv` is the billing export: a header row, then one row per period.

    Args:
        tenant (str):
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        granularity (GetTenantUsageGranularity | Unset):  Default: GetTenantUsageGranularity.HOUR.
        format_ (GetTenantUsageFormat | Unset):  Default: GetTenantUsageFormat.JSON.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | UsagePage
     """


    return (await asyncio_detailed(
        tenant=tenant,
client=client,
from_=from_,
to=to,
granularity=granularity,
format_=format_,

    )).parsed
