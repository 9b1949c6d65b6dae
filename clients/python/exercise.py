"""Drives the generated admin client (clients/python) against a running
server, as an operator's script would (#44; ops/test runs it on the
cluster): create a room, kick its member with a ban, page the tenant's
event feed to its end, read usage as CSV. Exits 1 naming the step that
did not answer as the contract says.

    python clients/python/exercise.py URL TENANT   (the key on stdin)
"""
import sys
import uuid

from roomkeeper_admin import AuthenticatedClient
from roomkeeper_admin.api.admin import create_room, get_tenant_usage, kick_member, list_room_bans, list_tenant_events
from roomkeeper_admin.models import AudioChatroom, AudioChatroomPlugin, EventPage, GetTenantUsageFormat, Kick, Kicked, Problem, Room


def fail(step, answer):
    detail = answer.parsed if isinstance(answer.parsed, Problem) else answer.content[:300]
    sys.exit(f"clients/python/exercise.py: {step}: HTTP {answer.status_code.value}: {detail}")


def main(url, tenant, key):
    client = AuthenticatedClient(base_url=url, token=key, raise_on_unexpected_status=True)
    owner = f"py-{uuid.uuid4().hex[:8]}"
    made = create_room.sync_detailed(tenant, client=client, body=AudioChatroom(plugin=AudioChatroomPlugin.AUDIO_CHATROOM, name="made by the Python client", owner=owner))
    if not isinstance(made.parsed, Room):
        fail("create a room", made)
    room = made.parsed
    print(f"created room {room.id} ({room.plugin}), owner {room.owner}")

    kicked = kick_member.sync_detailed(tenant, room.id, owner, client=client, body=Kick(duration_seconds=600, reason="exercise"))
    if not isinstance(kicked.parsed, Kicked):
        fail("kick with a ban", kicked)
    bans = list_room_bans.sync_detailed(tenant, room.id, client=client)
    if bans.status_code.value != 200 or not any(ban.account == owner and ban.active for ban in bans.parsed.items):
        fail("the kick's ban listed", bans)
    print(f"kicked {owner} from room {room.id} for 600 s")

    pages, events, cursor = 0, 0, None
    while True:
        page = list_tenant_events.sync_detailed(tenant, client=client, limit=100, **({"after": cursor} if cursor else {}))
        if not isinstance(page.parsed, EventPage):
            fail("page the event feed", page)
        pages, events = pages + 1, events + len(page.parsed.items)
        if not page.parsed.items or not isinstance(page.parsed.next_cursor, str):
            break
        cursor = page.parsed.next_cursor
    print(f"paged the event feed: {events} events in {pages} pages")

    # The contract answers usage as JSON or CSV; the generated parser reads
    # JSON only, so the request is the generated one and the CSV read as text.
    request = get_tenant_usage._get_kwargs(tenant, format_=GetTenantUsageFormat.CSV)
    csv = client.get_httpx_client().request(**request)
    if csv.status_code != 200 or not csv.headers.get("content-type", "").startswith("text/csv") or not csv.text.startswith("start,"):
        sys.exit(f"clients/python/exercise.py: usage as CSV: HTTP {csv.status_code} {csv.headers.get('content-type')}: {csv.text[:200]}")
    print(f"usage as CSV: {len(csv.text.splitlines()) - 1} rows")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1].rstrip("/"), sys.argv[2], sys.stdin.readline().strip())
