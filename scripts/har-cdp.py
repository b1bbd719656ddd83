#!/usr/bin/env python3
"""Loads a page in headless Chromium and writes the requests it made as a HAR 1.2 file, from the
DevTools protocol's Network events (what devtools' "Save all as HAR" is made of).

Python stdlib only: Chromium's DevTools protocol over --remote-debugging-pipe (fd 3 in, fd 4 out,
NUL-terminated JSON messages), so no WebSocket client is needed.
Usage: scripts/har-cdp.py URL OUT.har [CHROMIUM]
Waits until the page's title is "done" and every request it made has finished (or failed).
"""
import base64, datetime, json, os, subprocess, sys, tempfile, time

url, out = sys.argv[1], sys.argv[2]
chromium = sys.argv[3] if len(sys.argv) > 3 else "/usr/bin/chromium"

to_chrome_r, to_chrome_w = os.pipe()
from_chrome_r, from_chrome_w = os.pipe()
profile = tempfile.mkdtemp(prefix="har-cdp-")


# Chromium reads fd 3 and writes fd 4: the pipe ends go to fds 8 and 9 first, and the shell
# that execs Chromium puts them in place.
os.dup2(to_chrome_r, 8)
os.dup2(from_chrome_w, 9)
os.close(to_chrome_r)
os.close(from_chrome_w)
browser = subprocess.Popen(
    ["/bin/sh", "-c", 'exec "$0" "$@" 3<&8 4>&9 8<&- 9>&-', chromium,
     "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
     "--no-first-run", "--no-default-browser-check", "--user-data-dir=" + profile, "about:blank"],
    pass_fds=(8, 9), stdout=subprocess.DEVNULL, stderr=open(os.environ.get("HAR_CDP_LOG", os.devnull), "w"))
os.close(8)
os.close(9)
reader = os.fdopen(from_chrome_r, "rb", buffering=0)
pending = b""
next_id = 0
events = []


def send(method, params=None, session=None):
    global next_id
    next_id += 1
    message = {"id": next_id, "method": method, "params": params or {}}
    if session:
        message["sessionId"] = session
    os.write(to_chrome_w, json.dumps(message).encode() + b"\0")
    return next_id


def receive():
    global pending
    while b"\0" not in pending:
        chunk = reader.read(1 << 16)
        if not chunk:
            raise SystemExit("chromium closed the DevTools pipe")
        pending += chunk
    message, pending = pending.split(b"\0", 1)
    return json.loads(message)


def call(method, params=None, session=None):
    wanted = send(method, params, session)
    while True:
        message = receive()
        if message.get("id") == wanted:
            if "error" in message:
                raise RuntimeError(f"{method}: {message['error']}")
            return message["result"]
        events.append(message)


target = call("Target.createTarget", {"url": "about:blank"})["targetId"]
session = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
call("Network.enable", {}, session)
call("Page.enable", {}, session)
call("Page.navigate", {"url": url}, session)

requests, order = {}, []


def note(message):
    method, params = message.get("method"), message.get("params", {})
    rid = params.get("requestId")
    if method == "Network.requestWillBeSent":
        if rid not in requests:
            order.append(rid)
        requests[rid] = {"sent": params, "response": None, "done": None}
    elif method == "Network.responseReceived" and rid in requests:
        requests[rid]["response"] = params
    elif method in ("Network.loadingFinished", "Network.loadingFailed") and rid in requests:
        requests[rid]["done"] = params


deadline = time.monotonic() + 60
title = ""
while time.monotonic() < deadline:
    while events:
        note(events.pop(0))
    title = call("Runtime.evaluate", {"expression": "document.title", "returnByValue": True}, session)
    title = title["result"].get("value", "")
    while events:
        note(events.pop(0))
    if title not in ("", "Podcasts") and all(r["done"] for r in requests.values()):
        break
    time.sleep(0.05)
if title != "done":
    raise SystemExit(f"the page did not finish: title {title!r}")

for rid in order:
    request = requests[rid]["sent"]["request"]
    if request.get("hasPostData") and "postData" not in request:
        request["postData"] = call("Network.getRequestPostData", {"requestId": rid}, session)["postData"]
    while events:
        note(events.pop(0))


def header_list(headers):
    return [{"name": name, "value": value} for name, value in headers.items()]


def query_list(address):
    from urllib.parse import urlsplit, parse_qsl
    return [{"name": n, "value": v} for n, v in parse_qsl(urlsplit(address).query, keep_blank_values=True)]


entries = []
for rid in order:
    item = requests[rid]
    sent, response, done = item["sent"], item["response"], item["done"] or {}
    request = sent["request"]
    started = datetime.datetime.fromtimestamp(sent["wallTime"], datetime.timezone.utc)
    answer = (response or {}).get("response", {})
    elapsed = max(0.0, (done.get("timestamp", sent["timestamp"]) - sent["timestamp"]) * 1000)
    entry = {
        "_resourceType": sent.get("type", "Other").lower(),
        "startedDateTime": started.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "time": round(elapsed, 3),
        "request": {
            "method": request["method"], "url": request["url"], "httpVersion": "HTTP/1.1",
            "headers": header_list(request.get("headers", {})), "queryString": query_list(request["url"]),
            "cookies": [], "headersSize": -1,
            "bodySize": len(request.get("postData", "").encode()),
        },
        "response": {
            "status": answer.get("status", 0), "statusText": answer.get("statusText", ""),
            "httpVersion": answer.get("protocol", "http/1.1").upper(),
            "headers": header_list(answer.get("headers", {})), "cookies": [],
            "content": {"size": int(done.get("encodedDataLength", 0)), "mimeType": answer.get("mimeType", "x-unknown")},
            "redirectURL": "", "headersSize": -1, "bodySize": -1,
            "_error": done.get("errorText"),
        },
        "cache": {},
        "timings": {"blocked": -1, "dns": -1, "ssl": -1, "connect": -1, "send": 0, "wait": round(elapsed, 3), "receive": 0},
        "serverIPAddress": "127.0.0.1",
    }
    if "postData" in request:
        mime = request.get("headers", {}).get("Content-Type", "")
        entry["request"]["postData"] = {"mimeType": mime, "text": request["postData"]}
    entries.append(entry)

version = call("Browser.getVersion")
har = {"log": {"version": "1.2", "creator": {"name": "scripts/har-cdp.py", "version": "1"},
               "browser": {"name": "Chromium", "version": version["product"].split("/")[-1]},
               "pages": [], "entries": entries}}
with open(out, "w") as file:
    json.dump(har, file, indent=2)
send("Browser.close")
browser.wait(timeout=30)
print(f"wrote {out}: {len(entries)} entries from {version['product']}")
