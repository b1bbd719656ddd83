"""Mixpanel's official Python SDK against tagscope listen: /track, /engage, /import."""
import sys
import time

from mixpanel import Consumer, Mixpanel

host, port = sys.argv[1], sys.argv[2]
base = f"http://{host}:{port}"
consumer = Consumer(
    events_url=base + "/track",
    people_url=base + "/engage",
    import_url=base + "/import",
    groups_url=base + "/groups",
    retry_limit=0,
)
mp = Mixpanel("mp-token", consumer=consumer)
mp.track("user-42", "Play Podcast", {"podcast_title": "Swift by Sundell", "podcast_duration": 1830})
mp.people_set("user-42", {"plan": "pro"})
mp.track("user-42", "Pause Podcast", {"position": 12.5})
mp.import_data("mp-token", "user-42", "Old Listen", int(time.time()) - 3600,
               {"podcast_title": "Archive"}, api_secret="mp-secret")
