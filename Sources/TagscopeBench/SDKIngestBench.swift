import Foundation

/// Each SDK decoder's rate through `tagscope listen`'s real path (one keep-alive client posting
/// batches to a ``RecordingServer`` writing through a live session): events per second for
/// Segment, Amplitude, PostHog, GA4 Measurement Protocol, Mixpanel and Snowplow, the decoders that
/// account for their fields since issue 44. The request shapes are those of the official SDKs'
/// (the seeds of `EndpointFuzzCorpus`, each naming its SDK source), repeated to a batch. Built on
/// the benchmark's own helpers only, so the same file builds at a commit before the accounting
/// for a same-run comparison.
enum SDKIngestBench {
  /// Batches posted per vendor.
  static let batches = 400

  /// One vendor's request: its path (with its query) and a body of `events` events.
  struct Shape {
    var name: String
    var path: String
    var events: Int
    var body: String
  }

  static func run(_ report: inout BenchReport) throws {
    let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
      "tagscope-sdk-ingest-bench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for shape in shapes {
      let rate = try measure(shape, directory: directory)
      report.add(
        "listen.ingest.\(shape.name).rate", rate, unit: "events/s",
        baseline:
          "\(batches) × \(shape.path) with \(shape.events) events, one keep-alive client, live session")
    }
  }

  /// Events per second for `shape`'s batches, timed from the first request until every event is
  /// in the recording.
  static func measure(_ shape: Shape, directory: URL) throws -> Double {
    let recording = directory.appendingPathComponent("\(shape.name).jsonl")
    let running = try RecordingServer(recording: recording, live: true)
    defer { try? running.stop() }
    let body = Array(shape.body.utf8)
    let head = Array(
      ("POST \(shape.path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.count)\r\n\r\n").utf8)
    let request = head + body
    let socket = try BenchSocket(port: running.server.port)
    try post(request, times: 1, on: socket, vendor: shape.name)
    try running.counter.wait(for: shape.events, timeout: 30)
    guard running.counter.value == shape.events else {
      throw BenchFailure(
        "\(shape.name): one batch of \(shape.events) events made \(running.counter.value) records")
    }
    let seconds = try measureSeconds {
      try post(request, times: batches, on: socket, vendor: shape.name)
      try running.counter.wait(for: shape.events * (batches + 1), timeout: 120)
    }
    return Double(shape.events * batches) / seconds
  }

  /// Posts `request` `times` times, waiting out a 503 as the SDKs do.
  static func post(_ request: [UInt8], times: Int, on socket: BenchSocket, vendor: String) throws {
    var sent = 0
    while sent < times {
      socket.send(request)
      let status = socket.readResponseStatus()
      if status == 503 {
        usleep(100_000)
        continue
      }
      guard (200..<300).contains(status) else { throw BenchFailure("\(vendor): status \(status)") }
      sent += 1
    }
  }

  static let shapes: [Shape] = [
    // segmentio/analytics-python `segment/analytics/request.py`: a batch with its writeKey.
    Shape(
      name: "segment", path: "/v1/batch", events: 50,
      body: #"{"batch":["#
        + repeated(50) { index in
          #"{"type":"track","event":"Order Completed","userId":"u1","messageId":"m\#(index)","timestamp":"2026-11-21T10:00:00.000Z","properties":{"total":9.99,"products":[{"id":"p1","price":4.5}]},"context":{"library":{"name":"analytics-python","version":"2.3.3"}}}"#
        } + #"],"writeKey":"k","sentAt":"2026-11-21T10:00:01.000Z"}"#),
    // amplitude/Amplitude-Python `amplitude/http_client.py`: api_key, events, options.
    Shape(
      name: "amplitude", path: "/2/httpapi", events: 50,
      body: #"{"api_key":"k","events":["#
        + repeated(50) { index in
          #"{"event_type":"Play Podcast","user_id":"u1","device_id":"d1","time":1795255204210,"event_properties":{"title":"S","duration":1830},"insert_id":"i\#(index)"}"#
        } + #"],"options":{"min_id_length":1}}"#),
    // PostHog/posthog-python `posthog/request.py`: a batch with its api_key.
    Shape(
      name: "posthog", path: "/batch", events: 50,
      body: #"{"api_key":"phc_k","batch":["#
        + repeated(50) { index in
          #"{"event":"$pageview","distinct_id":"d","uuid":"0b7d3e2a-4a7e-4d59-9e0d-1b6a0d9f4\#(1000 + index)","properties":{"$current_url":"https://x","$lib":"posthog-python"},"timestamp":"2026-11-21T10:00:00Z"}"#
        } + "]}"),
    // GA4 Measurement Protocol: client_id and at most 25 events.
    Shape(
      name: "ga4", path: "/mp/collect?measurement_id=G-1&api_secret=s", events: 25,
      body: #"{"client_id":"c1","events":["#
        + repeated(25) { index in
          #"{"name":"select_item","params":{"item_list_id":"l\#(index)","items":[{"item_id":"p1","price":4.5}]}}"#
        } + "]}"),
    // mixpanel/mixpanel-python `mixpanel/__init__.py`: JSON messages.
    Shape(
      name: "mixpanel", path: "/track", events: 50,
      body: "["
        + repeated(50) { index in
          #"{"event":"Play","properties":{"token":"t","distinct_id":"d","time":1795255204,"$insert_id":"i\#(index)","title":"S"}}"#
        } + "]"),
    // snowplow/snowplow-python-tracker `snowplow_tracker/emitters.py`: payload_data's data array.
    Shape(
      name: "snowplow", path: "/com.snowplowanalytics.snowplow/tp2", events: 50,
      body: #"{"schema":"iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4","data":["#
        + repeated(50) { index in
          #"{"e":"se","se_ca":"shop","se_ac":"add","se_va":"2.5","p":"mob","tv":"py-1.0.0","eid":"0b7d3e2a-4a7e-4d59-9e0d-1b6a0d9f\#(1000 + index)","dtm":"1795255204210","aid":"app","uid":"u"}"#
        } + "]}"),
  ]

  /// `count` items joined by commas.
  static func repeated(_ count: Int, _ item: (Int) -> String) -> String {
    (0..<count).map(item).joined(separator: ",")
  }
}
