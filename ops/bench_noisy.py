"""ops/bench's figure 6 (#41): a noisy neighbour. Tenant B sends writes at
a fixed rate (a quarter of what the server does for it alone), first
alone, then while tenant A floods the same routes from 64 connections far
past its budget: guest logins, then the create → list → dissolve flow.
B's achieved rate and p99 are compared between the two runs (ratios in
one run), and A's answers are counted by status: only 2xx and 429 are
allowed. B's load is open-loop (`bench_http.open_loop`).
"""
import asyncio
import re
import subprocess
import time

from bench_http import FLOW_STEPS_LUA, closed_loop, ok, open_loop, summary


def fixed_rate(port, path, rate, seconds):
    """B's guest logins at `rate` for `seconds`, from 16 connections."""
    async def login(connection, _):
        status, answer = await connection.post(path)
        return ok(status, answer)

    async def run():
        deadline = time.monotonic() + seconds
        return summary(*await open_loop(port, rate, lambda: time.monotonic() >= deadline, range(16), login), seconds, rate)
    return asyncio.run(run())


def guest_sids(port, base, count):
    async def login(connection):
        status, answer = await connection.post(f"{base}/user/get")
        if not ok(status, answer):
            raise RuntimeError(f"a guest login failed: {status} {answer}")
        return answer["data"]["sid"]
    return asyncio.run(closed_loop(port, 4, [login] * count))


def fixed_rate_flows(port, base, sids, rate, seconds):
    """B's create → list → dissolve flows at `rate` for `seconds`, each on
    the next free connection with that connection's session."""
    async def flow(connection, sid):
        status, created = await connection.post(f"{base}/room/create", f"sid={sid}&roomName=bench")
        if not ok(status, created):
            return False
        status, listed = await connection.post(f"{base}/room/list")
        if not ok(status, listed):
            return False
        status, dissolved = await connection.post(f"{base}/room/dissolve", f"sid={sid}&roomId={created['data']['roomId']}")
        return ok(status, dissolved)

    async def run():
        deadline = time.monotonic() + seconds
        return summary(*await open_loop(port, rate, lambda: time.monotonic() >= deadline, sids, flow), seconds, rate)
    return asyncio.run(run())


COUNTING_LUA = """
-- Counts answers by status class (2xx, 429, other) across threads: each
-- thread's `counts` is a global of its Lua state, read by `done` through thread:get.
counts = {}
local threads = {}
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end
local function count(status)
  if status >= 200 and status < 300 then counts.ok = counts.ok + 1
  elseif status == 429 then counts.throttled = counts.throttled + 1
  else counts.other = counts.other + 1 end
end
function done(summary, latency, requests)
  local ok, throttled, other = 0, 0, 0
  for _, thread in ipairs(threads) do
    local c = thread:get("counts")
    ok = ok + c.ok; throttled = throttled + c.throttled; other = other + c.other
  end
  io.write(string.format("STATUSES %%d %%d %%d\\n", ok, throttled, other))
end
"""

# One request, the URL's, again and again (guest logins).
FLOOD_LUA = (COUNTING_LUA + """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
function init(args) counts = {ok = 0, throttled = 0, other = 0} end
function response(status, headers, body) count(status) end
""") % {}

# A's create -> list -> dissolve flows, one per wrk thread (its connection
# and session); a refusal repeats its step.
FLOOD_FLOW_LUA = COUNTING_LUA + """
local sids = {%(sids)s}
sid = nil
function init(args)
  counts = {ok = 0, throttled = 0, other = 0}
  sid = sids[(id - 1) %% #sids + 1]
end
""" + FLOW_STEPS_LUA + """
function response(status, headers, body)
  count(status)
  advance(status, body)
end
"""


def flood(url, connections, seconds, lua_path, threads=2):
    # A's wrk runs at idle priority (SCHED_IDLE): A's clients are not on the
    # server's machine in production, and here its 64 threads shared the 2
    # cores with B's client, whose own waits for a core were counted as B's
    # latency (logins ×2.16 as a normal process, ×1.01-1.43 at idle
    # priority, A held to its budget either way). The server and
    # PostgreSQL still run every request A sends.
    command = ["chrt", "--idle", "0", "wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "-s", lua_path, url]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def flood_result(process):
    out, _ = process.communicate(timeout=120)
    match = re.search(r"STATUSES (\d+) (\d+) (\d+)", out)
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    return {"ok": int(match.group(1)) if match else -1, "throttled": int(match.group(2)) if match else -1,
            "other": int(match.group(3)) if match else -1, "requests_per_s": float(rate.group(1)) if rate else 0.0}
