"""A SealMic app's calls, as ops/webhook_check.py and ops/console_check.py
make them: form POSTs with the `Authorization` token the login returned."""
import json
import urllib.parse
import urllib.request


def call(base, path, form, token=None):
    """`data.result` of a SealMic answer; anything but errCode 0 raises."""
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    if token:
        headers["Authorization"] = token
    request = urllib.request.Request(base + path, data=urllib.parse.urlencode(form).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=15) as response:
        answer = json.loads(response.read())
    if answer.get("errCode") != 0:
        raise RuntimeError(f"{path}: {answer}")
    return (answer.get("data") or {}).get("result")
