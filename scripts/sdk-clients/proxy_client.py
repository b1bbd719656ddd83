"""The official SDKs at their vendors' real hosts, through an HTTPS proxy (tagscope proxy).

Usage: proxy_client.py SDK, with HTTPS_PROXY set to the proxy and REQUESTS_CA_BUNDLE/SSL_CERT_FILE
to the proxy's CA. Nothing names a test host: each SDK sends where it sends in production
(api.segment.io, api2.amplitude.com, api.mixpanel.com, us.i.posthog.com, a RudderStack data plane,
a Snowplow collector). `tunnel URL CA` fetches URL verifying it against CA instead: a host the proxy
must tunnel untouched; `post URL FILE` posts FILE's bytes (gzip JSON) and prints the status, the
X-Vendor header and the answer. Exits non-zero if the SDK reported an error.
"""
import sys


def segment():
    from segment.analytics import Client
    errors = []
    client = Client("seg-write-key", gzip=True, max_retries=0, on_error=lambda e, b: errors.append(e))
    client.identify("user-42", {"plan": "pro"})
    client.track("user-42", "Play Podcast", {"podcast_title": "Swift by Sundell", "podcast_duration": 1830})
    client.flush()
    client.join()
    return errors


def rudderstack():
    from rudderstack.analytics.client import Client
    errors = []
    client = Client("rudder-write-key", host="https://acme.dataplane.rudderstack.com", max_retries=0,
                    on_error=lambda e, b: errors.append(e))
    client.track("user-7", "Add Favorite", {"podcast_title": "Under the Radar"})
    client.screen("user-7", name="Player", properties={"podcast_title": "Under the Radar"})
    client.flush()
    client.join()
    return errors


def amplitude():
    from amplitude import Amplitude, BaseEvent, Config
    failures = []

    def callback(event, code, message=None):
        if code != 200:
            failures.append((event.event_type, code, message))

    client = Amplitude("amp-api-key", Config(flush_max_retries=1, flush_interval_millis=200, callback=callback))
    client.track(BaseEvent(event_type="Play Podcast", user_id="user-42", event_properties={"podcast_duration": 1830}))
    client.track(BaseEvent(event_type="Pause Podcast", user_id="user-42", event_properties={"position": 12.5}))
    client.flush()
    client.shutdown()
    return failures


def mixpanel():
    from mixpanel import Consumer, Mixpanel
    mp = Mixpanel("mp-token", consumer=Consumer(retry_limit=0))
    mp.track("user-42", "Play Podcast", {"podcast_title": "Swift by Sundell"})
    mp.people_set("user-42", {"plan": "pro"})
    return []


def posthog():
    from posthog import Posthog
    errors = []
    client = Posthog("phc-project-key", gzip=True, max_retries=0, on_error=lambda e, b: errors.append(e))
    client.capture("Play Podcast", distinct_id="user-42", properties={"podcast_duration": 1830})
    client.capture("Pause Podcast", distinct_id="user-42", properties={"position": 12.5})
    client.flush()
    client.shutdown()
    return errors


def snowplow():
    from snowplow_tracker import Emitter, SelfDescribingJson, Subject, Tracker
    failures = []
    emitter = Emitter("collector.acme.test", protocol="https", method="post", batch_size=2,
                      on_failure=lambda sent, unsent: failures.append(unsent))
    tracker = Tracker("tagscope", emitter, subject=Subject().set_user_id("user-42"), app_id="podcasts")
    tracker.track_struct_event(category="player", action="play", label="Swift by Sundell", value=1830)
    tracker.track_self_describing_event(SelfDescribingJson(
        "iglu:com.example/add_favorite/jsonschema/1-0-0", {"podcast_title": "Under the Radar"}))
    tracker.flush()
    return failures


def tunnel(url, ca):
    import requests
    answer = requests.get(url, verify=ca, timeout=10)
    print(answer.status_code, answer.text)
    return [] if answer.status_code == 200 else [answer.status_code]


def post(url, path):
    import requests
    with open(path, "rb") as body:
        data = body.read()
    headers = {"Content-Type": "application/json", "Content-Encoding": "gzip"}
    answer = requests.post(url, data=data, headers=headers, timeout=30)
    sys.stdout.write(f"{answer.status_code} {answer.headers.get('X-Vendor', '-')} {answer.text}")
    return [] if answer.status_code == 200 else [answer.status_code]


sdk = sys.argv[1]
if sdk == "tunnel":
    problems = tunnel(sys.argv[2], sys.argv[3])
elif sdk == "post":
    problems = post(sys.argv[2], sys.argv[3])
else:
    problems = globals()[sdk]()
if problems:
    print(sdk, "errors:", problems, file=sys.stderr)
    sys.exit(1)
