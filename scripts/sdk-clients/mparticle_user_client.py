"""mParticle's official Python SDK (mparticle-python-sdk) against tagscope listen: batches whose own
user attributes and identities (Batch.user_attributes, Batch.user_identities) a data plan judges,
once per batch. One batch to /v2/events of three conforming events with conforming attributes and
identities; then /v2/bulkevents with two batches: the first (two events) with an attribute of the
wrong type ("$Age": "thirty"), one not planned ("nickname") and a customer id outside its pattern
("cust 43"); the second (one event) with an email that is not one; last, to /v2/events, a batch
without events (mParticle applies its attributes all the same) whose "$Age" is again text. The events and attributes are
those of mParticle's smartype example plan (freddy_s_plan), the identities those of Beasley's."""
import sys

import mparticle
from mparticle.rest import ApiException

host, port = sys.argv[1], sys.argv[2]

configuration = mparticle.Configuration()
configuration.api_key = "mp-server-key"
configuration.api_secret = "mp-server-secret"
configuration.host = f"http://{host}:{port}/v2"
api = mparticle.EventsApi(configuration)


def batch(device_id, attributes, customer_id, email, events):
    made = mparticle.Batch()
    made.environment = "development"
    identities = mparticle.UserIdentities()
    identities.customerid = customer_id
    identities.email = email
    made.user_identities = identities
    made.user_attributes = attributes
    made.mp_deviceid = device_id
    made.events = events
    return made


def choose_item():
    event = mparticle.AppEvent("Choose Item", "other")
    event.custom_attributes = {"quantity": 2, "milk": True, "item": "cortado"}
    return event


home = mparticle.ScreenViewEvent()
home.screen_name = "Home"

try:
    api.upload_events(batch(
        "0b8e1c2a-5d7f-4e36-9a41-6c2f3d8e0011",
        {"$FirstName": "Ann", "$Age": 34, "favorite_store": "s12345-1"}, "cust_42", "ann@example.com",
        [home, choose_item(), choose_item()]))
    api.bulk_upload_events([
        batch(
            "0b8e1c2a-5d7f-4e36-9a41-6c2f3d8e0012",
            {"$FirstName": "Bob", "$Age": "thirty", "nickname": "Bobby"}, "cust 43", "bob@example.com",
            [choose_item(), choose_item()]),
        batch(
            "0b8e1c2a-5d7f-4e36-9a41-6c2f3d8e0013", {"$Zip": 75011}, "cust_44", "not an email",
            [choose_item()]),
    ])
    api.upload_events(batch(
        "0b8e1c2a-5d7f-4e36-9a41-6c2f3d8e0014", {"$FirstName": "Dee", "$Age": "forty"}, "cust_45",
        "dee@example.com", []))
except ApiException as error:
    print("mparticle failure:", error.status, error.body, file=sys.stderr)
    sys.exit(1)
