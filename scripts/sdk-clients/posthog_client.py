"""PostHog's official Python SDK against tagscope listen: capture, set, screen, batched to /batch/."""
import sys

from posthog import Posthog

host, port = sys.argv[1], sys.argv[2]
errors = []
client = Posthog(
    "phc-project-key",
    host=f"http://{host}:{port}",
    gzip=True,
    max_retries=0,
    on_error=lambda error, batch: errors.append(error),
)
client.capture("Play Podcast", distinct_id="user-42",
               properties={"podcast_title": "Swift by Sundell", "podcast_duration": 1830})
client.set(distinct_id="user-42", properties={"plan": "pro"})
client.capture("$screen", distinct_id="user-42", properties={"$screen_name": "Podcasts"})
client.capture("Pause Podcast", distinct_id="user-42", properties={"position": 12.5})
client.flush()
client.shutdown()
if errors:
    print("posthog errors:", errors, file=sys.stderr)
    sys.exit(1)
