"""ops/trace-check's driver (#30, item 1): one client request's trace, as an
OTLP collector receives it.

A `roomkeeper serve` (the debug or release build) runs with
OTEL_EXPORTER_OTLP_ENDPOINT pointing at a receiver here, which decodes each
OTLP/HTTP export with opentelemetry-proto. A client creates an audio-chatroom
room with a `traceparent` header; the tenant's webhook endpoint (also here)
receives `room.created`. Checked: one trace holds the request's server span
(a child of the caller's span), its statements and the outbox delivery of
the webhook; every span's parent is the caller's span or a span of the same
trace; no attribute carries SQL, a sid, a key or a secret; the webhook
arrives with a `traceparent` of the same trace; its first attempt, refused,
is a span of the trace too and its log line names the trace. Exits non-zero
on a failure.
"""
import http.server
import json
import os
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from opentelemetry.proto.collector.trace.v1 import trace_service_pb2

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("BIN", os.path.join(HERE, ".build", "debug"))
OTLP_PORT, HOOK_PORT, PORT = 31441, 31442, 31443
TENANT = "traced"
spans, hooks, problems = [], [], []
lock = threading.Lock()


class OTLP(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        if self.path != "/v1/traces":
            problems.append(f"OTLP export to {self.path}, not /v1/traces")
        request = trace_service_pb2.ExportTraceServiceRequest()
        request.ParseFromString(body)
        with lock:
            for resource in request.resource_spans:
                for scope in resource.scope_spans:
                    for span in scope.spans:
                        attributes = {a.key: a.value.WhichOneof("value") and getattr(a.value, a.value.WhichOneof("value")) for a in span.attributes}
                        spans.append({"trace": span.trace_id.hex(), "id": span.span_id.hex(), "parent": span.parent_span_id.hex(),
                                      "name": span.name, "kind": span.kind, "attributes": attributes})
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.end_headers()
        self.wfile.write(trace_service_pb2.ExportTraceServiceResponse().SerializeToString())

    def log_message(self, *args):
        pass


class Hook(http.server.BaseHTTPRequestHandler):
    refused = 0

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        # The first attempt is refused: its failure is logged inside the
        # delivery's span, so the log line carries the request's trace id.
        with lock:
            if Hook.refused == 0:
                Hook.refused += 1
                self.send_response(503)
                self.end_headers()
                return
            hooks.append({"traceparent": self.headers.get_all("traceparent") or [], "body": json.loads(body)})
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def serve(handler, port):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def post(path, body, headers=None, source="127.0.0.1"):
    """From `source`: 127.0.0.1 is the trusted proxy here, 127.0.0.2 a stranger."""
    import http.client
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10, source_address=(source, 0))
    try:
        connection.request("POST", path, body=body.encode(),
                           headers={"Content-Type": "application/x-www-form-urlencoded;charset=utf-8", **(headers or {})})
        return json.loads(connection.getresponse().read())
    finally:
        connection.close()


def wait(what, condition, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline:
        with lock:
            if condition():
                return True
        time.sleep(0.1)
    problems.append(f"timed out waiting for {what}")
    return False


def main():
    serve(OTLP, OTLP_PORT)
    serve(Hook, HOOK_PORT)
    tenants = tempfile.mkdtemp(prefix="trace-check-")
    with open(os.path.join(tenants, f"{TENANT}.toml"), "w") as handle:
        handle.write(f"""name = "Trace check"
adminKeys = []

[providers.im]
kind = "local"

[plugins.audio-chatroom]

[webhooks.backend]
url = "http://127.0.0.1:{HOOK_PORT}/hook"
secretEnv = "TRACE_CHECK_WEBHOOK_SECRETS"
events = ["room.created"]
""")
    secret = "whsec_" + __import__("base64").b64encode(secrets.token_bytes(24)).decode()
    operator_key = "trace-check-" + secrets.token_hex(12)
    env = dict(os.environ, PORT=str(PORT), HOST="127.0.0.1", ROOMKEEPER_OUTBOX_POLL="100ms", ROOMKEEPER_TENANTS=tenants, ROOMKEEPER_OPERATOR_KEY=operator_key,
               ROOMKEEPER_WEBHOOK_ALLOW="127.0.0.1", TRACE_CHECK_WEBHOOK_SECRETS=secret,
               # #41: a caller's traceparent is adopted only from a trusted proxy (this check's own client).
               ROOMKEEPER_TRUSTED_PROXIES="127.0.0.1",
               OTEL_EXPORTER_OTLP_ENDPOINT=f"http://127.0.0.1:{OTLP_PORT}", OTEL_BSP_SCHEDULE_DELAY="100")
    log = open(os.path.join(tenants, "server.log"), "w")
    server = subprocess.Popen([os.path.join(BIN, "roomkeeper"), "serve"], env=env, cwd=HERE, stdout=log, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{PORT}/readyz", timeout=1)
                break
            except Exception:
                time.sleep(0.1)
        else:
            raise RuntimeError(f"the server did not get ready; its log: {tenants}/server.log")
        trace_id, caller_span = secrets.token_hex(16), secrets.token_hex(8)
        sid = post(f"/t/{TENANT}/audio-chatroom/user/get", "")["data"]["sid"]
        created = post(f"/t/{TENANT}/audio-chatroom/room/create", f"sid={sid}&roomName=traced",
                       {"traceparent": f"00-{trace_id}-{caller_span}-01"})
        if created.get("code") != 200:
            problems.append(f"the room was not created: {created}")
        # #41: a stranger's traceparent (not from a trusted proxy) starts no span of its trace.
        forged_trace = secrets.token_hex(16)
        stranger = post(f"/t/{TENANT}/audio-chatroom/user/get", "", {"traceparent": f"00-{forged_trace}-{secrets.token_hex(8)}-01"},
                        source="127.0.0.2")
        if stranger.get("code") != 200:
            problems.append(f"the stranger's request failed: {stranger}")
        wait("the webhook", lambda: any(h["body"]["type"] == "room.created" for h in hooks))
        wait("the outbox delivery's span", lambda: any(s["trace"] == trace_id and s["name"].startswith("outbox.deliver") for s in spans))
        time.sleep(0.5)
        with lock:
            trace = [s for s in spans if s["trace"] == trace_id]
            ids = {s["id"] for s in trace}
            servers = [s for s in trace if s["kind"] == 2]
            statements = [s for s in trace if s["name"].startswith("db ")]
            deliveries = [s for s in trace if s["name"].startswith("outbox.deliver")]
            print(f"trace check: {len(trace)} spans in the trace: " + ", ".join(sorted({s['name'] for s in trace})))
            if os.environ.get("TRACE_CHECK_VERBOSE"):
                for span in trace:
                    print(f"  {span['name']} kind={span['kind']} parent={span['parent']} {span['attributes']}")
            if len(servers) != 1 or servers[0]["parent"] != caller_span:
                problems.append(f"one server span, the caller's child, expected: {servers}")
            elif servers[0]["attributes"].get("roomkeeper.tenant") != TENANT or servers[0]["attributes"].get("http.response.status_code") != 200:
                problems.append(f"the server span's attributes: {servers[0]['attributes']}")
            if not statements:
                problems.append("no statement spans in the trace")
            if not deliveries:
                problems.append("no outbox delivery span in the trace")
            orphans = [s["name"] for s in trace if s["parent"] != caller_span and s["parent"] not in ids]
            if orphans:
                problems.append(f"spans whose parent is not in the trace: {orphans}")
            for span in spans:
                for key, value in span["attributes"].items():
                    text = str(value)
                    if any(word in text.upper() for word in ("SELECT ", "INSERT ", "UPDATE ", "DELETE ")) or sid in text \
                            or secret in text or operator_key in text:
                        problems.append(f"span {span['name']} attribute {key} carries SQL or a secret: {text[:80]}")
            failures = [s for s in deliveries if s["attributes"].get("roomkeeper.outbox.outcome") == "retry"]
            if not failures:
                problems.append("the refused first attempt is not a span of the trace")
            with open(os.path.join(tenants, "server.log")) as handle:
                logged = [line for line in handle if "outbox delivery failed" in line]
            if not any(f"trace_id={trace_id}" in line for line in logged):
                problems.append(f"the refused attempt's log line does not name the trace: {logged[-3:]}")
            adopted = [s["name"] for s in spans if s["trace"] == forged_trace]
            if adopted:
                problems.append(f"a stranger's traceparent was adopted: {adopted}")
            hook = next((h for h in hooks if h["body"]["type"] == "room.created"), None)
            if hook and (len(hook["traceparent"]) != 1 or hook["traceparent"][0].split("-")[1:2] != [trace_id]):
                problems.append(f"the webhook's one traceparent is not of the request's trace: {hook['traceparent']}")
    finally:
        server.terminate()
        server.wait(timeout=30)
    if problems:
        for problem in problems:
            print(f"trace check: FAILED: {problem}", file=sys.stderr)
        print(f"trace check: server log in {tenants}/server.log", file=sys.stderr)
        return 1
    print("trace check: one trace holds the request, its statements and its webhook's delivery; the webhook carried it on")
    return 0


if __name__ == "__main__":
    sys.exit(main())
