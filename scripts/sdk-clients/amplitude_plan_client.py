"""Amplitude's official Python SDK sending the events of Amplitude's Ampli example tracking plan
("Test Codegen", amplitude/ampli-examples) to tagscope listen: EventMaxIntForTest within its
maximum (9) and above it (20, as ampli-examples' iOS app sends it), Event With Enum Types, and an
identify setting the plan's required user property."""
import sys

from amplitude import Amplitude, BaseEvent, Config, EventOptions, Identify

host, port = sys.argv[1], sys.argv[2]
failures = []


def callback(event, code, message=None):
    if code != 200:
        failures.append((event.event_type, code, message))


client = Amplitude("amp-api-key", Config(
    server_url=f"http://{host}:{port}/2/httpapi", flush_max_retries=1, flush_interval_millis=200,
    callback=callback))
client.identify(Identify().set("requiredNumber", 16.6), EventOptions(user_id="user-42"))
client.track(BaseEvent(event_type="EventMaxIntForTest", user_id="user-42", event_properties={"intMax10": 9}))
client.track(BaseEvent(event_type="Event With Enum Types", user_id="user-42",
                       event_properties={"required enum": "required enum 1"}))
client.track(BaseEvent(event_type="EventMaxIntForTest", user_id="user-42", event_properties={"intMax10": 20}))
client.flush()
client.shutdown()
if failures:
    print("amplitude failures:", failures, file=sys.stderr)
    sys.exit(1)
