"""Snowplow's official Python tracker against tagscope listen: POST tp2 (base64), then GET /i."""
import sys

from snowplow_tracker import Emitter, SelfDescribingJson, Subject, Tracker

host, port = sys.argv[1], int(sys.argv[2])
failures = []


def on_failure(sent, unsent):
    failures.append(unsent)


def run(method):
    emitter = Emitter(host, protocol="http", port=port, method=method, batch_size=2, on_failure=on_failure)
    tracker = Tracker("tagscope", emitter, subject=Subject().set_user_id("user-42"), app_id="podcasts",
                      encode_base64=True)
    tracker.track_struct_event(category="player", action="play", label="Swift by Sundell", value=1830)
    tracker.track_self_describing_event(SelfDescribingJson(
        "iglu:com.example/add_favorite/jsonschema/1-0-0", {"podcast_title": "Under the Radar"}))
    tracker.track_screen_view(name="Podcasts", id_="5d79770b-015b-4af8-8c91-b2ed6faf4b1e")
    tracker.track_page_view("https://podcasts.example/favorites", "Favorites")
    tracker.flush()


run("post")
run("get")
if failures:
    print("snowplow failures:", failures, file=sys.stderr)
    sys.exit(1)
