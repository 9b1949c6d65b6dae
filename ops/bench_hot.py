"""ops/bench's figure 7 (#41): a hot room. 2,000 SealMic members join one
room from 64 connections as fast as the server answers, while another
tenant's audio-chatroom rooms run the seat cycle (apply → accept → leave)
at a fixed rate. The other tenant's cycle p99 is compared with its p99
alone (ratios in one run); the hot room's joins/s and its member count
(exact: every join once) are the figure.

The seat cycles are open-loop: each is due at a fixed time and its latency
runs from then, so a server that falls behind shows it.
"""
import asyncio
import json
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
        """(status, parsed JSON body)."""
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
        return status, json.loads(body) if body else None

    def close(self):
        if self.writer:
            self.writer.close()


def ok(status, answer):
    """Both wires' success: NetEase-style `code` 200, SealMic's `errCode` 0."""
    return status == 200 and answer is not None and (answer.get("code") == 200 or answer.get("errCode") == 0)


async def _gather_limited(port, connections, jobs):
    """Runs `jobs` (async functions of a Connection) on `connections`
    connections, each connection taking the next job when done."""
    queue = asyncio.Queue()
    for job in jobs:
        queue.put_nowait(job)
    results = []

    async def worker():
        connection = await Connection(port).open()
        try:
            while not queue.empty():
                job = queue.get_nowait()
                results.append(await job(connection))
        finally:
            connection.close()

    await asyncio.gather(*(worker() for _ in range(connections)))
    return results


async def _prepare(port, hot_base, seat_base, members, seat_rooms):
    def sealmic_login(index):
        async def job(connection):
            status, answer = await connection.post(f"{hot_base}/user/login", f"deviceId=hot-{index}")
            if not ok(status, answer):
                raise RuntimeError(f"a SealMic login failed: {status} {answer}")
            return answer["data"]["result"]["authorization"]
        return job

    tokens = await _gather_limited(port, 16, [sealmic_login(n) for n in range(members + 1)])
    host = await Connection(port).open()
    status, answer = await host.post(f"{hot_base}/room/create", "subject=hot&roomType=0", {"Authorization": tokens[0]})
    if not ok(status, answer):
        raise RuntimeError(f"the hot room was not created: {status} {answer}")
    room = answer["data"]["result"]["roomId"]
    rooms = []
    for _ in range(seat_rooms):
        _, h = await host.post(f"{seat_base}/user/get")
        _, m = await host.post(f"{seat_base}/user/get")
        status, created = await host.post(f"{seat_base}/room/create", f"sid={h['data']['sid']}&roomName=seats")
        if not ok(status, created):
            raise RuntimeError(f"a seat room was not created: {status} {created}")
        rooms.append((h["data"]["sid"], m["data"]["sid"], created["data"]["roomId"]))
    host.close()
    return room, tokens[1:], rooms


async def _seat_cycles(port, seat_base, rooms, rate, until):
    """Seat cycles due every 1/rate s until `until()` is true, each on the
    next free room (its own connection); [(ok, seconds from due)]."""
    free = asyncio.Queue()
    connections = []
    for room in rooms:
        connection = await Connection(port).open()
        connections.append(connection)
        free.put_nowait((connection, room))
    results, running = [], []

    async def cycle(due, connection, room):
        host, member, room_id = room
        try:
            good = True
            for path, sid in (("mic/apply", member), ("mic/accept", host), ("mic/leave", member)):
                status, answer = await connection.post(f"{seat_base}/{path}", f"sid={sid}&roomId={room_id}&index=1")
                good = good and ok(status, answer)
            results.append((good, time.monotonic() - due))
        finally:
            free.put_nowait((connection, room))

    started, n = time.monotonic(), 0
    while not until():
        due = started + n / rate
        n += 1
        delay = due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        connection, room = await free.get()
        running.append(asyncio.create_task(cycle(due, connection, room)))
    await asyncio.gather(*running)
    for connection in connections:
        connection.close()
    return results, time.monotonic() - started


async def _joins(port, hot_base, room, tokens, connections):
    def join(token):
        async def job(connection):
            status, answer = await connection.post(f"{hot_base}/room/join", f"roomId={room}", {"Authorization": token})
            return ok(status, answer), status, (answer or {}).get("errCode")
        return job

    started = time.monotonic()
    results = await _gather_limited(port, connections, [join(token) for token in tokens])
    return results, time.monotonic() - started


def p99_ms(results):
    latencies = sorted(seconds for good, seconds in results if good)
    return round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000, 2) if latencies else 0.0


async def _figure(port, hot_base, seat_base, members, connections, rate, seconds):
    room, tokens, rooms = await _prepare(port, hot_base, seat_base, members, 16)
    deadline = time.monotonic() + seconds
    alone, alone_elapsed = await _seat_cycles(port, seat_base, rooms, rate, lambda: time.monotonic() >= deadline)
    joining = asyncio.create_task(_joins(port, hot_base, room, tokens, connections))
    crowded, crowded_elapsed = await _seat_cycles(port, seat_base, rooms, rate, joining.done)
    joins, joins_elapsed = await joining
    refused = {}
    for good, status, code in joins:
        if not good:
            refused[f"{status}/{code}"] = refused.get(f"{status}/{code}", 0) + 1
    return {
        "room": room, "members": members, "connections": connections,
        "joins_ok": sum(1 for good, _, _ in joins if good), "joins_refused": refused,
        "joins_seconds": round(joins_elapsed, 2), "joins_per_s": round(members / joins_elapsed, 1),
        "other": {"asked_per_s": rate,
                  "alone": {"cycles": len(alone), "failed": sum(1 for good, _ in alone if not good), "p99_ms": p99_ms(alone),
                            "achieved_per_s": round(len(alone) / alone_elapsed, 1)},
                  "with_hot_room": {"cycles": len(crowded), "failed": sum(1 for good, _ in crowded if not good), "p99_ms": p99_ms(crowded),
                                    "achieved_per_s": round(len(crowded) / crowded_elapsed, 1)}},
    }


def figure(port, hot_base, seat_base, members=2000, connections=64, rate=50, seconds=10):
    return asyncio.run(_figure(port, hot_base, seat_base, members, connections, rate, seconds))
