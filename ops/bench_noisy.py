"""ops/bench's figure 6 (#41): a noisy neighbour. Tenant B sends guest
logins at a fixed rate (a quarter of what the server does for it alone),
first alone, then while tenant A floods the same route from 64 connections
far past its budget. B's achieved rate and p99 are compared between the two
runs (ratios in one run), and A's answers are counted by status: only 2xx
and 429 are allowed.

B's load is open-loop: requests are due at fixed times and a request's
latency runs from when it was due, so a server that falls behind shows it
(wrk's closed loop would only slow down and hide it).
"""
import asyncio
import re
import subprocess
import time


async def _one_connection(port, path, due_queue, results):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
               f"Content-Length: 0\r\n\r\n").encode()
    try:
        while True:
            due = await due_queue.get()
            if due is None:
                return
            writer.write(request)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = int(re.search(rb"(?i)content-length:\s*(\d+)", head).group(1))
            await reader.readexactly(length)
            results.append((status, time.monotonic() - due))
    finally:
        writer.close()


async def _fixed_rate(port, path, rate, seconds, connections=16):
    """Requests due every 1/rate s for `seconds`, each sent on the first free
    connection; (statuses and latencies in s, seconds the run took)."""
    queue, results = asyncio.Queue(), []
    started = time.monotonic()
    workers = [asyncio.create_task(_one_connection(port, path, queue, results)) for _ in range(connections)]
    count = int(rate * seconds)
    for n in range(count):
        due = started + n / rate
        delay = due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        queue.put_nowait(due)
    for _ in workers:
        queue.put_nowait(None)
    await asyncio.gather(*workers)
    return results, time.monotonic() - started, count


def fixed_rate(port, path, rate, seconds):
    return asyncio.run(_fixed_rate(port, path, rate, seconds))


def summary(results, elapsed, asked, seconds):
    ok = sorted(latency for status, latency in results if status == 200)
    p99 = ok[min(len(ok) - 1, int(len(ok) * 0.99))] * 1000 if ok else 0.0
    return {"asked_per_s": round(asked / seconds, 1), "achieved_per_s": round(len(ok) / elapsed, 1),
            "p99_ms": round(p99, 2), "p50_ms": round(ok[len(ok) // 2] * 1000, 2) if ok else 0.0,
            "not_ok": len(results) - len(ok)}


FLOOD_LUA = """
-- Counts answers by status class (2xx, 429, other) across threads: each
-- thread's `counts` is a global of its Lua state, read by `done` through thread:get.
counts = {}
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) counts = {ok = 0, throttled = 0, other = 0} end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
function response(status, headers, body)
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
  io.write(string.format("STATUSES %d %d %d\\n", ok, throttled, other))
end
"""


def flood(url, connections, seconds, lua_path):
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "-s", lua_path, url]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def flood_result(process):
    out, _ = process.communicate(timeout=120)
    match = re.search(r"STATUSES (\d+) (\d+) (\d+)", out)
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    return {"ok": int(match.group(1)) if match else -1, "throttled": int(match.group(2)) if match else -1,
            "other": int(match.group(3)) if match else -1, "requests_per_s": float(rate.group(1)) if rate else 0.0}
