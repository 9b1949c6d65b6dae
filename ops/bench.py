"""ops/bench's driver: five figures, each next to what it is compared with.

Run through ops/bench, which provides DATABASE_URL, BIN (release binaries),
PGBENCH and PG_LOG. Every load is bounded in count and time and goes to
127.0.0.1 only.
"""
import argparse
import asyncio
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

DB = os.environ["DATABASE_URL"]
BIN = os.environ["BIN"]
PGBENCH = os.environ["PGBENCH"]
PSQL = os.path.join(os.path.dirname(PGBENCH), "psql")
PG_LOG = os.environ["PG_LOG"]
TENANT = "bench"
PORT, BARE_PORT = 8181, 8182
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(HERE, ".bench")


def log(message):
    print(f"ops/bench: {message}", file=sys.stderr, flush=True)


def sql(statement):
    out = subprocess.run([PSQL, DB, "-qtA", "-v", "ON_ERROR_STOP=1", "-c", statement], check=True, capture_output=True, text=True)
    return out.stdout.strip()


def post(path, body="", port=PORT):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body.encode(), method="POST",
                                     headers={"Content-Type": "application/x-www-form-urlencoded;charset=utf-8"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


class Server:
    """A release `roomkeeper serve` (or the bare reference) on a port of 127.0.0.1."""

    def __init__(self, binary, port, env=None):
        self.port = port
        environment = dict(os.environ, PORT=str(port), HOST="127.0.0.1", ROOMKEEPER_TENANTS=TENANTS_DIR,
                           ROOMKEEPER_OPERATOR_KEY="bench-operator", LOG_LEVEL="error", BENCH_TENANT=TENANT, **(env or {}))
        self.process = subprocess.Popen([os.path.join(BIN, binary)] + (["serve", "--no-migrate"] if binary == "roomkeeper" else []),
                                        env=environment, cwd=HERE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                return
            except OSError as error:
                if getattr(error, "code", None) == 404:  # the bare route has no /healthz: it is up
                    return
                time.sleep(0.1)
        raise RuntimeError(f"{binary} did not start on port {port}")

    def rss_mb(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()


def reset_bench_rows():
    for table in ["rooms", "room_events", "outbox", "sessions", "accounts", "im_chatrooms", "im_accounts", "im_events", "im_presence",
                  "im_connections"]:
        sql(f"DELETE FROM {table} WHERE tenant_id = '{TENANT}'")


# ---------------------------------------------------------------- figure 1

WRK_FLOW = """
local counter = 0
local threads = {}
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end
local sids = {%(sids)s}
local base = "/t/%(tenant)s/audio-chatroom"
local headers = {["Content-Type"] = "application/x-www-form-urlencoded;charset=utf-8"}
local step, room, sid = 0, nil, nil
flows = 0
function init(args) sid = sids[(id - 1) %% #sids + 1] end
function request()
  if step == 0 then return wrk.format("POST", base .. "/room/create", headers, "sid=" .. sid .. "&roomName=bench")
  elseif step == 1 then return wrk.format("POST", base .. "/room/list", headers, "")
  else return wrk.format("POST", base .. "/room/dissolve", headers, "sid=" .. sid .. "&roomId=" .. room) end
end
function response(status, headers, body)
  if step == 0 then
    room = string.match(body, '"roomId":(%%d+)')
    if room then step = 1 end
  elseif step == 1 then step = 2
  else step = 0; flows = flows + 1 end
end
function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("flows") end
  io.write(string.format("FLOWS %%d %%f\\n", total, summary.duration / 1e6))
end
"""


def wrk(url, connections, seconds, script=None, threads=2):
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "10s"]
    if script:
        command += ["-s", script]
    out = subprocess.run(command + [url], capture_output=True, text=True, check=True).stdout
    result = {"requests_per_s": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))}
    for label, key in [("50%", "p50_ms"), ("99%", "p99_ms")]:
        match = re.search(rf"{re.escape(label)}\s+([\d.]+)(us|ms|s)", out)
        if match:
            value, unit = float(match.group(1)), match.group(2)
            result[key] = value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    flows = re.search(r"FLOWS (\d+) ([\d.]+)", out)
    if flows:
        result["flows_per_s"] = int(flows.group(1)) / float(flows.group(2))
    return result


def guest_sids(count):
    return [post(f"/t/{TENANT}/audio-chatroom/user/get")["data"]["sid"] for _ in range(count)]


def capture_flow_sql(sid):
    """The SQL one create → list → dissolve flow sends, read from PostgreSQL's
    statement log while a server with idle background services serves it."""
    database = DB.rsplit("/", 1)[1].split("?")[0]
    sql(f"ALTER DATABASE {database} SET log_statement = 'all'")
    server = Server("roomkeeper", PORT, {"ROOMKEEPER_SWEEP_INTERVAL": "1h", "ROOMKEEPER_OUTBOX_POLL": "1h"})
    try:
        time.sleep(0.5)
        offset = os.path.getsize(PG_LOG)
        base = f"/t/{TENANT}/audio-chatroom"
        room = post(f"{base}/room/create", f"sid={sid}&roomName=bench")["data"]["roomId"]
        post(f"{base}/room/list")
        post(f"{base}/room/dissolve", f"sid={sid}&roomId={room}")
        time.sleep(0.5)
    finally:
        sql(f"ALTER DATABASE {database} RESET log_statement")
        server.stop()
    with open(PG_LOG, errors="replace") as handle:
        handle.seek(offset)
        text = handle.read()
    return parse_statements(text), room


ENTRY = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \w+ \[(\d+)\] (LOG|DETAIL|ERROR|STATEMENT|HINT|CONTEXT):  (.*)$")
# The outbox's delivery of the dissolve's side effect runs after it, in the background: not the flow's.
# The dissolve's own close (`WITH closed AS (UPDATE rooms …) INSERT INTO room_events …`) is the flow's:
# the sweeper is idle while the flow is captured, so it is counted and replayed by pgbench.
BACKGROUND = re.compile(r"UPDATE outbox|FROM outbox|DELETE FROM im_presence|UPDATE im_chatrooms SET open = false|LISTEN|schema_migrations|pg_advisory|ALTER DATABASE", re.S)


def parse_statements(text):
    entries = []
    for line in text.splitlines():
        match = ENTRY.match(line)
        if match:
            entries.append([match.group(2), match.group(3)])
        elif entries:
            entries[-1][1] += "\n" + line
    statements = []
    for index, (kind, body) in enumerate(entries):
        if kind != "LOG":
            continue
        found = re.match(r"(?:execute [^:]+|statement): (.*)", body, re.S)
        if not found:
            continue
        statement = found.group(1).strip()
        if index + 1 < len(entries) and entries[index + 1][0] == "DETAIL" and entries[index + 1][1].startswith("parameters:"):
            values = dict(re.findall(r"\$(\d+) = ('(?:[^']|'')*'|NULL)", entries[index + 1][1]))
            statement = re.sub(r"\$(\d+)", lambda m: values.get(m.group(1), m.group(0)), statement)
        if BACKGROUND.search(statement):
            continue
        statements.append(statement)
    # Transactions left empty by the filter are dropped.
    cleaned = []
    for statement in statements:
        if statement.upper() == "COMMIT" and cleaned and cleaned[-1].upper() == "BEGIN":
            cleaned.pop()
            continue
        cleaned.append(statement)
    return cleaned


def pgbench_script(statements, room, accid, token_hash):
    lines = []
    for statement in statements:
        statement = re.sub(rf"(?<!\d){room}(?!\d)", ":room_id", statement)
        statement = statement.replace(f"'{token_hash}'", "encode(sha256(('bench-sid-' || :client_id)::bytea), 'hex')")
        statement = statement.replace(accid, "bench-user-:client_id")
        # A leading "-- why" comment would swallow the whole statement once it is on one line.
        statement = re.sub(r"--[^\n]*", "", statement)
        statement = " ".join(statement.split())
        if re.fullmatch(r"SELECT nextval\('room_ids'\)", statement):
            statement += " AS room_id \\gset"
        elif statement.startswith("SELECT 1 FROM rooms WHERE") and ":room_id" in statement:
            # The server draws room ids at random and checks them unused.
            lines.append("\\set room_id random(100000000, 2147483647)")
            statement += ";"
        elif not statement.endswith(";") and "\\gset" not in statement:
            statement += ";"
        lines.append(statement)
    return "\n".join(lines) + "\n"


def pgbench_clients(count):
    sql(f"""
        INSERT INTO accounts (tenant_id, accid, nickname, created_at)
        SELECT '{TENANT}', 'bench-user-' || n, 'bench', now() FROM generate_series(0, {count - 1}) AS n ON CONFLICT DO NOTHING;
        INSERT INTO sessions (tenant_id, token_hash, accid, plugin_id, created_at, expires_at)
        SELECT '{TENANT}', encode(sha256(('bench-sid-' || n)::bytea), 'hex'), 'bench-user-' || n, 'audio-chatroom', now(), now() + interval '1 day'
        FROM generate_series(0, {count - 1}) AS n ON CONFLICT DO NOTHING;
    """)


def pgbench(script_path, clients, seconds):
    out = subprocess.run([PGBENCH, "-n", "-c", str(clients), "-j", "2", "-T", str(seconds), "-f", script_path, DB],
                         capture_output=True, text=True)
    match = re.search(r"tps = ([\d.]+)", out.stdout)
    if not match:
        raise RuntimeError("pgbench failed:\n" + out.stdout + out.stderr)
    failed = re.search(r"number of failed transactions: (\d+)", out.stdout)
    return float(match.group(1)), int(failed.group(1)) if failed else 0


def figure_flow(seconds):
    log("figure 1: the audio-chatroom flow over HTTP vs pgbench running its SQL")
    server = Server("roomkeeper", PORT)
    try:
        sids = guest_sids(64)
    finally:
        server.stop()
    accid_rows = sql(f"SELECT s.accid FROM sessions s WHERE s.tenant_id = '{TENANT}' AND s.token_hash = '{hashlib.sha256(sids[0].encode()).hexdigest()}'")
    statements, room = capture_flow_sql(sids[0])
    script = pgbench_script(statements, room, accid_rows, hashlib.sha256(sids[0].encode()).hexdigest())
    script_path = os.path.join(WORK, "flow.sql")
    with open(script_path, "w") as handle:
        handle.write(script)
    pgbench_clients(64)
    results = {"sql_statements_per_flow": sum(1 for line in script.splitlines() if line.upper() not in ("BEGIN;", "COMMIT;") and not line.startswith("\\")),
               "pgbench_script": os.path.relpath(script_path, HERE)}
    server = Server("roomkeeper", PORT)
    try:
        lua = os.path.join(WORK, "flow.lua")
        with open(lua, "w") as handle:
            handle.write(WRK_FLOW % {"sids": ", ".join(f'"{sid}"' for sid in sids), "tenant": TENANT})
        for connections in (16, 64):
            # One wrk thread per connection: each thread's Lua state walks one connection's flow.
            http = wrk(f"http://127.0.0.1:{PORT}", connections, seconds, lua, threads=connections)
            server_rss = server.rss_mb()
            tps, failed = pgbench(script_path, connections, seconds)
            results[f"c{connections}"] = {"http_flows_per_s": round(http["flows_per_s"], 1), "pgbench_flows_per_s": round(tps, 1),
                                          "ratio": round(http["flows_per_s"] / tps, 2), "pgbench_failed": failed,
                                          "http_p99_ms": round(http.get("p99_ms", 0), 2), "server_rss_mb": round(server_rss, 1)}
    finally:
        server.stop()
    sql(f"DELETE FROM rooms WHERE tenant_id = '{TENANT}'")
    return results


# ---------------------------------------------------------------- figure 2

CREATE_ONLY = """
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end
local sids = {%(sids)s}
function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
  wrk.body = "sid=" .. sids[(id - 1) %% #sids + 1] .. "&roomName=bench"
end
"""

def figure_overhead(seconds):
    log("figure 2: /room/list and /room/create vs a bare route doing the same query")
    sql(f"""
        INSERT INTO rooms (tenant_id, room_id, plugin_id, name, owner, state, capacity, created_at, expires_at, im_chatroom_id, attributes)
        SELECT '{TENANT}', nextval('room_ids'), 'audio-chatroom', 'listed', 'bench-user-0', 'open', 100, now(), now() + interval '1 day',
               currval('room_ids')::text, '{{"thumbnail":"x"}}' FROM generate_series(1, 20)
    """)
    results = {}
    list_lua = os.path.join(WORK, "post.lua")
    with open(list_lua, "w") as handle:
        handle.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/x-www-form-urlencoded"\n')
    create_lua = os.path.join(WORK, "create.lua")
    server = Server("roomkeeper", PORT)
    try:
        # A creator per connection (creating dissolves the creator's earlier rooms).
        sids = guest_sids(64)
        with open(create_lua, "w") as handle:
            handle.write(CREATE_ONLY % {"sids": ", ".join(f'"{sid}"' for sid in sids)})
        for connections in (16, 64):
            results[f"list_c{connections}"] = wrk(f"http://127.0.0.1:{PORT}/t/{TENANT}/audio-chatroom/room/list", connections, seconds, list_lua)
            results[f"create_c{connections}"] = wrk(f"http://127.0.0.1:{PORT}/t/{TENANT}/audio-chatroom/room/create", connections, seconds,
                                                    create_lua, threads=connections)
    finally:
        server.stop()
    bare = Server("bench-bare", BARE_PORT)
    try:
        for connections in (16, 64):
            results[f"bare_c{connections}"] = wrk(f"http://127.0.0.1:{BARE_PORT}/t/{TENANT}/audio-chatroom/room/list", connections, seconds, list_lua)
    finally:
        bare.stop()
    for connections in (16, 64):
        ours, bare_figures = results[f"list_c{connections}"], results[f"bare_c{connections}"]
        results[f"ratio_c{connections}"] = {"throughput": round(ours["requests_per_s"] / bare_figures["requests_per_s"], 2),
                                            "p99": round(ours.get("p99_ms", 0) / max(bare_figures.get("p99_ms", 1e-9), 1e-9), 2)}
    sql(f"DELETE FROM rooms WHERE tenant_id = '{TENANT}'")
    return results


# ---------------------------------------------------------------- figure 3

def seed_rooms(count, due, name):
    expiry = "now() - interval '1 second'" if due else "now() + interval '1 day'"
    sql(f"""
        INSERT INTO rooms (tenant_id, room_id, plugin_id, name, owner, state, capacity, created_at, expires_at, im_chatroom_id)
        SELECT '{TENANT}', id, 'audio-chatroom', '{name}', 'bench-user-0', 'open', 100, now(), {expiry}, id::text
        FROM (SELECT nextval('room_ids') AS id FROM generate_series(1, {count})) AS ids
    """)


def figure_expiry(rooms):
    log(f"figure 3: {rooms} rooms falling due at once, 1 and 3 sweepers")
    results = {}
    for sweepers in (1, 3):
        sql(f"DELETE FROM rooms WHERE tenant_id = '{TENANT}'; DELETE FROM outbox WHERE tenant_id = '{TENANT}'")
        seed_rooms(rooms, True, "expiry")
        environment = dict(os.environ, ROOMKEEPER_TENANTS=TENANTS_DIR, LOG_LEVEL="error")
        started = time.monotonic()
        processes = [subprocess.Popen([os.path.join(BIN, "roomkeeper"), "sweep"], env=environment, cwd=HERE,
                                      stdout=subprocess.PIPE, text=True) for _ in range(sweepers)]
        counts = [int(process.communicate(timeout=600)[0].strip() or 0) for process in processes]
        elapsed = time.monotonic() - started
        seeded = f"SELECT room_id FROM rooms WHERE tenant_id = '{TENANT}' AND name = 'expiry'"
        closed = int(sql(f"SELECT count(*) FROM rooms WHERE tenant_id = '{TENANT}' AND name = 'expiry' AND state = 'closed' AND close_reason = 'expired'"))
        events = int(sql(f"SELECT count(*) FROM room_events WHERE tenant_id = '{TENANT}' AND kind = 'closed' AND room_id IN ({seeded})"))
        twice = int(sql(f"SELECT count(*) FROM (SELECT room_id FROM room_events WHERE tenant_id = '{TENANT}' AND kind = 'closed' "
                        f"AND room_id IN ({seeded}) GROUP BY room_id HAVING count(*) > 1) AS t"))
        outbox = int(sql(f"SELECT count(*) FROM outbox WHERE tenant_id = '{TENANT}' AND room_id IN ({seeded})"))
        results[f"sweepers_{sweepers}"] = {
            "seconds": round(elapsed, 2), "rooms_per_s": round(rooms / elapsed), "closed": closed, "per_process": counts,
            "closed_exactly_once": closed == rooms and events == rooms and twice == 0 and sum(counts) == rooms and outbox == rooms,
            "outbox_entries": outbox}
    sql(f"DELETE FROM rooms WHERE tenant_id = '{TENANT}'; DELETE FROM outbox WHERE tenant_id = '{TENANT}'; "
        f"DELETE FROM room_events WHERE tenant_id = '{TENANT}'")
    return results


# ---------------------------------------------------------------- figures 4 and 5

FAN_WORKERS = 4


def fan_worker(indices, ready, go, results, bodies):
    """One client process: its share of the receivers, each recording when
    the probe and the sustained messages arrive."""
    import websockets

    async def main():
        received = {i: {} for i in indices}

        async def connect(index):
            socket = await websockets.connect(f"ws://127.0.0.1:{PORT}/t/{TENANT}/im/ws",
                                              max_size=1 << 20, ping_interval=None, open_timeout=60)
            await socket.send(json.dumps({"type": "login", "accid": f"fan-{index}", "token": f"fan-{index}"}))
            await socket.send(json.dumps({"type": "enter", "chatroom": "fanout"}))
            while json.loads(await socket.recv()).get("type") != "entered":
                pass
            return socket

        sockets = []
        for start in range(0, len(indices), 50):
            sockets += await asyncio.gather(*(connect(i) for i in indices[start:start + 50]))

        async def read(index, socket):
            async for text in socket:
                frame = json.loads(text)
                if frame.get("type") == "message":
                    received[index][frame.get("body")] = time.time()

        readers = [asyncio.create_task(read(i, s)) for i, s in zip(indices, sockets)]
        ready.release()
        wanted = set(bodies) | {"probe"}
        deadline = time.time() + 120
        while time.time() < deadline:
            await asyncio.sleep(0.05)
            if go.is_set() and all(wanted <= set(b if not b.startswith("probe") else "probe" for b in got) for got in received.values()):
                break
        for task in readers:
            task.cancel()
        for socket in sockets:
            await socket.close()
        results.put({i: got for i, got in received.items()})

    asyncio.run(main())


async def fan_out(clients, senders, per_sender):
    import multiprocessing
    import websockets

    sql(f"""
        INSERT INTO im_accounts (tenant_id, accid, token_hash, created_at, updated_at, token_expires_at)
        SELECT '{TENANT}', 'fan-' || n, encode(sha256(('fan-' || n)::bytea), 'hex'), now(), now(), now() + interval '1 day'
        FROM generate_series(0, {clients + senders}) AS n
        ON CONFLICT DO NOTHING;
        INSERT INTO im_chatrooms (tenant_id, chatroom_id, name, creator, created_at) VALUES ('{TENANT}', 'fanout', 'fanout', 'fan-0', now())
        ON CONFLICT DO NOTHING;
    """)
    bodies = [f"m-{s}-{k}" for s in range(senders) for k in range(per_sender)]
    context = multiprocessing.get_context("fork")
    ready, go, results = context.Semaphore(0), context.Event(), context.Queue()
    shares = [list(range(w, clients, FAN_WORKERS)) for w in range(FAN_WORKERS)]
    workers = [context.Process(target=fan_worker, args=(share, ready, go, results, bodies)) for share in shares]
    for worker in workers:
        worker.start()
    for _ in workers:
        await asyncio.get_running_loop().run_in_executor(None, ready.acquire)
    connected_rss = SERVER.rss_mb()

    # The senders are extra members, outside the measured clients.
    async def sender(index):
        socket = await websockets.connect(f"ws://127.0.0.1:{PORT}/t/{TENANT}/im/ws", ping_interval=None)
        await socket.send(json.dumps({"type": "login", "accid": f"fan-{index}", "token": f"fan-{index}"}))
        await socket.send(json.dumps({"type": "enter", "chatroom": "fanout"}))
        while json.loads(await socket.recv()).get("type") != "entered":
            pass
        return socket

    sockets = [await sender(clients + s) for s in range(senders)]
    sent = time.time()
    await sockets[0].send(json.dumps({"type": "text", "chatroom": "fanout", "text": f"probe-{sent}"}))
    await asyncio.sleep(2)

    async def send(index):
        for k in range(per_sender):
            await sockets[index].send(json.dumps({"type": "text", "chatroom": "fanout", "text": f"m-{index}-{k}"}))
            await asyncio.sleep(0.06)

    started = time.time()
    await asyncio.gather(*(send(s) for s in range(senders)))
    go.set()
    received = {}
    for _ in workers:
        received.update(await asyncio.get_running_loop().run_in_executor(None, results.get))
    for worker in workers:
        worker.join(timeout=30)
    for socket in sockets:
        await socket.close()

    probe = f"probe-{sent}"
    latencies = sorted((got[probe] - sent) * 1000 for got in received.values() if probe in got)
    delivered = sum(1 for got in received.values() for b in bodies if b in got)
    last = max((got[b] for got in received.values() for b in bodies if b in got), default=started)
    elapsed = max(last - started, 1e-9)

    def pct(values, p):
        return round(values[min(len(values) - 1, int(len(values) * p))], 1) if values else None

    return {"clients": clients, "client_processes": FAN_WORKERS, "received_probe": len(latencies), "p50_ms": pct(latencies, 0.5),
            "p99_ms": pct(latencies, 0.99), "messages": len(bodies), "deliveries": delivered, "seconds": round(elapsed, 2),
            "messages_per_s": round(len(bodies) / elapsed, 1), "deliveries_per_s": round(delivered / elapsed)}, connected_rss


def figures_fanout_memory(clients, open_rooms):
    global SERVER
    log(f"figures 4 and 5: {clients} WebSocket clients in one chatroom; server memory")
    SERVER = Server("roomkeeper", PORT)
    memory = {}
    try:
        time.sleep(1)
        memory["idle_mb"] = round(SERVER.rss_mb(), 1)
        seed_rooms(open_rooms, False, "memory")
        for _ in range(20):
            post(f"/t/{TENANT}/audio-chatroom/room/list")
        time.sleep(1)
        memory[f"open_rooms_{open_rooms}_mb"] = round(SERVER.rss_mb(), 1)
        fan, connected = asyncio.run(fan_out(clients, 20, 20))
        memory[f"websockets_{clients}_mb"] = round(connected, 1)
    finally:
        SERVER.stop()
        sql(f"DELETE FROM rooms WHERE tenant_id = '{TENANT}'")
    return fan, memory


# ---------------------------------------------------------------- main

def table(figures):
    flow, overhead, expiry, fan, memory = (figures.get(k) for k in ("flow", "overhead", "expiry", "fanout", "memory"))
    rows = [("figure", "measured", "compared with", "goal", "met")]
    for c in ((16, 64) if flow else ()):
        f = flow[f"c{c}"]
        rows.append((f"1. flow create→list→dissolve, {c} conns", f"{f['http_flows_per_s']} flows/s",
                     f"pgbench same SQL {f['pgbench_flows_per_s']} flows/s (ratio {f['ratio']})", "ratio ≥ 0.6", f["ratio"] >= 0.6))
    for c in ((16, 64) if overhead else ()):
        ours, bare, ratio = overhead[f"list_c{c}"], overhead[f"bare_c{c}"], overhead[f"ratio_c{c}"]
        rows.append((f"2. /room/list, {c} conns", f"{ours['requests_per_s']:.0f} req/s, p50 {ours.get('p50_ms', 0):.1f} ms, p99 {ours.get('p99_ms', 0):.1f} ms",
                     f"bare route {bare['requests_per_s']:.0f} req/s, p99 {bare.get('p99_ms', 0):.1f} ms (×{ratio['throughput']}, p99 ×{ratio['p99']})",
                     "≥ 0.8×, p99 ≤ 1.25×", ratio["throughput"] >= 0.8 and ratio["p99"] <= 1.25))
        create = overhead[f"create_c{c}"]
        rows.append((f"2. /room/create, {c} conns", f"{create['requests_per_s']:.0f} req/s, p50 {create.get('p50_ms', 0):.1f} ms, p99 {create.get('p99_ms', 0):.1f} ms",
                     "(no bare equivalent)", "-", "-"))
    for s in ((1, 3) if expiry else ()):
        e = expiry[f"sweepers_{s}"]
        rows.append((f"3. expiry, {s} sweeper(s)", f"{e['rooms_per_s']} rooms/s ({e['seconds']} s)",
                     f"each closed once: {e['closed_exactly_once']}", "≥ 20,000 rooms/s", e["rooms_per_s"] >= 20000 and e["closed_exactly_once"]))
    if fan: rows.append((f"4. fan-out to {fan['clients']} clients", f"p50 {fan['p50_ms']} ms, p99 {fan['p99_ms']} ms",
                 f"{fan['messages_per_s']} messages/s = {fan['deliveries_per_s']} deliveries/s sustained", "p99 < 100 ms",
                 fan["p99_ms"] is not None and fan["p99_ms"] < 100))
    for key, value in (memory or {}).items():
        rows.append((f"5. server RSS, {key[:-3].replace('_', ' ')}", f"{value} MB", "", "< 150 MB", value < 150))
    widths = [max(len(str(row[i])) for row in rows) for i in range(5)]
    for row in rows:
        print("  ".join(str(cell).ljust(widths[i]) for i, cell in enumerate(row)))


def main():
    global TENANTS_DIR
    parser = argparse.ArgumentParser(description="Roomkeeper's benchmark")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--quick", action="store_true", help="shorter runs and smaller loads (a smoke test of the bench)")
    parser.add_argument("--only", help="comma-separated figures to run (1, 2, 3, 4 = fan-out and memory); default all")
    args = parser.parse_args()
    only = set((args.only or "1,2,3,4").split(","))
    seconds, rooms, clients = (3, 10000, 200) if args.quick else (10, 100000, 1000)
    os.makedirs(WORK, exist_ok=True)
    TENANTS_DIR = tempfile.mkdtemp(prefix="bench-tenants-")
    with open(os.path.join(TENANTS_DIR, f"{TENANT}.toml"), "w") as handle:
        # Every bench client is 127.0.0.1: per-address limits would measure themselves.
        handle.write('name = "Bench"\n[providers.im]\nkind = "local"\n[plugins.audio-chatroom]\nroomTTL = "48h"\n'
                     'accountsPerAddress = "0"\nroomsPerAddress = "0"\n')
    subprocess.run([os.path.join(BIN, "roomkeeper"), "migrate"], cwd=HERE, check=True, stdout=subprocess.DEVNULL,
                   env=dict(os.environ, LOG_LEVEL="error"))
    reset_bench_rows()
    started = time.time()
    figures = {"machine": {"cpus": os.cpu_count(), "memory_gb": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)}}
    if "1" in only: figures["flow"] = figure_flow(seconds)
    if "2" in only: figures["overhead"] = figure_overhead(seconds)
    if "3" in only: figures["expiry"] = figure_expiry(rooms)
    if "4" in only: figures["fanout"], figures["memory"] = figures_fanout_memory(clients, rooms)
    figures["seconds"] = round(time.time() - started)
    reset_bench_rows()
    shutil.rmtree(TENANTS_DIR, ignore_errors=True)
    table(figures)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(figures, handle, indent=2)


if __name__ == "__main__":
    main()
