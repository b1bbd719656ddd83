"""RudderStack's official Python SDK sending one batch of 40 events of about 30 KB each (1.2 MB,
gzipped): rudder-sdk-python batches up to 4 MB (consumer.py BATCH_SIZE_LIMIT), past Segment's
500 KB, on Segment's own /v1/batch path. upload_size 40 and a long upload_interval make the 40
events one batch whatever the machine's speed. Exits non-zero if the SDK reported an error."""
import os
import sys

from rudderstack.analytics.client import Client

host, port = sys.argv[1], sys.argv[2]
errors = []
client = Client(
    "rudder-write-key",
    host=f"http://{host}:{port}",
    max_retries=0,
    upload_size=40,
    upload_interval=30,
    on_error=lambda error, batch: errors.append(error),
)
for index in range(40):
    client.track("user-7", f"Big {index}", {"index": index, "notes": "n" * 30_000})
client.flush()  # returns once the batch was sent and answered
if errors:
    print("rudderstack errors:", errors, file=sys.stderr)
# Not client.join(), nor the join the SDK registers at exit: the consumer is then waiting up to
# upload_interval for a next batch that never comes.
sys.stdout.flush()
sys.stderr.flush()
os._exit(1 if errors else 0)
