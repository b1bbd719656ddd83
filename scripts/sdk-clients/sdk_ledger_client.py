"""Amplitude's or Mixpanel's official Python SDK as an app's SDK, for the delivery ledger (issue 46).

Usage: sdk_ledger_client.py amplitude|mixpanel HOST PORT [USER]

One JSON line per event on standard input: {"name": ..., "properties": {...}}, tracked for USER
(by default "user-42") as soon as it is read (Amplitude batches what it holds every 100 ms, Mixpanel sends each
event on its own). Prints "took N" once the Nth line is handed to the SDK. At the end of input it
flushes and exits; non-zero if the SDK reported an error.
"""
import json
import sys

sdk, host, port = sys.argv[1], sys.argv[2], sys.argv[3]
user = sys.argv[4] if len(sys.argv) > 4 else "user-42"
failures = []

if sdk == "amplitude":
    from amplitude import Amplitude, BaseEvent, Config

    def callback(event, code, message=None):
        if code != 200:
            failures.append((event.event_type, code, message))

    client = Amplitude("amp-api-key", Config(
        server_url=f"http://{host}:{port}/2/httpapi", flush_max_retries=1, flush_interval_millis=100,
        callback=callback))

    def track(name, properties):
        client.track(BaseEvent(event_type=name, user_id=user, event_properties=properties))

    def finish():
        client.flush()
        client.shutdown()
elif sdk == "mixpanel":
    from mixpanel import Consumer, Mixpanel, MixpanelException

    client = Mixpanel("mp-token", consumer=Consumer(events_url=f"http://{host}:{port}/track", retry_limit=0))

    def track(name, properties):
        try:
            client.track(user, name, properties)
        except MixpanelException as error:
            failures.append((name, str(error)))

    def finish():
        pass
else:
    sys.exit(f"no such SDK {sdk!r}: amplitude or mixpanel")

for count, line in enumerate(sys.stdin, 1):
    event = json.loads(line)
    track(event["name"], event.get("properties", {}))
    print(f"took {count}", flush=True)
finish()
if failures:
    print(f"{sdk} failures:", failures, file=sys.stderr)
    sys.exit(1)
