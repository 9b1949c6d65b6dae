"""ops/chaos's rows for cells (#43), on a cluster started with
`ops/cluster start --cells 2`: a tenant moved under load, a move
interrupted (the mover killed mid-copy; the target's primary failed over
as it streams), and a cell's primary frozen. Each moving tenant is made
for the row (a tenant file added and reloaded), so the rows can run again
on the same cluster: a tenant moves only forward (cell1 to cell2).
"""
import json
import os
import secrets
import signal
import subprocess
import threading
import time
import urllib.request

import chaos as c

CELL2_DB = os.environ.get("CELL2_DATABASE_URL", "")


def cells_ready():
    return bool(CELL2_DB)


def new_tenant(prefix):
    """A tenant of the chaos tenant's settings, loaded by every instance."""
    tenant = f"{prefix}-{secrets.token_hex(3)}"
    with open(os.path.join(c.HERE, "ops", "chaos-tenant.toml")) as source:
        text = source.read()
    with open(os.path.join(c.CLUSTER, "tenants", f"{tenant}.toml"), "w") as target:
        target.write(text)
    request = urllib.request.Request(c.URL + "/admin/v1/tenants/reload", data=b"{}", method="POST",
                                     headers={"Authorization": f"Bearer {os.environ['ROOMKEEPER_OPERATOR_KEY']}",
                                              "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=15):
        pass
    deadline = time.time() + 20
    while time.time() < deadline:  # every instance has it (the reload is announced to the others)
        if all(c.post("/user/get", base=f"/t/{tenant}/audio-chatroom", url=url)[0] for url in c.instance_urls()):
            return tenant
        time.sleep(0.2)
    raise RuntimeError(f"tenant {tenant} was not loaded by every instance")


def mover_env():
    """What an instance runs with, plus the mover's role (ops/cluster)."""
    lines = subprocess.run([os.path.join(c.HERE, "ops", "cluster"), "env", "1"], capture_output=True, text=True, check=True).stdout
    env = dict(os.environ)
    env.update(line.split("=", 1) for line in lines.splitlines() if "=" in line)
    env["PGPASSFILE"] = os.path.join(c.CLUSTER, "pgpass")
    env["ROOMKEEPER_MOVE_USER"] = "roomkeeper_mover"
    return env


def binary():
    build = os.environ.get("ROOMKEEPER_BUILD", "release")
    path = subprocess.run(["swift", "build", "-c", build, "--show-bin-path"], cwd=c.HERE, capture_output=True, text=True, check=True).stdout.strip()
    return os.path.join(path, "roomkeeper")


def move(tenant, env, check=True):
    done = subprocess.run([binary(), "tenants", "move", tenant, "--to", "cell2"], cwd=c.HERE, env=env, capture_output=True, text=True, timeout=600)
    if check and done.returncode != 0:
        raise RuntimeError(f"the move of {tenant} failed: {done.stdout[-600:]} {done.stderr[-600:]}")
    return done


def fence_seconds(output):
    for line in output.splitlines():
        if "fence " in line and "clean-up" in line:
            return float(line.split("fence ")[1].split(" seconds")[0])
    return None


def placed_in(tenant):
    return c.sql_retrying(f"SELECT cell FROM tenant_cells WHERE tenant_id = '{tenant}'") or "cell1"


def p99(requests, since, until):
    seconds = sorted(s for started, ok, s in requests if ok and since <= started < until)
    return seconds[min(len(seconds) - 1, int(len(seconds) * 0.99))] if seconds else 0.0


def not_stale(tenant):
    """After the flip, every instance writes the tenant's rows in the new
    cell and reads them back: a room made through each is in cell2, none of
    the tenant's rooms are left in cell1, and each instance lists it."""
    problems, base = [], f"/t/{tenant}/audio-chatroom"
    for url in c.instance_urls():
        ok, user = c.post("/user/get", base=base, url=url)
        ok2, room = c.post("/room/create", f"sid={user['sid']}&roomName=afterflip", base=base, url=url) if ok else (False, None)
        if not (ok and ok2):
            problems.append(f"could not create a room through {url}: {user if not ok else room}")
            continue
        there = c.sql_retrying(f"SELECT count(*) FROM rooms WHERE tenant_id = '{tenant}' AND room_id = {room['roomId']}", db=CELL2_DB)
        if there != "1":
            problems.append(f"room {room['roomId']} made through {url} is not in cell2")
        for reader in c.instance_urls():
            ok, listed = c.post("/room/list", base=base, url=reader)
            if not ok or str(room["roomId"]) not in str(listed):
                problems.append(f"room {room['roomId']} made through {url} is not listed by {reader}")
    left = c.sql_retrying(f"SELECT count(*) FROM rooms WHERE tenant_id = '{tenant}'")
    if left != "0":
        problems.append(f"{left} rooms of {tenant} left in cell1")
    return problems


def run_ledgers(pairs, workers_each):
    """Ledger workers for each (ledger, base); returns the stop event and threads."""
    stop = threading.Event()
    threads = [threading.Thread(target=c.ledger_worker, args=(ledger, stop, base), daemon=True)
               for ledger, base in pairs for _ in range(workers_each)]
    for thread in threads:
        thread.start()
    return stop, threads


def row(name, requests, failed, lost, goal, met, recovery=0.0):
    result = {"fault": name, "requests": requests, "failed": failed, "recovery_s": round(recovery, 2), "rooms_lost": lost[2],
              "acked_lost": sum(lost), "closed_twice": 0, "outbox_lost": 0, "outbox_twice": 0, "im_committed": 0, "im_lost": 0,
              "im_twice": 0, "ws_dropped": 0, "ws_back": 0, "goal_s": goal, "met": met}
    c.log(f"{name}: {result}")
    return result


BASELINE_S = 12


def moved_under_load(workers):
    """A tenant moved from cell1 to cell2 while it and a tenant staying put
    (chaos) run the ledger load throughout: nothing acknowledged lost, the
    moving tenant's write pause (the fence) ≤ 5 s, no stale read after the
    flip, the staying tenant's p99 during the move ≤ 2× its p99 before."""
    name = "tenant moved under load"
    c.log(f"{name}: starting")
    tenant = new_tenant("moving")
    moving, staying = c.Ledger(), c.Ledger()
    stop, threads = run_ledgers([(moving, f"/t/{tenant}/audio-chatroom"), (staying, c.BASE)], max(1, workers // 2))
    env = mover_env()
    try:
        # As long as a move usually takes (8-13 s in CI): the p99 before is
        # then read over a window as long as the move's, from as many
        # requests (a 5 s window's p99 was its 2nd-slowest request).
        time.sleep(BASELINE_S)
        began = time.time()
        output = move(tenant, env).stdout
        ended = time.time()
        time.sleep(3)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    fence = fence_seconds(output)
    lost_moving = c.ledger_lost(moving, tenant, db=CELL2_DB)
    lost_staying = c.ledger_lost(staying)
    stale = not_stale(tenant)
    for problem in stale:
        c.log(f"  stale: {problem}")
    before = p99(staying.requests, began - min(BASELINE_S, max(5.0, ended - began)), began)
    during = p99(staying.requests, began, ended)
    c.log(f"  {tenant}: fence {fence} s; moving lost {lost_moving}, staying lost {lost_staying}; "
          f"staying p99 {before * 1000:.0f} ms before, {during * 1000:.0f} ms during the move ({ended - began:.1f} s)")
    # Where in the move the staying tenant's slowest requests fell (the
    # move's phases are in its output below), to tell what slows them.
    slowest = sorted((s, started - began) for started, ok, s in staying.requests if ok and began <= started < ended)[-5:]
    c.log("  staying's slowest during the move (ms at +s): " + ", ".join(f"{s * 1000:.0f} at +{at:.1f}" for s, at in reversed(slowest)))
    c.log("  " + " | ".join(line for line in output.splitlines() if line.strip()))
    requests = moving.requests + staying.requests
    failed = sum(1 for _, ok, _ in requests if not ok)
    lost = tuple(a + b for a, b in zip(lost_moving, lost_staying))
    met = (sum(lost) == 0 and fence is not None and fence <= 5 and not stale and len(moving.rooms) > 0
           and during <= max(2 * before, 0.05) and placed_in(tenant) == "cell2")
    return row(name, len(requests), failed, lost, 5, met, recovery=fence or 0.0)


def move_interrupted(workers):
    """The mover killed mid-copy, then run again: the interrupted move is
    rolled back and the tenant moved. Then another tenant's move while the
    target cell's primary fails over: it finishes, or rolls back and is
    run again once the cell is healthy. Nothing acknowledged lost."""
    name = "move interrupted (mover killed, target failover)"
    c.log(f"{name}: starting")
    killed, failed_over = new_tenant("killed"), new_tenant("failover")
    ledgers = [c.Ledger(), c.Ledger()]
    stop, threads = run_ledgers([(ledgers[0], f"/t/{killed}/audio-chatroom"), (ledgers[1], f"/t/{failed_over}/audio-chatroom")],
                                max(1, workers // 3))
    env = mover_env()
    outcomes = []
    try:
        time.sleep(3)
        mover = subprocess.Popen([binary(), "tenants", "move", killed, "--to", "cell2"], cwd=c.HERE, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        # Killed as soon as the move is recorded: its publication, slot or
        # subscription half made, the copy under way.
        deadline = time.time() + 30
        while time.time() < deadline and c.sql_retrying(
                f"SELECT count(*) FROM tenant_moves WHERE tenant_id = '{killed}' AND phase = 'copying'") != "1":
            time.sleep(0.02)
        mover.send_signal(signal.SIGKILL)
        mover.wait()
        phase = c.sql_retrying(f"SELECT coalesce((SELECT phase FROM tenant_moves WHERE tenant_id = '{killed}'), 'none')")
        c.log(f"  mover killed: the move of {killed} left in phase {phase}")
        outcomes.append(move(killed, env).returncode == 0)
        # The target's primary fails over while the next move copies and streams.
        primary_before = c.primary_node("cell2")[0]
        failover = threading.Thread(target=c.perform_failover, args=("cell2",), daemon=True)
        failover.start()
        time.sleep(0.5)
        first = move(failed_over, env, check=False)
        moved_at = time.time()
        c.log(f"  move during cell2's failover: exit {first.returncode}: {first.stdout.strip().splitlines()[-1:] if first.stdout else first.stderr[-300:]}")
        failover.join(timeout=90)
        c.wait_formation_healthy(180, "cell2")
        c.log(f"  cell2's primary: {primary_before} before, {c.primary_node('cell2')[0]} after; "
              f"the failover ended {time.time() - moved_at:.1f} s after the move")
        if placed_in(failed_over) != "cell2":
            outcomes.append(move(failed_over, env, check=False).returncode == 0)
        time.sleep(2)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    lost = (0, 0, 0, 0)
    for ledger, tenant in zip(ledgers, (killed, failed_over)):
        lost = tuple(a + b for a, b in zip(lost, c.ledger_lost(ledger, tenant, db=CELL2_DB)))
    leftovers = int(c.sql_retrying(f"SELECT count(*) FROM rooms WHERE tenant_id IN ('{killed}', '{failed_over}')"))
    requests = ledgers[0].requests + ledgers[1].requests
    failed = sum(1 for _, ok, _ in requests if not ok)
    c.log(f"  lost {lost}; rows left in cell1: {leftovers}; placed: {placed_in(killed)}, {placed_in(failed_over)}")
    met = (all(outcomes) and sum(lost) == 0 and leftovers == 0 and placed_in(killed) == "cell2" and placed_in(failed_over) == "cell2")
    return row(name, len(requests), failed, lost, 0, met)


def sealmic_login_ok(base):
    """A SealMic guest login answered errCode 0 (the hooks tenant's wire)."""
    request = urllib.request.Request(c.URL + base + "/user/login", data=f"deviceId=chaos-{secrets.token_hex(4)}".encode(), method="POST",
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read()).get("errCode") == 0
    except (OSError, ValueError):
        return False


def cell_frozen(workers, hang_s=12):
    """cell2's primary hangs (SIGSTOP of its Postgres and pg_autoctl) for
    `hang_s`: the tenants of cell1 (chaos) keep full service meanwhile:
    every request answered, none slower than 2 s; cell2's tenant (hooks)
    is served again within 30 s of its cell being healthy."""
    name = f"a cell's primary frozen (cell2, {hang_s} s)"
    c.log(f"{name}: starting")
    staying = c.Ledger()
    stop, threads = run_ledgers([(staying, c.BASE)], workers)
    pids = []
    try:
        time.sleep(3)
        node, pids = c.primary_processes("cell2")
        frozen = time.time()
        c.log(f"  {node} (cell2's primary) hangs ({len(pids)} processes)")
        c.freeze(pids, signal.SIGSTOP)
        time.sleep(hang_s)
        c.freeze(pids, signal.SIGCONT)
        thawed = time.time()
        pids = []
        time.sleep(2)
    finally:
        c.freeze(pids, signal.SIGCONT)
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    c.wait_formation_healthy(180, "cell2")
    # And cell2's own tenant (hooks) is served again once its cell is.
    back, deadline = False, time.time() + 30
    while not back and time.time() < deadline:
        back = sealmic_login_ok("/t/hooks/sealmic")
        time.sleep(0 if back else 0.5)
    during = [(ok, s) for started, ok, s in staying.requests if frozen <= started < thawed]
    failed = sum(1 for ok, _ in during if not ok)
    slowest = max((s for _, s in during), default=0.0)
    lost = c.ledger_lost(staying)
    c.log(f"  cell1's tenant during the freeze: {len(during)} requests, {failed} failed, slowest {slowest:.2f} s; lost {lost}")
    c.log(f"  cell2's tenant (hooks) served again: {back}")
    met = len(during) > 0 and failed == 0 and slowest < 2 and sum(lost) == 0 and back
    return row(name, len(during), failed, lost, 2, met, recovery=slowest)
