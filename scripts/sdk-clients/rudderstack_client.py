"""RudderStack's official Python SDK (Segment's API, gzip on) against tagscope listen."""
import sys

from rudderstack.analytics.client import Client

host, port = sys.argv[1], sys.argv[2]
errors = []
client = Client(
    "rudder-write-key",
    host=f"http://{host}:{port}",
    max_retries=0,
    on_error=lambda error, batch: errors.append(error),
)
client.identify("user-7", {"plan": "free"})
client.track("user-7", "Add Favorite", {"podcast_title": "Under the Radar"})
client.screen("user-7", name="Player", properties={"podcast_title": "Under the Radar"})
client.track("user-7", "Share Podcast", {"channel": "messages"})
client.flush()
client.join()
if errors:
    print("rudderstack errors:", errors, file=sys.stderr)
    sys.exit(1)
