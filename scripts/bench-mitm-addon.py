"""mitmproxy as the proxy benchmark's peer (`scripts/bench proxy`, Sources/TagscopeBench/Mitmproxy*.swift).

Answers Segment's `POST /v1/batch` locally, as `tagscope proxy` without forwarding does (200
`{"success":true}`), Firebase's `POST /a` as Google does (204, `Content-Type: image/gif`, no body),
and every other request 404, so nothing leaves the machine. With `--set bench_record=FILE` it first
appends each body to FILE as one line (written and flushed before the answer, not fsynced), the way
a recording tool keeps what it saw: a batch's JSON as it is, an upload's protobuf (gunzipped from
its `Content-Encoding`, as mitmproxy decodes any body it shows) in base64. Once listening, it
writes its port to `--set bench_ready=FILE`.

    mitmdump -q -s scripts/bench-mitm-addon.py --listen-host 127.0.0.1 --listen-port 0 \
      --set confdir=TMP/conf --set connection_strategy=lazy --set bench_ready=TMP/port \
      [--set bench_record=TMP/recording.jsonl]
"""

import base64
import os

from mitmproxy import ctx, http

ANSWER = b'{"success":true}'


class SegmentBatchAnswer:
    def __init__(self):
        self.recording = None

    def load(self, loader):
        loader.add_option("bench_record", str, "", "Append each /v1/batch or /a body to this file, one a line.")
        loader.add_option("bench_ready", str, "", "Write the listening port to this file once running.")

    def configure(self, updated):
        if "bench_record" in updated and ctx.options.bench_record:
            self.recording = open(ctx.options.bench_record, "ab")

    def running(self):
        if not ctx.options.bench_ready:
            return
        server = ctx.master.addons.get("proxyserver")
        port = server.listen_addrs()[0][1]
        with open(ctx.options.bench_ready + ".tmp", "w") as ready:
            ready.write(f"{port}\n")
        os.replace(ctx.options.bench_ready + ".tmp", ctx.options.bench_ready)

    def request(self, flow: http.HTTPFlow):
        if flow.request.method == "POST" and flow.request.path == "/a":
            if self.recording is not None:
                body = flow.request.get_content(strict=False) or b""
                self.recording.write(base64.b64encode(body) + b"\n")
                self.recording.flush()
            flow.response = http.Response.make(204, b"", {"Content-Type": "image/gif"})
            return
        if flow.request.method != "POST" or flow.request.path != "/v1/batch":
            flow.response = http.Response.make(404, b"", {"Content-Type": "text/plain"})
            return
        if self.recording is not None:
            # A JSON text's line breaks are whitespace (a raw one inside a string is not JSON).
            body = flow.request.get_content(strict=False) or b""
            self.recording.write(body.replace(b"\r", b" ").replace(b"\n", b" ") + b"\n")
            self.recording.flush()
        flow.response = http.Response.make(200, ANSWER, {"Content-Type": "application/json"})

    def done(self):
        if self.recording is not None:
            self.recording.close()


addons = [SegmentBatchAnswer()]
