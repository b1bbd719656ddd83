"""Segment's official Python SDK as an app's SDK behind the hub (issue 46, the delivery ledger).

Usage: segment_ledger_client.py HOST PORT UPLOAD_SIZE UPLOAD_INTERVAL

One JSON line per call the hub hands the SDK on standard input: {"method": "track", "name": ...,
"properties": {...}}, "identify" (name: the user id, properties: the traits) or "screen". The queue,
batching, message ids and flushes are the SDK's own; its host is a tagscope listen, or with HOST
"-" its production host (api.segment.io, reached through HTTPS_PROXY: tagscope proxy). Prints
"took N" once the Nth line is in the SDK's queue. At the end of input it flushes and exits.
"""
import json
import sys

from segment.analytics import Client

host, port = sys.argv[1], sys.argv[2]
errors = []
client = Client(
    "seg-write-key",
    host=None if host == "-" else f"http://{host}:{port}",
    max_retries=0,
    upload_size=int(sys.argv[3]),
    upload_interval=float(sys.argv[4]),
    on_error=lambda error, batch: errors.append(error),
)
user = "user-42"
for count, line in enumerate(sys.stdin, 1):
    call = json.loads(line)
    method, name, properties = call["method"], call["name"], call.get("properties", {})
    if method == "track":
        client.track(user, name, properties)
    elif method == "identify":
        client.identify(name, properties)
    elif method == "screen":
        client.screen(user, name=name, properties=properties)
    else:
        print(f"line {count}: no such call {method!r}", file=sys.stderr)
    print(f"took {count}", flush=True)
client.flush()
client.join()
if errors:
    print("segment errors:", errors, file=sys.stderr)
    sys.exit(1)
