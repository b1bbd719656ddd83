"""An official Python SDK retrying after `503` (DurableReplyTests): HOST PORT segment|posthog.

Three events, flushed; each SDK sends them again after a 503 as it does by itself:
- Segment re-queues the batch on 503 + Retry-After and sends it again (same messageIds, a new
  sentAt and X-Retry-Count) until it is answered 200;
- PostHog retries the batch post with backoff (same uuids, a new sent_at per attempt).
Mixpanel's Consumer mounts its urllib3 retry on https:// only, so against plain http it does not
retry (the 503 reaches the app as an error): not driven here.
"""
import sys

host, port, sdk = sys.argv[1], sys.argv[2], sys.argv[3]
base = f"http://{host}:{port}"
errors = []
if sdk == "segment":
    from segment.analytics import Client

    client = Client("seg-write-key", host=base, upload_size=10,
                    on_error=lambda error, batch: errors.append(error))
    for index in range(3):
        client.track("user-42", f"Retried {index}", {"index": index})
    client.flush()
    client.join()
elif sdk == "posthog":
    from posthog import Posthog

    client = Posthog("phc-project-key", host=base, max_retries=20, flush_at=10,
                     on_error=lambda error, batch: errors.append(error))
    for index in range(3):
        client.capture(f"Retried {index}", distinct_id="user-42", properties={"index": index})
    client.flush()
    client.shutdown()
else:
    sys.exit(f"unknown SDK {sdk}")
if errors:
    print(f"{sdk} errors:", errors, file=sys.stderr)
    sys.exit(1)
