"""HTTP for ops/bench's open-loop figures (6 and 7): keep-alive connections
to 127.0.0.1, and a load that is due at fixed times.

Open-loop: each job is due at a fixed time and its latency runs from then,
so a server that falls behind shows it (wrk's closed loop would only slow
down and hide it).
"""
import asyncio
import contextlib
import json
import os
import time


class Connection:
    """One keep-alive HTTP/1.1 connection to 127.0.0.1."""

    def __init__(self, port):
        self.port = port
        self.reader = self.writer = None

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        return self

    async def post(self, path, body="", headers=None):
        """(status, parsed JSON body or None)."""
        data = body.encode()
        head = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/x-www-form-urlencoded",
                f"Content-Length: {len(data)}"] + [f"{name}: {value}" for name, value in (headers or {}).items()]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        await self.writer.drain()
        response = await self.reader.readuntil(b"\r\n\r\n")
        status = int(response.split(b" ", 2)[1])
        length = 0
        for line in response.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        body = await self.reader.readexactly(length)
        try:
            return status, json.loads(body) if body else None
        except ValueError:
            return status, None

    def close(self):
        if self.writer:
            self.writer.close()


def ok(status, answer):
    """Both wires' success: NetEase-style `code` 200, SealMic's `errCode` 0."""
    return status == 200 and answer is not None and (answer.get("code") == 200 or answer.get("errCode") == 0)


# With BENCH_TIMELINE=FILE, each open-loop job appends "<wall-clock due>
# <latency ms> <ok>" to FILE: a p99 is one window, and its time is what
# PostgreSQL's log (log_min_duration_statement, log_autovacuum_min_duration)
# is read against. That is how 2026-12-07's report found figure 6's windows.
TIMELINE = open(os.environ["BENCH_TIMELINE"], "a") if os.environ.get("BENCH_TIMELINE") else None


# How the measured tenant's client ran: "SCHED_FIFO 1" while open_loop
# runs, or "normal (real-time priority refused)" when not root. ops/bench
# writes it with the machine's figures.
MEASURING_PRIORITY = None
# open_loops running now (figure 8 runs two at once), and the policy to
# restore when the last ends.
_measuring = {"depth": 0, "saved": None}


@contextlib.contextmanager
def measuring_priority():
    """The measured client (open_loop, figures 6, 7 and 8) at the lowest
    real-time priority while it runs; processes it starts meanwhile (figure
    7's joiner) start at normal priority.

    Why: in production the clients are not on the server's machine; here
    they share its two cores, and a measuring client that waits for a core
    counts that wait as the server's latency (the same reason A's clients
    run at idle priority). Figure 7, 2026-12-07, alternated on one build:
    B's seat cycles' p99 beside the hot room 23.6 and 25.6 ms (x1.57,
    x1.44 of alone) with it, 30.6 and 34.7 ms (x1.91, x2.34) without. The
    client is light (50-300 requests a second) and sleeps between them,
    so what it takes from the server is its own work, as before."""
    global MEASURING_PRIORITY
    if _measuring["depth"] == 0:
        saved = (os.sched_getscheduler(0), os.sched_getparam(0))
        try:
            os.sched_setscheduler(0, os.SCHED_FIFO | os.SCHED_RESET_ON_FORK, os.sched_param(1))
            _measuring["saved"] = saved
            MEASURING_PRIORITY = "SCHED_FIFO 1"
        except OSError:
            _measuring["saved"] = None
            MEASURING_PRIORITY = "normal (real-time priority refused)"
    _measuring["depth"] += 1
    try:
        yield
    finally:
        _measuring["depth"] -= 1
        if _measuring["depth"] == 0 and _measuring["saved"]:
            os.sched_setscheduler(0, *_measuring["saved"])
            _measuring["saved"] = None


async def open_loop(port, rate, until, slots, job):
    """Jobs due every 1/rate s until `until()` is true; each runs on the next
    free slot (its own connection and the slot's value) as
    `await job(connection, value)` -> ok. Returns ([(ok, seconds from due)],
    seconds the run took). Runs at `measuring_priority`."""
    with measuring_priority():
        return await _open_loop(port, rate, until, slots, job)


async def _open_loop(port, rate, until, slots, job):
    free = asyncio.Queue()
    connections = []
    for value in slots:
        connection = await Connection(port).open()
        connections.append(connection)
        free.put_nowait((connection, value))
    results, running = [], []

    async def run(due, connection, value):
        try:
            success = await job(connection, value)
            latency = time.monotonic() - due
            results.append((success, latency))
            if TIMELINE:
                TIMELINE.write(f"{time.time() - latency:.3f} {latency * 1000:.1f} {int(success)}\n")
        finally:
            free.put_nowait((connection, value))

    started, n = time.monotonic(), 0
    while not until():
        due = started + n / rate
        n += 1
        delay = due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        connection, value = await free.get()
        running.append(asyncio.create_task(run(due, connection, value)))
    await asyncio.gather(*running)
    for connection in connections:
        connection.close()
    return results, time.monotonic() - started


async def closed_loop(port, connections, jobs, ready=None):
    """Runs `jobs` (async functions of a Connection) on `connections`
    connections, each taking the next job when done; their results.
    `ready()`, if given, is called once every connection is open."""
    queue = asyncio.Queue()
    for job in jobs:
        queue.put_nowait(job)
    results = []
    opened = await asyncio.gather(*(Connection(port).open() for _ in range(connections)))
    if ready:
        ready()

    async def worker(connection):
        try:
            while not queue.empty():
                results.append(await queue.get_nowait()(connection))
        finally:
            connection.close()

    await asyncio.gather(*(worker(connection) for connection in opened))
    return results


def summary(results, elapsed, seconds, rate):
    """Asked and achieved rates, p50 and p99 of the jobs that succeeded."""
    good = sorted(latency for success, latency in results if success)
    def percentile(p):
        return round(good[min(len(good) - 1, int(len(good) * p))] * 1000, 2) if good else 0.0
    return {"asked_per_s": round(rate, 1), "achieved_per_s": round(len(good) / elapsed, 1), "p50_ms": percentile(0.5),
            "p99_ms": percentile(0.99), "not_ok": len(results) - len(good), "jobs": len(results), "seconds": round(elapsed, 2)}


# The audio-chatroom create -> list -> dissolve flow as wrk Lua, one flow per
# wrk thread (its connection and session `sid`): figure 1's load and figure
# 6's flood. A `%`-format: %(base)s is the plugin's path prefix.
FLOW_STEPS_LUA = """
local base = "%(base)s"
local headers = {["Content-Type"] = "application/x-www-form-urlencoded;charset=utf-8"}
local step, room = 0, nil
function request()
  if step == 0 then return wrk.format("POST", base .. "/room/create", headers, "sid=" .. sid .. "&roomName=bench")
  elseif step == 1 then return wrk.format("POST", base .. "/room/list", headers, "")
  else return wrk.format("POST", base .. "/room/dissolve", headers, "sid=" .. sid .. "&roomId=" .. room) end
end
-- Moves on after a 200 (a refusal repeats its step); true when a flow ended.
local function advance(status, body)
  if status ~= 200 then return false end
  if step == 0 then
    room = string.match(body, '"roomId":(%%d+)')
    if room then step = 1 end
  elseif step == 1 then step = 2
  else step = 0; return true end
  return false
end
"""
