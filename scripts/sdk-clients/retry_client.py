"""An official Python SDK retrying after `503` (DurableReplyTests): HOST PORT
segment|posthog|amplitude|snowplow|mixpanel.

Three events, flushed; each SDK sends them again after a 503 as it does by itself:
- Segment re-queues the batch on 503 + Retry-After and sends it again (same messageIds, a new
  sentAt and X-Retry-Count) until it is answered 200;
- PostHog retries the batch post with backoff (same uuids, a new sent_at per attempt);
- Amplitude (amplitude/processor.py) takes a 5xx as FAILED and pushes each event back to its
  storage with a growing delay (amplitude/storage.py `_get_retry_delay`), then sends it again
  to /2/httpapi (same insert_ids, set once by its ContextPlugin), until it is answered 200;
- Snowplow's Emitter (snowplow_tracker/emitters.py `_should_retry`: every code but 400, 401,
  403, 410, 422) puts the failed events back in its buffer and flushes them again after a
  growing delay (same eids, a new `stm` per attempt) to /com.snowplowanalytics.snowplow/tp2;
- Mixpanel's Consumer (mixpanel/__init__.py) mounts its urllib3 retry (every 5xx, POST,
  honouring Retry-After) on https:// only, so it is driven through `tagscope proxy` to
  https://api.mixpanel.com (HTTPS_PROXY and the proxy's CA from the environment); each track is
    one request, sent again with the same `$insert_id` (set once per call, `_make_insert_id`).
Amplitude and Snowplow retry on their own threads: the client waits for each event's success
callback.
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
elif sdk == "amplitude":
    import threading
    from amplitude import Amplitude, BaseEvent, Config

    sent = threading.Semaphore(0)

    def callback(event, code, message):
        if code == 200:
            sent.release()
        else:
            errors.append(f"{event.event_type}: {code} {message}")
            sent.release()

    client = Amplitude("amp-api-key", Config(server_url=f"{base}/2/httpapi", flush_queue_size=10,
                                             flush_max_retries=30, callback=callback))
    for index in range(3):
        client.track(BaseEvent(event_type=f"Retried {index}", user_id="user-42",
                               event_properties={"index": index}))
    client.flush()
    for _ in range(3):
        if not sent.acquire(timeout=120):
            errors.append("an event neither sent nor given up")
            break
    client.shutdown()
elif sdk == "snowplow":
    import threading
    from snowplow_tracker import Emitter, StructuredEvent, Tracker

    sent = []
    done = threading.Event()

    def on_success(events):
        sent.extend(events)
        if len(sent) >= 3:
            done.set()

    emitter = Emitter(f"{host}:{port}", protocol="http", method="post", batch_size=10,
                      on_success=on_success, max_retry_delay_seconds=2)
    tracker = Tracker(namespace="retry", emitters=emitter, app_id="snow-app")
    for index in range(3):
        tracker.track(StructuredEvent(category="retry", action=f"Retried {index}"))
    tracker.flush()
    if not done.wait(timeout=120):
        errors.append(f"sent {len(sent)} of 3")
elif sdk == "mixpanel":
    from mixpanel import Consumer, Mixpanel

    mp = Mixpanel("mp-token", consumer=Consumer(retry_limit=20, retry_backoff_factor=0.1))
    for index in range(3):
        mp.track("user-42", f"Retried {index}", {"index": index})
else:
    sys.exit(f"unknown SDK {sdk}")
if errors:
    print(f"{sdk} errors:", errors, file=sys.stderr)
    sys.exit(1)
