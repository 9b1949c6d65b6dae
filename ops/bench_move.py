"""ops/bench's figure 8 (#43): a tenant of 100,000 rooms moved to a second
cell while it and another tenant are served. Both tenants run the
create -> dissolve flow at a fixed rate (open-loop); the other tenant's
flows are timed alone first, then during the move (ratio in one run). The
moving tenant's creates answered 200 are its acknowledged writes: every one
must be in the new cell afterwards. The mover's own timings (copy,
catch-up, fence, clean-up) are read from `roomkeeper tenants move`.
"""
import asyncio
import re
import time

from bench_http import ok, open_loop, summary


def _flow(base, created=None):
    async def flow(connection, sid):
        status, answer = await connection.post(f"{base}/room/create", f"sid={sid}&roomName=moving")
        if not ok(status, answer):
            return False
        room = answer["data"]["roomId"]
        if created is not None:
            created.append(room)
        status, dissolved = await connection.post(f"{base}/room/dissolve", f"sid={sid}&roomId={room}")
        return ok(status, dissolved)
    return flow


TIMINGS = re.compile(r"moved from \S+ to \S+: (\d+) rows; copy ([\d.]+) seconds, catch-up ([\d.]+) seconds, "
                     r"fence ([\d.]+) seconds, clean-up ([\d.]+) seconds")


async def _figure(port, move, moving_base, other_base, moving_sids, other_sids, rate, seconds):
    deadline = time.monotonic() + seconds
    alone = summary(*await open_loop(port, rate, lambda: time.monotonic() >= deadline, other_sids, _flow(other_base)), seconds, rate)
    created = []
    mover = asyncio.get_running_loop().run_in_executor(None, move)
    moving = asyncio.create_task(open_loop(port, rate, mover.done, moving_sids, _flow(moving_base, created)))
    other_results, other_elapsed = await open_loop(port, rate, mover.done, other_sids, _flow(other_base))
    output = await mover
    moving_results, moving_elapsed = await moving
    found = TIMINGS.search(output)
    if not found:
        raise RuntimeError(f"roomkeeper tenants move did not report its timings: {output[-500:]}")
    rows, copy, catch_up, fence, clean_up = found.groups()
    return {
        "rows_moved": int(rows), "copy_s": float(copy), "catch_up_s": float(catch_up), "fence_s": float(fence), "clean_up_s": float(clean_up),
        "move_s": round(other_elapsed, 2), "acknowledged": created,
        "moving": summary(moving_results, moving_elapsed, moving_elapsed, rate),
        "other": {"asked_per_s": rate, "alone": alone, "during_move": summary(other_results, other_elapsed, other_elapsed, rate)},
    }


def figure(port, move, moving_base, other_base, moving_sids, other_sids, rate=20, seconds=10):
    """`move()` runs the move and returns its output (in a thread)."""
    return asyncio.run(_figure(port, move, moving_base, other_base, moving_sids, other_sids, rate, seconds))
