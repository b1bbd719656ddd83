"""One simulated device through an official Python SDK against tagscope listen: a screen (or page)
call, then an event, with the device, app and session ids as the mobile SDKs send them.

Usage: device_client.py HOST PORT SDK DEVICE_ID SCREEN, SDK one of segment, rudderstack,
amplitude, posthog, mixpanel, snowplow.
"""
import sys

host, port, sdk, device, screen = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
session = "session-" + device
failures = []


def segment_like(client):
    # The keys analytics-swift's Context plugin sends (context.app, context.device, context.os).
    context = {
        "app": {"name": "Shop", "version": "2.1"},
        "device": {"id": device, "model": "iPhone15,2", "manufacturer": "Apple", "type": "ios"},
        "os": {"name": "iOS", "version": "17.2"},
    }
    client.screen(anonymous_id="anon-" + device, name=screen, properties={}, context=context)
    client.track(anonymous_id="anon-" + device, event="Add To Cart", properties={"sku": "B-1"}, context=context)
    client.flush()
    client.join()


if sdk == "segment":
    from segment.analytics import Client

    segment_like(Client("seg-write-key", host=f"http://{host}:{port}", max_retries=0,
                        on_error=lambda error, batch: failures.append(error)))
elif sdk == "rudderstack":
    from rudderstack.analytics.client import Client

    segment_like(Client("rudder-write-key", host=f"http://{host}:{port}", max_retries=0,
                        on_error=lambda error, batch: failures.append(error)))
elif sdk == "amplitude":
    from amplitude import Amplitude, BaseEvent, Config

    def callback(event, code, message=None):
        if code != 200:
            failures.append((event.event_type, code, message))

    client = Amplitude("amp-api-key", Config(server_url=f"http://{host}:{port}/2/httpapi", flush_max_retries=1,
                                             flush_interval_millis=200, callback=callback))
    common = {"device_id": device, "session_id": 1732528800000, "platform": "iOS", "os_name": "ios",
              "device_model": "iPhone15,2"}
    client.track(BaseEvent(event_type="[Amplitude] Screen Viewed",
                           event_properties={"[Amplitude] Screen Name": screen}, **common))
    client.track(BaseEvent(event_type="Add To Cart", event_properties={"sku": "B-1"}, **common))
    client.flush()
    client.shutdown()
elif sdk == "posthog":
    from posthog import Posthog

    client = Posthog("phc-project-key", host=f"http://{host}:{port}", max_retries=0,
                     on_error=lambda error, batch: failures.append(error))
    # The properties posthog-ios adds to every event (PostHogContext.swift, PostHogSDK.swift).
    common = {"$app_name": "Shop", "$device_model": "iPhone15,2", "$os_name": "iOS", "$session_id": session,
              "$is_identified": False}
    client.capture("$screen", distinct_id=device, properties={"$screen_name": screen, **common})
    client.capture("Add To Cart", distinct_id=device, properties={"sku": "B-1", **common})
    client.flush()
    client.shutdown()
elif sdk == "mixpanel":
    from mixpanel import Consumer, Mixpanel

    client = Mixpanel("mp-token", consumer=Consumer(events_url=f"http://{host}:{port}/track",
                                                    people_url=f"http://{host}:{port}/engage"))
    # The identity properties mixpanel-swift's Track.swift sends for an anonymous device.
    common = {"$device_id": device, "$os": "iOS", "$model": "iPhone15,2"}
    client.track("$device:" + device, "$mp_web_page_view", {"current_page_title": screen, **common})
    client.track("$device:" + device, "Add To Cart", {"sku": "B-1", **common})
elif sdk == "snowplow":
    from snowplow_tracker import Emitter, Subject, Tracker

    emitter = Emitter(host, protocol="http", port=int(port), method="post", batch_size=2,
                      on_failure=lambda sent, unsent: failures.append(unsent))
    subject = Subject().set_domain_user_id(device).set_domain_session_id(session)
    tracker = Tracker("tagscope", emitter, subject=subject, app_id="shop")
    tracker.track_screen_view(name=screen, id_="2c4a7e1b-6d3f-4e8a-9b0c-1d2e3f4a5b6c")
    tracker.track_struct_event(category="cart", action="Add To Cart")
    tracker.flush()
else:
    failures.append("unknown SDK " + sdk)

if failures:
    print(sdk, "failures:", failures, file=sys.stderr)
    sys.exit(1)
