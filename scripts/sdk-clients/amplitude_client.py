"""Amplitude's official Python SDK against tagscope listen: HTTP V2 API, then the Batch API."""
import sys

from amplitude import Amplitude, BaseEvent, Config, EventOptions, Identify

host, port = sys.argv[1], sys.argv[2]
failures = []


def callback(event, code, message=None):
    if code != 200:
        failures.append((event.event_type, code, message))


def run(path, use_batch, prefix):
    config = Config(
        server_url=f"http://{host}:{port}{path}",
        use_batch=use_batch,
        flush_max_retries=1,
        flush_interval_millis=200,
        callback=callback,
    )
    client = Amplitude("amp-api-key", config)
    identify = Identify().set("plan", "pro")
    client.identify(identify, EventOptions(user_id="user-42"))
    client.track(BaseEvent(event_type=prefix + "Play Podcast", user_id="user-42",
                           event_properties={"podcast_title": "Swift by Sundell", "podcast_duration": 1830}))
    client.track(BaseEvent(event_type=prefix + "Pause Podcast", device_id="device-123",
                           event_properties={"position": 12.5}))
    client.flush()
    client.shutdown()


run("/2/httpapi", False, "")
run("/batch", True, "Batch ")
if failures:
    print("amplitude failures:", failures, file=sys.stderr)
    sys.exit(1)
