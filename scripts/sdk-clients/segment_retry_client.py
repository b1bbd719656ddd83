"""Segment's official Python SDK retrying after `503` + `Retry-After` (DurableReplyTests).

Three tracks in one batch; the SDK re-queues the batch on a 503 with Retry-After and sends it
again (same messageIds, a new sentAt and X-Retry-Count) until it is answered 200.
"""
import sys

from segment.analytics import Client

host, port = sys.argv[1], sys.argv[2]
errors = []
client = Client(
    "seg-write-key",
    host=f"http://{host}:{port}",
    upload_size=10,
    on_error=lambda error, batch: errors.append(error),
)
for index in range(3):
    client.track("user-42", f"Retried {index}", {"index": index})
client.flush()
client.join()
if errors:
    print("segment errors:", errors, file=sys.stderr)
    sys.exit(1)
