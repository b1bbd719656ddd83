"""Segment's official Python SDK against tagscope listen: identify, screen, track, page, group, alias."""
import sys

from segment.analytics import Client

host, port = sys.argv[1], sys.argv[2]
errors = []
client = Client(
    "seg-write-key",
    host=f"http://{host}:{port}",
    gzip=True,
    max_retries=0,
    on_error=lambda error, batch: errors.append(error),
)
client.identify("user-42", {"plan": "pro", "country": "FR"})
client.screen("user-42", name="Podcasts", properties={"tab": "all"})
client.track("user-42", "Play Podcast", {"podcast_title": "Swift by Sundell", "podcast_duration": 1830})
client.page("user-42", name="Favorites", properties={"count": 3})
client.group("user-42", "group-7", {"name": "Listeners"})
client.alias("user-42", "anon-1")
client.track("user-42", "Pause Podcast", {"position": 12.5, "autoplay": True})
client.flush()
client.join()
if errors:
    print("segment errors:", errors, file=sys.stderr)
    sys.exit(1)
