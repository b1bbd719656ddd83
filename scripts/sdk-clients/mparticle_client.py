"""mParticle's official Python SDK (mparticle-python-sdk) against tagscope listen: one batch to
/v2/events (a screen view, a conforming custom event, a purchase), then /v2/bulkevents with two
batches from a second device (a custom event whose "item" is outside the plan's enum, and one
missing "milk"). The events are those of mParticle's smartype example plan (freddy_s_plan)."""
import sys

import mparticle
from mparticle.rest import ApiException

host, port = sys.argv[1], sys.argv[2]

configuration = mparticle.Configuration()
configuration.api_key = "mp-server-key"
configuration.api_secret = "mp-server-secret"
configuration.host = f"http://{host}:{port}/v2"
api = mparticle.EventsApi(configuration)


def batch(device_id, customer_id, events):
    made = mparticle.Batch()
    made.environment = "development"
    identities = mparticle.UserIdentities()
    identities.customerid = customer_id
    made.user_identities = identities
    device = mparticle.DeviceInformation()
    device.platform = "iOS"
    device.device_model = "iPhone15,2"
    device.ios_idfv = device_id
    made.device_info = device
    app = mparticle.ApplicationInformation()
    app.application_name = "Freddy's"
    made.application_info = app
    made.mp_deviceid = device_id
    made.events = events
    return made


def choose_item(attributes):
    event = mparticle.AppEvent("Choose Item", "other")
    event.custom_attributes = attributes
    return event


home = mparticle.ScreenViewEvent()
home.screen_name = "Home"
product = mparticle.Product()
product.name = "Cortado"
product.id = "cortado-1"
product.price = 3.5
purchase = mparticle.ProductAction("purchase")
purchase.products = [product]
purchase.total_amount = 3.5

try:
    api.upload_events(batch("0b8e1c2a-5d7f-4e36-9a41-6c2f3d8e0001", "cust-42", [
        home,
        choose_item({"quantity": 2, "milk": True, "item": "cortado"}),
        mparticle.CommerceEvent(purchase),
    ]))
    api.bulk_upload_events([
        batch("0b8e1c2a-5d7f-4e36-9a41-6c2f3d8e0002", "cust-43", [choose_item({"quantity": 1, "milk": False, "item": "latte"})]),
        batch("0b8e1c2a-5d7f-4e36-9a41-6c2f3d8e0002", "cust-43", [choose_item({"quantity": 1, "item": "espresso"})]),
    ])
except ApiException as error:
    print("mparticle failure:", error.status, error.body, file=sys.stderr)
    sys.exit(1)
