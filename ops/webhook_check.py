"""#18's webhook check, on the running cluster (ops/cluster), verified by
the Standard Webhooks reference library for Python (`standardwebhooks`).

A SealMic room of the "hooks" tenant is created, joined, left and destroyed
through nginx while its back end (a receiver on 127.0.0.1:31420) is down.
After a while the receiver starts. Every delivery must verify under each of
the two secrets (a rotation under way), and the room's events must arrive in
order (created, the guest joined, the guest left, closed), each id accepted
once. Exit status 0 when all holds; what failed is printed otherwise.
    ops/python ops/webhook_check.py [DOWN_SECONDS]
"""
import http.server
import json
import sys
import threading
import time
import urllib.request

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

import sealmic_client

URL = "http://127.0.0.1:8080"
BASE = URL + "/t/hooks/sealmic"
PORT = 31420
SECRETS = open(".cluster/webhook-secrets").read().split()
OPERATOR_KEY = open(".cluster/operator-key").read().strip()


def call(path, form, token=None):
    return sealmic_client.call(BASE, path, form, token)


def admin(path):
    request = urllib.request.Request(URL + "/admin/v1/tenants/hooks" + path, headers={"Authorization": "Bearer " + OPERATOR_KEY})
    with urllib.request.urlopen(request, timeout=15) as response:
        return json.loads(response.read())


class Receiver(http.server.BaseHTTPRequestHandler):
    verifiers = [Webhook(secret) for secret in SECRETS]
    lock = threading.Lock()
    accepted = []      # (webhook-id, payload) in arrival order
    problems = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        headers = {name.lower(): value for name, value in self.headers.items()}
        try:
            payloads = [verifier.verify(body, headers) for verifier in self.verifiers]
        except WebhookVerificationError as error:
            with self.lock:
                self.problems.append(f"{headers.get('webhook-id')}: {error}")
            self.send_response(400)
            self.end_headers()
            return
        with self.lock:
            self.accepted.append((headers["webhook-id"], payloads[0]))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def main():
    down = float(sys.argv[1]) if len(sys.argv) > 1 else 6
    owner = call("/user/login", {"deviceId": "webhook-owner"})
    guest = call("/user/login", {"deviceId": "webhook-guest"})
    room = call("/room/create", {"subject": "webhook check"}, owner["authorization"])["roomId"]
    call("/room/join", {"roomId": room}, guest["authorization"])
    call("/room/leave", {"roomId": room}, guest["authorization"])
    call("/room/destroy", {"roomId": room}, owner["authorization"])
    print(f"webhook check: room {room} created, joined, left and destroyed; the receiver is down for {down:.0f} s")
    time.sleep(down)
    entries = [e for e in admin("/outbox?kind=webhook&limit=200")["items"] if str(e.get("roomId")) == str(room)]
    tried = sum(e["attempts"] for e in entries)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", PORT), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    started = time.time()
    ours = []
    while time.time() - started < 90:
        with Receiver.lock:
            ours = [(i, p) for i, p in Receiver.accepted if str(p.get("data", {}).get("roomId")) == str(room)]
        if any(p["type"] == "room.closed" for _, p in ours):
            break
        time.sleep(0.2)
    waited = time.time() - started
    server.shutdown()
    types = [p["type"] for _, p in ours]
    failures = list(Receiver.problems)
    if not ours or types[0] != "room.created" or types[-1] != "room.closed":
        failures.append(f"the room's events were {types}: created first and closed last expected")
    guest_events = [p["type"] for _, p in ours if p["data"].get("account") == guest["userId"]]
    if guest_events != ["member.joined", "member.left"]:
        failures.append(f"the guest's events were {guest_events}")
    ids = [i for i, _ in ours]
    if len(set(ids)) != len(ids):
        failures.append(f"an id was accepted twice: {ids}")
    # Per-room order: the room's first event is tried (and retried) while the
    # others wait their turn behind it.
    if tried < 2 or not entries:
        failures.append(f"while the receiver was down, the room's {len(entries)} entries had {tried} attempts: retries expected")
    print(f"webhook check: {len(ours)} events ({', '.join(types)}) verified under both secrets, each id once; "
          f"{tried} attempts refused while down; all arrived {waited:.1f} s after the receiver started")
    for failure in failures:
        print("webhook check FAILED: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
