"""Mixpanel's official Python SDK importing a batch of which one event is over Mixpanel's 1 MB:
Mixpanel answers /import with a 400 listing it in failed_records and imports the others, and the
SDK raises MixpanelException. Exits 0 when the SDK saw exactly that."""
import sys
import time

from mixpanel import BufferedConsumer, Mixpanel, MixpanelException

host, port = sys.argv[1], sys.argv[2]
consumer = BufferedConsumer(max_size=50, import_url=f"http://{host}:{port}/import", retry_limit=0)
mp = Mixpanel("mp-token", consumer=consumer)
hour_ago = int(time.time()) - 3600
mp.import_data("mp-token", "user-42", "Before", hour_ago, {"n": 1}, api_secret="mp-secret")
mp.import_data("mp-token", "user-42", "Too Big", hour_ago, {"blob": "x" * (1024 * 1024)}, api_secret="mp-secret")
mp.import_data("mp-token", "user-42", "After", hour_ago, {"n": 3}, api_secret="mp-secret")
try:
    consumer.flush()
except MixpanelException as error:
    print(f"MixpanelException: {error}")
    sys.exit(0 if "failed validation" in str(error) else 1)
print("the batch was taken whole")
sys.exit(1)
