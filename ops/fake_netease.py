"""A fake NetEase Yunxin nimserver for ops/chaos: the calls Roomkeeper makes,
checked as the real one checks them (AppKey, CheckSum = SHA1(AppSecret +
Nonce + CurTime) within 5 minutes, form body, exact parameters), with a
switch that makes it answer 503 or hang, and a record of every call it
applied, so a run can count side effects delivered twice.

Only for 127.0.0.1; not a vendor emulator beyond what the chaos load needs.
"""
import hashlib
import itertools
import json
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PARAMETERS = {
    "/user/create.action": ({"accid", "name", "icon"}, {"token"}),
    "/user/refreshToken.action": ({"accid"}, set()),
    "/user/update.action": ({"accid", "token"}, set()),
    "/chatroom/create.action": ({"creator", "name", "announcement", "ext", "queuelevel"}, set()),
    "/chatroom/toggleCloseStat.action": ({"roomid", "operator", "valid"}, set()),
    "/chatroom/muteRoom.action": ({"roomid", "operator", "mute", "needNotify"}, {"notifyExt"}),
    "/chatroom/queueOffer.action": ({"roomid", "key", "value", "operator", "transient"}, set()),
    "/chatroom/queuePoll.action": ({"roomid", "key"}, set()),
    "/chatroom/queueList.action": ({"roomid"}, set()),
    "/chatroom/queueDrop.action": ({"roomid"}, set()),
    "/chatroom/sendMsg.action": ({"roomid", "msgId", "fromAccid", "msgType", "attach", "highPriority"}, set()),
    "/msg/sendAttachMsg.action": ({"from", "msgtype", "to", "attach", "save"}, set()),
    "/chatroom/queryMembers.action": ({"roomid", "accids"}, set()),
    "/chatroom/get.action": ({"roomid", "needOnlineUserCount"}, set()),
}

# Calls that change something a member sees: delivered twice, they show twice.
EFFECTS = {"/chatroom/toggleCloseStat.action", "/chatroom/muteRoom.action", "/chatroom/queueOffer.action",
           "/chatroom/queueDrop.action", "/chatroom/sendMsg.action", "/msg/sendAttachMsg.action"}


class QueuedHTTPServer(ThreadingHTTPServer):
    request_queue_size = 128


class FakeNetEase:
    def __init__(self, port, app_key, app_secret, prefix="/nimserver"):
        self.app_key, self.app_secret, self.prefix = app_key, app_secret, prefix
        self.lock = threading.Lock()
        self.mode = "normal"          # normal | unavailable | hang
        self.applied = []             # (time, path, form) of every call answered 200
        self.refused = 0              # calls answered 503 or left hanging
        self.rejected = []            # calls that failed a check: a bug in the caller
        self.accounts, self.open, self.queues = set(), set(), {}
        # Unique across runs, as NetEase's are: rooms of earlier runs keep their ids.
        self.room_ids = itertools.count(int(time.time() * 100))
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                fake.handle(self)

            def do_GET(self):
                self.send_error(405)

        # A listen backlog of 128, not socketserver's 5: three instances'
        # outbox dispatchers reach it at once when it comes up, and a SYN
        # dropped from a full queue is retried only after 1 s, the chaos-im
        # tenant's whole IM timeout (a probable cause of the vendor row's
        # set-up once answering "the IM service did not answer", #27).
        self.server = QueuedHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{port}{prefix}"

    def start(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def set_mode(self, mode):
        with self.lock:
            self.mode = mode

    def duplicates(self):
        """Effects applied more than once (the same call, the same form)."""
        seen = {}
        with self.lock:
            for _, path, form in self.applied:
                if path in EFFECTS:
                    key = (path, tuple(sorted(form.items())))
                    seen[key] = seen.get(key, 0) + 1
        return sum(n - 1 for n in seen.values() if n > 1)

    def applied_calls(self, path):
        with self.lock:
            return [form for _, p, form in self.applied if p == path]

    # ------------------------------------------------------------ one call

    def handle(self, request):
        length = int(request.headers.get("Content-Length") or 0)
        body = request.rfile.read(length).decode()
        with self.lock:
            mode = self.mode
        if mode == "unavailable":
            with self.lock:
                self.refused += 1
            return self.reply(request, 503, "service unavailable")
        if mode == "hang":
            with self.lock:
                self.refused += 1
            deadline = time.time() + 120
            while time.time() < deadline:
                with self.lock:
                    if self.mode != "hang":
                        break
                time.sleep(0.1)
            request.close_connection = True  # never answered, never applied
            return
        problem = self.check(request, body)
        if problem:
            with self.lock:
                self.rejected.append((request.path, problem))
            return self.reply(request, 200, json.dumps({"code": 414, "desc": problem}))
        path = request.path[len(self.prefix):]
        form = dict(urllib.parse.parse_qsl(body, keep_blank_values=True))
        with self.lock:
            answer = self.answer(path, form)
            if answer.get("code") == 200:
                self.applied.append((time.time(), path, form))
        self.reply(request, 200, json.dumps(answer))

    def check(self, request, body):
        headers = request.headers
        if headers.get("Content-Type") != "application/x-www-form-urlencoded;charset=utf-8":
            return "content type"
        nonce, cur_time = headers.get("Nonce", ""), headers.get("CurTime", "")
        if headers.get("AppKey") != self.app_key or not 1 <= len(nonce) <= 128:
            return "appkey or nonce"
        try:
            if abs(float(cur_time) - time.time()) > 300:
                return "curtime"
        except ValueError:
            return "curtime"
        if headers.get("CheckSum") != hashlib.sha1((self.app_secret + nonce + cur_time).encode()).hexdigest():
            return "checksum"
        if not request.path.startswith(self.prefix):
            return "path"
        path = request.path[len(self.prefix):]
        if path not in PARAMETERS:
            return "no such call"
        pairs = urllib.parse.parse_qsl(body, keep_blank_values=True)
        keys = {k for k, _ in pairs}
        required, optional = PARAMETERS[path]
        if len(keys) != len(pairs) or not required <= keys or not keys <= required | optional:
            return f"parameters {sorted(keys)}"
        return None

    def answer(self, path, form):
        room = form.get("roomid", "")
        if room and room not in self.open and path != "/chatroom/toggleCloseStat.action":
            return {"code": 404, "desc": f"chatroom {room} not found"}
        if path == "/user/create.action":
            accid = form["accid"]
            if accid in self.accounts:
                return {"code": 414, "desc": "already register"}
            self.accounts.add(accid)
            return {"code": 200, "info": {"accid": accid, "token": form.get("token") or f"nim-{accid}"}}
        if path in ("/user/refreshToken.action", "/user/update.action"):
            if form["accid"] not in self.accounts:
                return {"code": 414, "desc": "no such accid"}
            return {"code": 200, "info": {"accid": form["accid"], "token": f"nim-new-{form['accid']}"}}
        if path == "/chatroom/create.action":
            room = str(next(self.room_ids))
            self.open.add(room)
            return {"code": 200, "chatroom": {"roomid": int(room), "valid": True, "name": form["name"], "creator": form["creator"]}}
        if path == "/chatroom/toggleCloseStat.action":
            (self.open.discard if form["valid"] == "false" else self.open.add)(room)
            return {"code": 200, "desc": {"roomid": room, "valid": form["valid"] == "true"}}
        if path == "/chatroom/queueOffer.action":
            self.queues.setdefault(room, {})[form["key"]] = form["value"]
            return {"code": 200}
        if path == "/chatroom/queuePoll.action":
            value = self.queues.get(room, {}).pop(form["key"], None)
            return {"code": 200, "desc": {"key": form["key"], "value": value}}
        if path == "/chatroom/queueList.action":
            return {"code": 200, "desc": {"list": [{k: v} for k, v in sorted(self.queues.get(room, {}).items())]}}
        if path == "/chatroom/queueDrop.action":
            self.queues.pop(room, None)
            return {"code": 200}
        if path == "/chatroom/queryMembers.action":
            return {"code": 200, "desc": {"data": []}}
        if path == "/chatroom/get.action":
            return {"code": 200, "chatroom": {"roomid": room, "onlineusercount": 0}}
        return {"code": 200, "desc": {}}

    @staticmethod
    def reply(request, status, text):
        data = text.encode()
        request.send_response(status)
        request.send_header("Content-Type", "application/json;charset=utf-8")
        request.send_header("Content-Length", str(len(data)))
        request.end_headers()
        request.wfile.write(data)


if __name__ == "__main__":
    # ops/test runs it while schemathesis works, so the chaos-im tenant's vendor is up:
    #   ops/python ops/fake_netease.py PORT SECRET_FILE
    import sys
    with open(sys.argv[2]) as f:
        fake = FakeNetEase(int(sys.argv[1]), "chaos-netease", f.read().strip())
    fake.server.serve_forever()
