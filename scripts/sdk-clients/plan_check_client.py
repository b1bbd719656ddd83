"""An official Python SDK (Segment, RudderStack, Mixpanel or PostHog) sends one conforming and one
broken "Command Help" event of typewriter's telemetry plan (segmentio/typewriter,
src/telemetry/plan.json: `rawCommand`, a required string) to tagscope listen.
Usage: plan_check_client.py HOST PORT segment|rudderstack|mixpanel|posthog."""
import sys

host, port, sdk = sys.argv[1], sys.argv[2], sys.argv[3]
base = f"http://{host}:{port}"
errors = []
if sdk == "mixpanel":
    from mixpanel import Consumer, Mixpanel

    # One request per event, in order; the SDK raises on a failed send.
    client = Mixpanel("mp-token", consumer=Consumer(events_url=base + "/track", retry_limit=0))
    client.track("user-42", "Command Help", {"rawCommand": "typewriter help"})
    client.track("user-42", "Command Help", {"rawCommand": 42})
    sys.exit(0)
if sdk == "posthog":
    from posthog import Posthog

    client = Posthog("phc-project-key", host=base, max_retries=0,
                     on_error=lambda error, batch: errors.append(error))
    client.capture("Command Help", distinct_id="user-42", properties={"rawCommand": "typewriter help"})
    client.capture("Command Help", distinct_id="user-42", properties={"rawCommand": 42})
    client.flush()
    client.shutdown()
else:
    if sdk == "segment":
        from segment.analytics import Client

        key = "seg-write-key"
    else:
        from rudderstack.analytics.client import Client

        key = "rudder-write-key"
    client = Client(key, host=base, max_retries=0, on_error=lambda error, batch: errors.append(error))
    client.track("user-42", "Command Help", {"rawCommand": "typewriter help"})
    client.track("user-42", "Command Help", {"rawCommand": 42})
    client.flush()
    client.join()
if errors:
    print(f"{sdk} errors:", errors, file=sys.stderr)
    sys.exit(1)
