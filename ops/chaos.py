"""ops/chaos's driver: a steady mixed load through nginx while faults are
injected into the cluster ops/cluster started, one row per fault.

Every figure is counted, not sampled: each request's outcome, each room a
client was told exists, each outbox entry, each IM message PostgreSQL
committed and each frame every WebSocket client received. Load is bounded in
count and time and goes to 127.0.0.1 only. Exits non-zero when a goal is
missed.
"""
import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import websockets

from fake_netease import FakeNetEase

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLUSTER = os.path.join(HERE, ".cluster")
URL = os.environ["ROOMKEEPER_URL"]
DB = os.environ["DATABASE_URL"]
PG_BIN = "/usr/lib/postgresql/15/bin"
TENANT = "chaos"
BASE = f"/t/{TENANT}/audio-chatroom"
WS_URL = URL.replace("http://", "ws://") + f"/t/{TENANT}/im/ws"
RECEIVERS = 6
REQUEST_BOUND_S = 10          # ROOMKEEPER_REQUEST_TIMEOUT's default
VENDOR_TENANT = "chaos-im"     # ops/chaos-netease-tenant.toml: NetEase at the fake below
VENDOR_PORT = 31410           # below Linux's ephemeral range (32768-60999): bound late, under load, a port
                              # in that range can be held by an outgoing connection (seen: "address in use")


def log(message):
    print(f"ops/chaos: {message}", file=sys.stderr, flush=True)


def sql(statement, db=None):
    # On standard input, not the command line: the ledger's checks name every
    # acknowledged id, past the kernel's argument limit once a run
    # acknowledges tens of thousands ("Argument list too long", #41).
    out = subprocess.run([f"{PG_BIN}/psql", db or DB, "-qtA", "-v", "ON_ERROR_STOP=1"], input=statement,
                         check=True, capture_output=True, text=True, timeout=60)
    return out.stdout.strip()


def sql_retrying(statement, seconds=60, db=None):
    """The database may be failing over: ask again until it answers."""
    deadline = time.time() + seconds
    while True:
        try:
            return sql(statement, db)
        except subprocess.SubprocessError:
            if time.time() > deadline:
                raise
            time.sleep(0.5)


def as_postgres(*command, quiet=False):
    env = ["env", f"PATH={PG_BIN}:/usr/bin:/bin", f"PGPASSFILE={CLUSTER}/pgpass",
           f"XDG_CONFIG_HOME={CLUSTER}/xdg/config", f"XDG_DATA_HOME={CLUSTER}/xdg/data", f"XDG_RUNTIME_DIR={CLUSTER}/xdg/run"]
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if quiet:  # a command that leaves a server running must not hold our pipes
        return subprocess.run(prefix + env + list(command), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    return subprocess.run(prefix + env + list(command), capture_output=True, text=True, timeout=120)


def post(path, body="", base=BASE, url=None):
    """(ok, data): ok is a 200 whose JSON code is 200; anything else failed
    (data then says why). `url`: an instance straight, instead of nginx."""
    request = urllib.request.Request((url or URL) + base + path, data=body.encode(), method="POST",
                                     headers={"Content-Type": "application/x-www-form-urlencoded;charset=utf-8"})
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            answer = json.loads(response.read())
            if answer.get("code") == 200:
                return True, answer.get("data")
            return False, f"{path}: {answer.get('code')} {answer.get('msg')}"
    except urllib.error.HTTPError as error:
        return False, f"{path}: HTTP {error.code}"
    except (urllib.error.URLError, OSError, ValueError) as error:
        return False, f"{path}: {error}"


class Record:
    """What the load saw, shared by its threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.requests = []        # (time, ok)
        self.created = set()      # rooms a client was told exist
        self.dissolved = set()    # rooms a client was told are dissolved
        self.failures = []        # (time, why)

    def request(self, ok, data=None):
        with self.lock:
            self.requests.append((time.time(), ok))
            if not ok:
                self.failures.append((time.time(), data))


def http_worker(record, stop):
    """Create, two seat moves, list, dissolve; again until told to stop."""
    while not stop.is_set():
        ok, user = post("/user/get")
        record.request(ok, user)
        if not ok:
            time.sleep(0.05)
            continue
        sid = user["sid"]
        ok, room = post("/room/create", f"sid={sid}&roomName=chaos")
        record.request(ok, room)
        if not ok:
            continue
        room_id = room["roomId"]
        with record.lock:
            record.created.add(room_id)
        for move in ("close", "open"):
            ok, answer = post(f"/mic/{move}", f"sid={sid}&roomId={room_id}&index=1")
            record.request(ok, answer)
        ok, answer = post("/room/list")
        record.request(ok, answer)
        retrying = False
        while not stop.is_set():
            ok, answer = post("/room/dissolve", f"sid={sid}&roomId={room_id}")
            # A retry told the room is closed: the attempt whose answer was lost
            # (an instance killed mid-request) was applied. Done, not failed.
            ok = ok or (retrying and "801 room is closed" in str(answer))
            record.request(ok, answer)
            retrying = True
            if ok:
                with record.lock:
                    record.dissolved.add(room_id)
                break
            time.sleep(0.2)


class IMClient:
    """One WebSocket member of the chaos chatroom that comes back through nginx
    whenever its connection ends, recording when it was in the room and
    every message id it received."""

    def __init__(self, accid, token, chatroom, sender=False):
        self.accid, self.token, self.chatroom, self.sender = accid, token, chatroom, sender
        self.intervals = []       # [entered_at, left_at or None]
        self.received = {}        # event id -> times received
        self.disconnects = 0
        self.sent = 0
        self.history = []         # (time, what): closes and error frames, told when a socket does not come back

    async def run(self, stop):
        while not stop.is_set():
            try:
                async with websockets.connect(WS_URL, ping_interval=None, open_timeout=5, close_timeout=1) as socket:
                    await socket.send(json.dumps({"type": "login", "accid": self.accid, "token": self.token}))
                    await socket.send(json.dumps({"type": "enter", "chatroom": self.chatroom}))
                    interval = None
                    sending = asyncio.create_task(self.send(socket, stop)) if self.sender else None
                    try:
                        while not stop.is_set():
                            try:
                                text = await asyncio.wait_for(socket.recv(), timeout=0.5)
                            except asyncio.TimeoutError:
                                continue
                            frame = json.loads(text)
                            if frame.get("type") == "entered" and interval is None:
                                interval = [time.time(), None]
                                self.intervals.append(interval)
                            elif frame.get("type") == "message":
                                self.received[frame["id"]] = self.received.get(frame["id"], 0) + 1
                            elif frame.get("type") == "error":
                                self.history.append((time.time(), f"error frame {frame.get('code')}: {frame.get('message')}"))
                    finally:
                        if sending:
                            sending.cancel()
                        if interval is not None:
                            interval[1] = time.time()
            except (OSError, asyncio.TimeoutError, websockets.WebSocketException) as error:
                self.history.append((time.time(), f"{type(error).__name__}: {error}"))
            if not stop.is_set():
                self.disconnects += 1
                await asyncio.sleep(0.2)

    async def send(self, socket, stop):
        while not stop.is_set():
            await asyncio.sleep(0.05)
            self.sent += 1
            await socket.send(json.dumps({"type": "text", "chatroom": self.chatroom, "text": f"chaos-{self.sent}"}))

    @property
    def connected(self):
        return bool(self.intervals) and self.intervals[-1][1] is None


def im_setup():
    """Accounts and a chatroom of the demo tenant, made through the app's API."""
    users = []
    for _ in range(RECEIVERS + 1):
        ok, user = post("/user/get")
        if not ok:
            raise RuntimeError("could not make IM accounts")
        users.append(user)
    ok, room = post("/room/create", f"sid={users[0]['sid']}&roomName=chaosim")
    if not ok:
        raise RuntimeError("could not create the chaos chatroom")
    chatroom = str(room["roomId"])
    clients = [IMClient(u["accid"], u["imToken"], chatroom) for u in users[1:]]
    clients.append(IMClient(users[0]["accid"], users[0]["imToken"], chatroom, sender=True))
    return room["roomId"], users[0]["sid"], chatroom, clients


def await_sockets_back(clients, grace=5.0):
    """Gives a socket that dropped late in the window up to `grace` seconds
    to come back before the load stops: a socket dropped 0.1 s before the
    end is not one that failed to reconnect."""
    deadline = time.time() + grace
    while time.time() < deadline and not all(client.connected for client in clients):
        time.sleep(0.1)


def run_im(clients, stop, started):
    async def main():
        tasks = [asyncio.create_task(client.run(stop)) for client in clients]
        started.set()
        await asyncio.gather(*tasks)
    asyncio.run(main())


# ---------------------------------------------------------------- faults

def instance_pid(n):
    with open(os.path.join(CLUSTER, f"instance{n}.pid")) as f:
        return int(f.read().strip())


def restart_instance(n):
    subprocess.run([os.path.join(HERE, "ops", "cluster"), "instance", str(n)], check=True, capture_output=True, timeout=120)


def kill_instance(n=1):
    os.kill(instance_pid(n), signal.SIGKILL)
    # The orchestrator starts a replacement; the others carry the load meanwhile.
    threading.Thread(target=lambda: (time.sleep(3), restart_instance(n)), daemon=True).start()


def primary_node(formation="default"):
    """(name, port) of the node the monitor says is primary (in `formation`: #43's cells are two)."""
    out = as_postgres(f"{PG_BIN}/psql", "-h", f"{CLUSTER}/socket", "-p", os.environ.get("CLUSTER_PG_PORT", "25400"),
                      "-d", "pg_auto_failover", "-qtA", "-c",
                      f"SELECT nodename, nodeport FROM pgautofailover.node WHERE formationid = '{formation}' "
                      "AND reportedstate IN ('primary','wait_primary','single') LIMIT 1")
    name, port = out.stdout.strip().split("|")
    return name, int(port)


def restart_postgres():
    name, _ = primary_node()
    # pg_autoctl supervises this Postgres too: whichever of the two starts it
    # again first wins, and the other finds it running.
    result = as_postgres(f"{PG_BIN}/pg_ctl", "-D", f"{CLUSTER}/{name}", "-m", "fast", "-w", "-l", f"{CLUSTER}/logs/pg_ctl.log",
                         "restart", quiet=True)
    if result.returncode != 0:
        log(f"pg_ctl restart exited {result.returncode} (pg_autoctl may have restarted Postgres first): see .cluster/logs/pg_ctl.log")


def perform_failover(formation="default"):
    result = as_postgres("pg_autoctl", "perform", "failover", "--pgdata", f"{CLUSTER}/monitor", "--formation", formation, "--wait", "60")
    if result.returncode != 0:
        log(f"pg_autoctl perform failover: {result.stderr.strip()[-300:]}")


def kill_primary():
    name, _ = primary_node()
    with open(f"{CLUSTER}/{name}/postmaster.pid") as f:
        os.kill(int(f.readline()), signal.SIGKILL)


def wait_formation_healthy(seconds=120, formation="default"):
    deadline = time.time() + seconds
    while time.time() < deadline:
        out = as_postgres(f"{PG_BIN}/psql", "-h", f"{CLUSTER}/socket", "-p", os.environ.get("CLUSTER_PG_PORT", "25400"),
                          "-d", "pg_auto_failover", "-qtA", "-c",
                          f"SELECT count(*) FROM pgautofailover.node WHERE formationid = '{formation}' "
                          "AND reportedstate = goalstate AND goalstate IN ('primary','secondary')")
        if out.stdout.strip() == "3":  # ops/cluster's formations: a primary and two standbys
            return True
        time.sleep(1)
    return False


def process_tree(root):
    """`root` and every process below it."""
    pids, frontier = [root], [root]
    while frontier:
        out = subprocess.run(["pgrep", "-P", str(frontier.pop())], capture_output=True, text=True)
        children = [int(p) for p in out.stdout.split()]
        pids += children
        frontier += children
    return pids


def primary_processes(formation="default"):
    """(name, pids): the primary's pg_autoctl and everything under it (its
    Postgres and every backend), as one host would hang whole."""
    name, _ = primary_node(formation)
    keeper = f"{CLUSTER}/xdg/run/pg_autoctl{CLUSTER}/{name}/pg_autoctl.pid"
    roots = []
    if os.path.exists(keeper):
        with open(keeper) as f:
            roots.append(int(f.readline()))
    with open(f"{CLUSTER}/{name}/postmaster.pid") as f:
        roots.append(int(f.readline()))
    pids = []
    for root in roots:
        pids += [p for p in process_tree(root) if p not in pids]
    return name, pids


def freeze(pids, sig):
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


class Ledger:
    """Every write a client was answered 200 for, to be found afterwards:
    guest accounts and their sessions, rooms, and a seat closed in each."""

    def __init__(self):
        self.lock = threading.Lock()
        self.accounts = {}        # accid -> sid
        self.rooms = []           # room ids
        self.owners = {}          # room id -> its owner's sid
        self.seats = []           # room ids whose seat 1 was closed
        self.requests = []        # (time, ok, seconds)

    def note(self, ok, started):
        with self.lock:
            self.requests.append((started, ok, time.time() - started))


def ledger_worker(ledger, stop, base=BASE):
    """A guest, its room and a closed seat, again and again; each answered
    write goes in the ledger. Rooms are left open to be checked."""
    while not stop.is_set():
        started = time.time()
        ok, user = post("/user/get", base=base)
        ledger.note(ok, started)
        if not ok:
            time.sleep(0.05)
            continue
        with ledger.lock:
            ledger.accounts[user["accid"]] = user["sid"]
        started = time.time()
        ok, room = post("/room/create", f"sid={user['sid']}&roomName=ledger", base=base)
        ledger.note(ok, started)
        if not ok:
            continue
        with ledger.lock:
            ledger.rooms.append(room["roomId"])
            ledger.owners[room["roomId"]] = user["sid"]
        started = time.time()
        ok, _ = post("/mic/close", f"sid={user['sid']}&roomId={room['roomId']}&index=1", base=base)
        ledger.note(ok, started)
        if ok:
            with ledger.lock:
                ledger.seats.append(room["roomId"])


def ledger_lost(ledger, tenant=TENANT, db=None):
    """What the ledger holds that the primary does not: (accounts, sessions,
    rooms, seats). `db`: the tenant's cell (#43), the first by default."""
    import hashlib
    accids = list(ledger.accounts)
    lost_accounts = lost_sessions = 0
    for chunk in range(0, len(accids), 500):
        part = accids[chunk:chunk + 500]
        quoted = ",".join(f"'{a}'" for a in part)
        found = set(sql_retrying(f"SELECT accid FROM accounts WHERE tenant_id = '{tenant}' AND accid IN ({quoted})", db=db).splitlines())
        lost_accounts += sum(1 for a in part if a not in found)
        hashes = ",".join(f"'{hashlib.sha256(ledger.accounts[a].encode()).hexdigest()}'" for a in part)
        sessions = int(sql_retrying(f"SELECT count(*) FROM sessions WHERE tenant_id = '{tenant}' AND token_hash IN ({hashes})", db=db))
        lost_sessions += len(part) - sessions
    ids = ",".join(str(r) for r in ledger.rooms) or "0"
    lost_rooms = len(ledger.rooms) - int(sql_retrying(
        f"SELECT count(*) FROM rooms WHERE tenant_id = '{tenant}' AND room_id IN ({ids}) AND state = 'open'", db=db))
    seats = ",".join(str(r) for r in ledger.seats) or "0"
    lost_seats = len(ledger.seats) - int(sql_retrying(
        f"SELECT count(*) FROM audio_chatroom_seats WHERE tenant_id = '{tenant}' AND room_id IN ({seats}) AND seat_index = 1 AND closed", db=db))
    return lost_accounts, lost_sessions, lost_rooms, lost_seats


def instance_urls():
    """Each instance behind nginx, straight: nginx's port + 1, 2, 3."""
    port = int(URL.rsplit(":", 1)[1])
    return [f"http://127.0.0.1:{port + n}" for n in (1, 2, 3)]


def every_instance_is_current(seconds=3.0):
    """After a fault, every instance still hears the others: a room made
    through each shows in every instance's /room/list within `seconds`, and a
    chat message sent through each reaches members connected to every other.
    Returns what failed (empty when all is well)."""
    urls, problems = instance_urls(), []
    for source in urls:
        ok, user = post("/user/get", url=source)
        ok2, room = post("/room/create", f"sid={user['sid']}&roomName=fresh", url=source) if ok else (False, None)
        if not (ok and ok2):
            problems.append(f"could not create a room through {source}")
            continue
        for reader in urls:
            deadline, seen = time.time() + seconds, False
            while not seen and time.time() < deadline:
                ok, listed = post("/room/list", url=reader)
                seen = ok and str(room["roomId"]) in json.dumps(listed)
                if not seen:
                    time.sleep(0.1)
            if not seen:
                problems.append(f"room {room['roomId']} made through {source} is missing from {reader}'s /room/list")
        post("/room/dissolve", f"sid={user['sid']}&roomId={room['roomId']}", url=source)

    async def chat():
        ok, owner = post("/user/get")
        ok2, room = post("/room/create", f"sid={owner['sid']}&roomName=freshchat") if ok else (False, None)
        if not (ok and ok2):
            return ["could not create the chat room"]
        chatroom = str(room["roomId"])
        members = []
        for url in urls:
            ok, user = post("/user/get")
            socket = await websockets.connect(url.replace("http://", "ws://") + f"/t/{TENANT}/im/ws", ping_interval=None, open_timeout=5)
            await socket.send(json.dumps({"type": "login", "accid": user["accid"], "token": user["imToken"]}))
            await socket.send(json.dumps({"type": "enter", "chatroom": chatroom}))
            while json.loads(await asyncio.wait_for(socket.recv(), 5)).get("type") != "entered":
                pass
            members.append((url, socket))
        failed = []
        for sender_url, sender in members:
            text = f"fresh-{sender_url}-{time.time()}"
            await sender.send(json.dumps({"type": "text", "chatroom": chatroom, "text": text}))
            for url, socket in members:
                got, deadline = False, time.time() + seconds
                while not got and time.time() < deadline:
                    try:
                        frame = await asyncio.wait_for(socket.recv(), max(0.05, deadline - time.time()))
                    except asyncio.TimeoutError:
                        break
                    got = text in frame
                if not got:
                    failed.append(f"a message sent through {sender_url} did not reach a member on {url}")
        for _, socket in members:
            await socket.close()
        post("/room/dissolve", f"sid={owner['sid']}&roomId={room['roomId']}")
        return failed

    try:
        problems += asyncio.run(chat())
    except (OSError, asyncio.TimeoutError, websockets.WebSocketException, KeyError, TypeError) as error:
        problems.append(f"chat check failed: {error!r}")
    return problems


def primary_hangs(cycles, hang_s, workers, goal):
    """The primary host hangs (SIGSTOP of its Postgres, every backend and its
    pg_autoctl) for `hang_s`, then wakes, `cycles` times under load; the
    formation fails over meanwhile. Nothing a client was answered 200 for may
    be missing afterwards (#27: a woken primary ran inserts whose commit its
    failover then discarded, after they had been answered)."""
    name = f"primary hangs (SIGSTOP {hang_s} s), then wakes, x{cycles}"
    log(f"{name}: starting")
    ledger, stop = Ledger(), threading.Event()
    threads = [threading.Thread(target=ledger_worker, args=(ledger, stop), daemon=True) for _ in range(workers)]
    for thread in threads:
        thread.start()
    outages, pids = [], []
    try:
        for cycle in range(cycles):
            time.sleep(3)
            node, pids = primary_processes()
            frozen_at = time.time()
            log(f"  cycle {cycle + 1}: {node} hangs ({len(pids)} processes)")
            freeze(pids, signal.SIGSTOP)
            time.sleep(hang_s)
            freeze(pids, signal.SIGCONT)
            pids = []
            if not wait_formation_healthy(180):
                log(f"  cycle {cycle + 1}: the formation did not become healthy again")
            with ledger.lock:
                answered = [started + seconds for started, ok, seconds in ledger.requests if ok and started > frozen_at]
            outages.append(round(min(answered) - frozen_at, 1) if answered else None)
        time.sleep(3)
    finally:
        freeze(pids, signal.SIGCONT)  # never leave a host hanging
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    lost_accounts, lost_sessions, lost_rooms, lost_seats = ledger_lost(ledger)
    failed = sum(1 for _, ok, _ in ledger.requests if not ok)
    slowest = max((seconds for _, _, seconds in ledger.requests), default=0.0)
    log(f"  ledger: {len(ledger.accounts)} accounts, {len(ledger.rooms)} rooms, {len(ledger.seats)} seats answered 200; "
        f"lost: {lost_accounts} accounts, {lost_sessions} sessions, {lost_rooms} rooms, {lost_seats} seats")
    log(f"  first success of a request sent after each freeze began (s): {outages}; slowest answer {slowest:.1f} s")
    stale = every_instance_is_current()
    for problem in stale:
        log(f"  not current: {problem}")
    # The ledger's rooms go, through the API, six at a time.
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(6) as pool:
        list(pool.map(lambda owned: post("/room/dissolve", f"sid={owned[1]}&roomId={owned[0]}"), ledger.owners.items()))
    lost = lost_accounts + lost_sessions + lost_rooms + lost_seats
    recovery = max((o for o in outages if o is not None), default=0.0)
    row = {"fault": name, "requests": len(ledger.requests), "failed": failed, "recovery_s": recovery,
           "rooms_lost": lost_rooms, "acked_lost": lost, "closed_twice": 0, "outbox_lost": 0, "outbox_twice": 0,
           "im_committed": 0, "im_lost": 0, "im_twice": 0, "ws_dropped": 0, "ws_back": 0, "goal_s": goal}
    # No request waits past the server's bound (10 s) by more than a margin.
    row["met"] = (lost == 0 and len(ledger.accounts) > 0 and None not in outages and recovery < goal
                  and slowest < REQUEST_BOUND_S + 2 and not stale)
    log(f"{name}: {row}")
    return row


# ---------------------------------------------------------------- one row

def under_load(name, inject, window, workers, goal):
    """Runs the mixed load, injects the fault after 3 s, keeps the load on for
    `window` seconds more, then counts."""
    log(f"{name}: starting")
    record, stop = Record(), threading.Event()
    im_room, im_owner, chatroom, clients = im_setup()
    im_started = threading.Event()
    im_thread = threading.Thread(target=run_im, args=(clients, stop, im_started), daemon=True)
    im_thread.start()
    im_started.wait()
    threads = [threading.Thread(target=http_worker, args=(record, stop), daemon=True) for _ in range(workers)]
    for thread in threads:
        thread.start()
    time.sleep(3)
    injected = time.time()
    inject()
    time.sleep(window)
    await_sockets_back(clients)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    im_thread.join(timeout=30)
    return count(name, record, injected, clients, chatroom, im_room, im_owner, goal)


def settle_outbox(rooms, seconds=60):
    deadline = time.time() + seconds
    ids = ",".join(str(r) for r in rooms) or "0"
    while time.time() < deadline:
        if sql_retrying(f"SELECT count(*) FROM outbox WHERE tenant_id = '{TENANT}' AND room_id IN ({ids}) AND status = 'pending'") == "0":
            return
        time.sleep(0.5)


def outbox_figures(rooms):
    """(lost, twice): entries never delivered; entries whose IM effect shows twice."""
    ids = ",".join(str(r) for r in rooms) or "0"
    lost = int(sql_retrying(f"SELECT count(*) FROM outbox WHERE tenant_id = '{TENANT}' AND room_id IN ({ids}) AND status <> 'delivered'"))
    # Each delivered queuePut entry is one 'queue' event carrying its key
    # (a move's queue put written by its own statement, #28, carries none:
    # its transaction wrote it once), and each dissolve's chatroom close one
    # 'closed' event, whether the outbox delivered it (a closeChatroom entry)
    # or the dissolve's own statement wrote it: more events than that is a
    # delivery made twice.
    twice = int(sql_retrying(f"""
        SELECT coalesce(sum(greatest(e.n - o.q - CASE WHEN r.state = 'closed' THEN greatest(o.c, 1) ELSE o.c END, 0)), 0)
        FROM rooms r
        CROSS JOIN LATERAL (SELECT count(*) FILTER (WHERE payload ? 'queuePut') AS q, count(*) FILTER (WHERE payload ? 'closeChatroom') AS c
                            FROM outbox WHERE tenant_id = r.tenant_id AND room_id = r.room_id AND status = 'delivered') o
        CROSS JOIN LATERAL (SELECT count(*) AS n FROM im_events
                            WHERE tenant_id = r.tenant_id AND chatroom_id = r.room_id::text
                              AND (kind = 'closed' OR (kind = 'queue' AND idempotency_key IS NOT NULL))) e
        WHERE r.tenant_id = '{TENANT}' AND r.room_id IN ({ids})
    """))
    return lost, twice


def count(name, record, injected, clients, chatroom, im_room, im_owner, goal):
    failures = [t for t, ok in record.requests if not ok]
    for at, why in record.failures[-6:]:
        log(f"  failed at +{at - injected:.1f} s: {why}")
    recovery = max(failures) - injected if failures else 0.0
    rooms = sorted(record.created)
    settle_outbox(rooms)
    ids = ",".join(str(r) for r in rooms) or "0"
    present = int(sql_retrying(f"SELECT count(*) FROM rooms WHERE tenant_id = '{TENANT}' AND room_id IN ({ids})"))
    not_closed = 0
    if record.dissolved:
        dissolved = ",".join(str(r) for r in record.dissolved)
        not_closed = int(sql_retrying(f"SELECT count(*) FROM rooms WHERE tenant_id = '{TENANT}' AND room_id IN ({dissolved}) AND state <> 'closed'"))
    twice = int(sql_retrying(f"SELECT count(*) FROM (SELECT room_id FROM room_events WHERE tenant_id = '{TENANT}' AND kind = 'closed' "
                             f"AND room_id IN ({ids}) GROUP BY room_id HAVING count(*) > 1) t"))
    outbox_lost, outbox_twice = outbox_figures(rooms)
    # IM: a committed message is owed to every member that was in the room
    # when it committed (with a second's margin either side for frames in
    # flight when a connection broke).
    committed = [(int(i), float(at)) for i, at in (line.split("|") for line in sql_retrying(
        f"SELECT event_id, extract(epoch FROM at) FROM im_events WHERE tenant_id = '{TENANT}' AND chatroom_id = '{chatroom}' "
        f"AND kind = 'message'").splitlines() if line)]
    im_lost = im_twice = 0
    for client in clients:
        for event_id, at in committed:
            owed = any(start + 1.0 < at < (end if end is not None else time.time()) - 1.0 for start, end in client.intervals)
            if owed and event_id not in client.received:
                im_lost += 1
        im_twice += sum(n - 1 for n in client.received.values() if n > 1)
    dropped = sum(1 for c in clients if c.disconnects > 0)
    came_back = sum(1 for c in clients if c.disconnects > 0 and len(c.intervals) > 1)
    for client in clients:
        if client.disconnects > 0:
            back = "came back" if len(client.intervals) > 1 else "did not come back"
            log(f"  socket of {client.accid}{' (sender)' if client.sender else ''} {back}: "
                + "; ".join(f"+{at - injected:.1f} s {what}" for at, what in client.history[-8:]))
    post("/room/dissolve", f"sid={im_owner}&roomId={im_room}")
    row = {
        "fault": name, "requests": len(record.requests), "failed": len(failures), "recovery_s": round(recovery, 1),
        "rooms_lost": (len(rooms) - present) + not_closed, "closed_twice": twice,
        "outbox_lost": outbox_lost, "outbox_twice": outbox_twice,
        "im_committed": len(committed), "im_lost": im_lost, "im_twice": im_twice,
        "ws_dropped": dropped, "ws_back": came_back, "goal_s": goal,
    }
    row["met"] = (row["rooms_lost"] == 0 and twice == 0 and outbox_lost == 0 and outbox_twice == 0 and im_lost == 0
                  and im_twice == 0 and came_back == dropped and recovery < goal)
    log(f"{name}: {row}")
    return row


def due_rooms(count, goal):
    """`count` rooms fall due at once; one instance is killed mid-sweep."""
    log(f"{count} rooms falling due, an instance killed mid-sweep: starting")
    name = f"chaos-due-{int(time.time())}"
    sql_retrying(f"""
        WITH ids AS (SELECT nextval('room_ids') AS id FROM generate_series(1, {count})),
        chatrooms AS (
            INSERT INTO im_chatrooms (tenant_id, chatroom_id, name, creator, created_at)
            SELECT '{TENANT}', id::text, '{name}', 'chaos', now() FROM ids RETURNING chatroom_id)
        INSERT INTO rooms (tenant_id, room_id, plugin_id, name, owner, state, capacity, created_at, expires_at, im_chatroom_id)
        SELECT '{TENANT}', chatroom_id::bigint, 'audio-chatroom', '{name}', 'chaos', 'open', 100, now(), now() - interval '1 second', chatroom_id
        FROM chatrooms
    """)
    seeded = f"SELECT room_id FROM rooms WHERE tenant_id = '{TENANT}' AND name = '{name}'"
    started = time.time()
    killed_at = None
    while time.time() - started < 120:
        closed = int(sql_retrying(f"SELECT count(*) FROM rooms WHERE tenant_id = '{TENANT}' AND name = '{name}' AND state = 'closed'"))
        if killed_at is None and closed > 0:
            kill_instance(2)
            killed_at = time.time()
            log(f"killed instance 2 with {closed} of {count} closed")
        if closed == count:
            break
        time.sleep(0.05)
    elapsed = time.time() - started
    rooms = [int(r) for r in sql_retrying(seeded).splitlines()]
    settle_outbox(rooms, 120)
    closed = int(sql_retrying(f"SELECT count(*) FROM rooms WHERE tenant_id = '{TENANT}' AND name = '{name}' AND state = 'closed'"))
    twice = int(sql_retrying(f"SELECT count(*) FROM (SELECT room_id FROM room_events WHERE tenant_id = '{TENANT}' AND kind = 'closed' "
                             f"AND room_id IN ({seeded}) GROUP BY room_id HAVING count(*) > 1) t"))
    outbox_lost, outbox_twice = outbox_figures(rooms)
    row = {"fault": f"{count} rooms due, instance killed mid-sweep", "requests": 0, "failed": 0, "recovery_s": round(elapsed, 1),
           "rooms_lost": count - closed, "closed_twice": twice, "outbox_lost": outbox_lost, "outbox_twice": outbox_twice,
           "im_committed": 0, "im_lost": 0, "im_twice": 0, "ws_dropped": 0, "ws_back": 0, "goal_s": goal}
    row["met"] = closed == count and twice == 0 and outbox_lost == 0 and outbox_twice == 0 and killed_at is not None and elapsed < goal
    log(f"due rooms: {row}")
    return row


def vendor_down(down_s, goal):
    """The chaos-im tenant's IM vendor (a fake NetEase) answers 503 for half
    of `down_s`, then hangs for the other half, while that tenant's hosts
    move seats and dissolve rooms (side effects through the outbox) and the
    chaos tenant's load runs on the local IM. Every side effect must arrive
    once after the vendor recovers; nothing else may fail."""
    name = f"IM vendor down {down_s} s (503, then hanging)"
    log(f"{name}: starting")
    with open(os.path.join(CLUSTER, "netease-secret")) as f:
        fake = FakeNetEase(VENDOR_PORT, "chaos-netease", f.read().strip()).start()
    base = f"/t/{VENDOR_TENANT}/audio-chatroom"
    try:
        hosts = []
        for _ in range(40):  # made while the vendor is up: accounts and chatrooms are the vendor's
            ok, user = post("/user/get", base=base)
            ok2, room = post("/room/create", f"sid={user['sid']}&roomName=vendor", base=base) if ok else (False, None)
            if not (ok and ok2):
                raise RuntimeError(f"could not set up the vendor tenant: {user if not ok else room}")
            hosts.append((user["sid"], room["roomId"]))
        record, vendor_record, stop = Record(), Record(), threading.Event()
        im_room, im_owner, chatroom, clients = im_setup()
        im_started = threading.Event()
        im_thread = threading.Thread(target=run_im, args=(clients, stop, im_started), daemon=True)
        im_thread.start()
        im_started.wait()
        local = [threading.Thread(target=http_worker, args=(record, stop), daemon=True) for _ in range(3)]
        # Seat moves and dissolves need no vendor call while answering: they must all succeed.
        pending = list(hosts)
        pace = (down_s + 6) / len(hosts)

        def vendor_worker():
            while pending and not stop.is_set():
                try:
                    sid, room_id = pending.pop()
                except IndexError:
                    return
                for path, body in ((f"/mic/close", f"sid={sid}&roomId={room_id}&index=1"),
                                   (f"/mic/open", f"sid={sid}&roomId={room_id}&index=1"),
                                   ("/room/dissolve", f"sid={sid}&roomId={room_id}")):
                    ok, answer = post(path, body, base=base)
                    vendor_record.request(ok, answer)
                    if path == "/room/dissolve" and ok:
                        with vendor_record.lock:
                            vendor_record.dissolved.add(room_id)
                time.sleep(pace)

        # Calls that need the vendor while answering (a new account) must fail fast and clearly.
        probes = []

        def probe():
            while not stop.is_set():
                started = time.time()
                ok, answer = post("/user/get", base=base)
                probes.append((started, time.time() - started, ok, answer))
                time.sleep(0.5)

        workers = local + [threading.Thread(target=vendor_worker, daemon=True), threading.Thread(target=probe, daemon=True)]
        for thread in workers:
            thread.start()
        time.sleep(3)
        injected = time.time()
        fake.set_mode("unavailable")
        time.sleep(down_s / 2)
        fake.set_mode("hang")
        time.sleep(down_s / 2)
        fake.set_mode("normal")
        restored = time.time()
        time.sleep(6)
        await_sockets_back(clients)
        stop.set()
        for thread in workers:
            thread.join(timeout=30)
        im_thread.join(timeout=30)

        rooms = [room_id for _, room_id in hosts]
        ids = ",".join(str(r) for r in rooms)
        deadline, drained = time.time() + 120, None
        while time.time() < deadline:
            left = sql_retrying(f"SELECT count(*) FROM outbox WHERE tenant_id = '{VENDOR_TENANT}' AND room_id IN ({ids}) AND status = 'pending'")
            if left == "0":
                drained = time.time()
                break
            time.sleep(0.25)
        recovery = (drained or time.time()) - restored
        outbox_lost = int(sql_retrying(f"SELECT count(*) FROM outbox WHERE tenant_id = '{VENDOR_TENANT}' AND room_id IN ({ids}) AND status <> 'delivered'"))
        entries = int(sql_retrying(f"SELECT count(*) FROM outbox WHERE tenant_id = '{VENDOR_TENANT}' AND room_id IN ({ids})"))
        # Only rooms whose dissolve was answered: the paced worker may not
        # reach the last host or two before the window ends (seen: 3 of 40),
        # and a room nobody dissolved is not a room lost.
        dissolved = sorted(vendor_record.dissolved)
        done = ",".join(str(r) for r in dissolved) or "0"
        not_closed = int(sql_retrying(f"SELECT count(*) FROM rooms WHERE tenant_id = '{VENDOR_TENANT}' AND room_id IN ({done}) AND state <> 'closed'"))
        still_open = [r for r in dissolved if str(r) in fake.open]
        log(f"  {len(dissolved)} of {len(rooms)} hosts dissolved their room within the window")
        down = [p for p in probes if injected <= p[0] <= restored - 1.5]
        slowest = max((p[1] for p in down), default=0.0)
        refused_clearly = all(not ok and "IM service" in str(answer) for _, _, ok, answer in down)
        log(f"  vendor: {fake.refused} calls refused or left hanging, {len(fake.applied)} applied, "
            f"{fake.duplicates()} applied twice, {len(fake.rejected)} failed its checks {fake.rejected[:3]}")
        log(f"  outbox: {entries} entries for {len(rooms)} rooms, drained {recovery:.1f} s after the vendor came back")
        log(f"  new accounts while down: {len(down)} asked, all refused clearly: {refused_clearly}, slowest answer {slowest:.1f} s")
        if still_open:
            log(f"  chatrooms still open at the vendor: {still_open[:5]}")
        local_row = count(f"{name}, the local-IM tenant's load", record, injected, clients, chatroom, im_room, im_owner, goal)
        failed = local_row["failed"] + sum(1 for _, ok in vendor_record.requests if not ok)
        for at, why in vendor_record.failures[-6:]:
            log(f"  vendor tenant failed at +{at - injected:.1f} s: {why}")
        row = dict(local_row)
        row.update({
            "fault": name, "requests": local_row["requests"] + len(vendor_record.requests), "failed": failed, "recovery_s": round(recovery, 1),
            "rooms_lost": local_row["rooms_lost"] + not_closed + len(still_open),
            "outbox_lost": local_row["outbox_lost"] + outbox_lost,
            "outbox_twice": local_row["outbox_twice"] + fake.duplicates(),
        })
        row["met"] = (local_row["met"] and failed == 0 and len(dissolved) >= 0.9 * len(rooms) and drained is not None and recovery < goal and outbox_lost == 0
                      and not still_open and not_closed == 0 and fake.duplicates() == 0 and not fake.rejected
                      and refused_clearly and slowest < 3)
        log(f"{name}: {row}")
        return row
    finally:
        fake.stop()


COLUMNS = [("fault", 44), ("requests", 8), ("failed", 6), ("recovery_s", 10), ("rooms_lost", 10), ("acked_lost", 10), ("closed_twice", 12),
           ("outbox_lost", 11), ("outbox_twice", 12), ("im_committed", 12), ("im_lost", 7), ("im_twice", 8),
           ("ws_dropped", 10), ("ws_back", 7), ("goal_s", 6), ("met", 5)]


def table(rows):
    lines = [" | ".join(title.ljust(width) for title, width in COLUMNS)]
    lines.append("-+-".join("-" * width for _, width in COLUMNS))
    for row in rows:
        lines.append(" | ".join(str(row.get(title, "-")).ljust(width) for title, width in COLUMNS))
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--short", action="store_true", help="one instance kill and one PostgreSQL restart (the test command's run)")
    parser.add_argument("--workers", type=int, default=6)
    parser.add_argument("--due-rooms", type=int, default=10_000)
    parser.add_argument("--vendor-down", type=int, default=60, help="seconds the IM vendor is down")
    parser.add_argument("--hang-cycles", type=int, default=5, help="times the primary hangs and wakes")
    parser.add_argument("--hang", type=int, default=30, help="seconds the primary hangs each time")
    parser.add_argument("--only", help="run just the row whose fault starts with this (for working on one)")
    args = parser.parse_args()
    def loaded(name, inject, window, goal):
        return name, lambda: under_load(name, inject, window, args.workers, goal)

    runs = [
        loaded("kill -9 of one instance", kill_instance, 8, 5),
        loaded("PostgreSQL restarted (pg_ctl restart -m fast)", restart_postgres, 8, 5),
        # #27: answered writes survive a primary that hangs and wakes; service
        # resumes within 20 s of each hang (failover from a hung primary), no
        # request waits past the bound, and every instance is current after.
        # 20 s, not 15 s, since a formation has two standbys (docs/operations.md,
        # "Why three nodes"): the monitor waits for both to report their WAL
        # position before it elects one, 1-4 s (measured 11.0-15.5 s in all).
        ("primary hangs", lambda: primary_hangs(args.hang_cycles, args.hang, args.workers, 20)),
    ]
    if not args.short:
        runs += [
            loaded("failover (pg_autoctl perform failover)", perform_failover, 15, 30),
            loaded("kill -9 of the primary's postmaster", kill_primary, 15, 30),
            ("IM vendor down", lambda: vendor_down(args.vendor_down, 30)),
            ("10000 rooms due", lambda: due_rooms(args.due_rooms, 60)),
        ]
    import chaos_cells
    if chaos_cells.cells_ready():
        # #43: on a cluster of two cells (ops/cluster start --cells 2).
        runs += [
            ("tenant moved under load", lambda: chaos_cells.moved_under_load(args.workers)),
            ("move interrupted", lambda: chaos_cells.move_interrupted(args.workers)),
            ("a cell's primary frozen", lambda: chaos_cells.cell_frozen(args.workers)),
        ]
    if args.only:
        runs = [run for run in runs if run[0].startswith(args.only)]
    rows = []
    for _, run in runs:
        if not wait_formation_healthy():
            log("the formation is not healthy before the next fault")
        if chaos_cells.cells_ready() and not wait_formation_healthy(formation="cell2"):
            log("cell2's formation is not healthy before the next fault")
        rows.append(run())
    print(table(rows))
    missed = [row["fault"] for row in rows if not row["met"]]
    if missed:
        print(f"goals missed: {', '.join(missed)}")
        sys.exit(1)
    print("every goal met")


if __name__ == "__main__":
    main()
