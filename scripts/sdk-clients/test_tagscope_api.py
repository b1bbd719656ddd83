"""The pytest example of TagscopeClient's DocC article on UI tests: a UI test run asks tagscope listen what the app sent (here the official
Segment SDK stands in for the app), waiting for records instead of sleeping."""
import os

import requests
from segment.analytics import Client

TAGSCOPE = os.environ.get("TAGSCOPE_URL", "http://127.0.0.1:7531")
API = TAGSCOPE + "/tagscope/v1"


def setup_function():
    requests.post(f"{API}/reset", timeout=10).raise_for_status()  # each test counts from nothing


def test_order_completed_is_tracked_once():
    app = Client("write-key", host=TAGSCOPE, max_retries=0)  # the app under test, pointed at listen
    app.track("user-42", "Order Completed", {"order_id": "o-1", "total": 42.5})
    app.flush()

    reply = requests.get(
        f"{API}/wait", params={"filter": 'name:"Order Completed"', "count": 1, "timeout": 5}, timeout=15
    )
    assert reply.status_code == 200, reply.text  # 408 when it did not arrive in time
    (order,) = reply.json()["records"]
    assert order["properties"]["total"] == 42.5
    assert requests.get(f"{API}/summary", timeout=10).json()["records"] == 1


def test_a_wait_for_what_never_comes_times_out():
    reply = requests.get(f"{API}/wait", params={"filter": "name:Refund", "timeout": 0.5}, timeout=15)
    assert reply.status_code == 408
    assert reply.json()["records"] == []
