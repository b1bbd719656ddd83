"""Snowplow's official Python tracker against tagscope listen and an imported Iglu Central excerpt.

Events of schemas Iglu Central holds (io.snowplow.ecomm/add_to_cart 1-0-0, the mobile screen_view,
the web_page context), and the tracker's own page view, page ping and structured event. Exactly
one is broken: the third, an add_to_cart whose quantity is 0 (minimum 1) and whose item_type is
not in its enum.
"""
import sys

from snowplow_tracker import Emitter, SelfDescribingJson, Subject, Tracker

host, port = sys.argv[1], int(sys.argv[2])
failures = []

ADD_TO_CART = "iglu:io.snowplow.ecomm/add_to_cart/jsonschema/1-0-0"
WEB_PAGE = SelfDescribingJson(
    "iglu:com.snowplowanalytics.snowplow/web_page/jsonschema/1-0-0",
    {"id": "8a2e4a52-1bb4-4c35-9f5e-2c1d0f6f3b7a"})


def on_failure(sent, unsent):
    failures.append(unsent)


emitter = Emitter(host, protocol="http", port=port, method="post", batch_size=1, on_failure=on_failure)
tracker = Tracker("tagscope", emitter, subject=Subject().set_user_id("user-42"), app_id="shop",
                  encode_base64=True)
tracker.track_page_view("https://shop.example/cart", "Cart", context=[WEB_PAGE])
tracker.track_self_describing_event(SelfDescribingJson(ADD_TO_CART, {
    "item_id": "sku-1", "item_type": "product", "quantity": 2, "cart_id": "cart-9", "source": None,
}), context=[WEB_PAGE])
tracker.track_self_describing_event(SelfDescribingJson(ADD_TO_CART, {
    "item_id": "sku-2", "item_type": "service", "quantity": 0, "cart_id": "cart-9",
}))
tracker.track_screen_view(name="Cart", id_="5d79770b-015b-4af8-8c91-b2ed6faf4b1e")
tracker.track_struct_event(category="cart", action="open")
tracker.track_page_ping("https://shop.example/cart", "Cart")
tracker.flush()

if failures:
    print("snowplow failures:", failures, file=sys.stderr)
    sys.exit(1)
