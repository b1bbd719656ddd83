"""Segment's or RudderStack's official Python SDK sends one conforming and one broken "Command Help"
event of typewriter's telemetry plan (segmentio/typewriter, src/telemetry/plan.json: `rawCommand`,
a required string) to tagscope listen. Usage: plan_check_client.py HOST PORT segment|rudderstack."""
import sys

host, port, sdk = sys.argv[1], sys.argv[2], sys.argv[3]
if sdk == "segment":
    from segment.analytics import Client

    key = "seg-write-key"
else:
    from rudderstack.analytics.client import Client

    key = "rudder-write-key"
errors = []
client = Client(
    key,
    host=f"http://{host}:{port}",
    max_retries=0,
    on_error=lambda error, batch: errors.append(error),
)
client.track("user-42", "Command Help", {"rawCommand": "typewriter help"})
client.track("user-42", "Command Help", {"rawCommand": 42})
client.flush()
client.join()
if errors:
    print(f"{sdk} errors:", errors, file=sys.stderr)
    sys.exit(1)
