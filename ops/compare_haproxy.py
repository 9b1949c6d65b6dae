"""ops/compare-haproxy's driver: writes every 20 ms through an instance that
follows the primary itself (8081) and through one behind haproxy (8084),
across two failovers; prints how long each path failed."""
import json
import threading
import time
import urllib.error
import urllib.request

from chaos import log, perform_failover, wait_formation_healthy

PATHS = {"multi-host URL (instance 1)": "http://127.0.0.1:8081", "haproxy with a primary check (instance 4)": "http://127.0.0.1:8084"}


def write(base):
    """A guest account: one INSERT through the instance."""
    request = urllib.request.Request(base + "/t/chaos/audio-chatroom/user/get", data=b"", method="POST",
                                     headers={"Content-Type": "application/x-www-form-urlencoded;charset=utf-8"})
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return json.loads(response.read()).get("code") == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False


def probe(base, outcomes, stop):
    while not stop.is_set():
        started = time.time()
        outcomes.append((started, write(base), time.time() - started))
        time.sleep(0.02)


def main():
    rows = []
    for round_ in (1, 2):
        wait_formation_healthy()
        stop = threading.Event()
        outcomes = {name: [] for name in PATHS}
        threads = [threading.Thread(target=probe, args=(base, outcomes[name], stop), daemon=True) for name, base in PATHS.items()]
        for thread in threads:
            thread.start()
        time.sleep(2)
        started = time.time()
        perform_failover()
        time.sleep(8)
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        for name in PATHS:
            failed = [(at, took) for at, ok, took in outcomes[name] if not ok]
            slowest = max((took for _, _, took in outcomes[name]), default=0)
            window = (max(at + took for at, took in failed) - min(at for at, _ in failed)) if failed else 0.0
            last = (max(at + took for at, took in failed) - started) if failed else 0.0
            rows.append((round_, name, len(outcomes[name]), len(failed), window, last, slowest))
            log(f"failover {round_}, {name}: {len(failed)} of {len(outcomes[name])} writes failed over {window:.1f} s; "
                f"last failure {last:.1f} s after the failover began; slowest write {slowest:.1f} s")
    print("failover | path | writes | failed | failing for | last failure after start | slowest write")
    for round_, name, total, failed, window, last, slowest in rows:
        print(f"{round_} | {name} | {total} | {failed} | {window:.1f} s | {last:.1f} s | {slowest:.1f} s")


if __name__ == "__main__":
    main()
