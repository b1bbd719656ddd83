import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 28's figures: 20 SDK devices behind one address (16 Segment clients, each with its own
/// `context.device.id` and `anonymousId`, and 4 Amplitude clients with their own `device_id` and
/// `session_id`), 50,000 events each as real HTTP batches of 100 into the real `tagscope listen`
/// debugger in tmux: records lost, key latency while they stream (timed from `send-keys` until
/// `capture-pane` shows it, as ``DevicesBench`` does) and the process's resident memory per record
/// over the whole run, and over its first tenth (a short session).
///
/// `SDK_DEVICES_EVENTS` sets the events per device; `SDK_DEVICES_BASELINE` names another `tagscope`
/// binary (another build, e.g. the main branch's) run the same way first, each figure then shown
/// beside it as a ratio.
enum SDKDevicesBench {
  static let devices = 20
  static let amplitudeDevices = 4
  static let batch = 100

  static var eventsPerDevice: Int {
    ProcessInfo.processInfo.environment["SDK_DEVICES_EVENTS"].flatMap(Int.init) ?? 50_000
  }

  static func run(_ report: inout BenchReport) throws {
    let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
      "tagscope-sdk-devices-bench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let own = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("tagscope").path
    var baseline: Outcome?
    if let other = ProcessInfo.processInfo.environment["SDK_DEVICES_BASELINE"] {
      baseline = try measure(binary: other, directory: directory, name: "base")
    }
    let outcome = try measure(binary: own, directory: directory, name: "this")
    let total = devices * eventsPerDevice
    func versus(_ keyPath: KeyPath<Outcome, Double>) -> String {
      guard let baseline else { return "" }
      let ratio = outcome[keyPath: keyPath] / max(baseline[keyPath: keyPath], 0.001)
      return " · baseline build " + String(format: "%.1f", baseline[keyPath: keyPath]) + " (×"
        + String(format: "%.2f", ratio) + ")"
    }
    report.add(
      "sdkdevices.lost", outcome.lost, unit: "records",
      baseline:
        "\(devices) SDK devices × \(eventsPerDevice) acknowledged − records in listen's --record file"
        + versus(\.lost), atMost: 0)
    report.add(
      "sdkdevices.rate", outcome.rate, unit: "events/s",
      baseline: "HTTP batches of \(batch) from 127.0.0.1 into tagscope listen in tmux" + versus(\.rate))
    report.add(
      "sdkdevices.key_latency.p99", outcome.p99, unit: "ms",
      baseline:
        "\(outcome.keys) keys while the devices stream (median " + String(format: "%.1f", outcome.median)
        + " ms)" + versus(\.p99), atMost: 50)
    report.add(
      "sdkdevices.memory.per_record", outcome.perRecord, unit: "bytes",
      baseline:
        "tagscope listen's anonymous RSS growth from before the first record to after the last / \(total)"
        + versus(\.perRecord), atMost: 64)
    report.add(
      "sdkdevices.memory.first_tenth_per_record", outcome.firstTenth, unit: "bytes",
      baseline: "the same growth over the first \(total / 10) records only" + versus(\.firstTenth))
    report.add(
      "sdkdevices.memory.peak_mib", outcome.peak, unit: "MiB",
      baseline: "tagscope listen's highest anonymous RSS sampled during the run" + versus(\.peak))
  }

  /// What one run of a `tagscope` binary measured.
  struct Outcome {
    var lost: Double
    var rate: Double
    var p99: Double
    var median: Double
    var keys: Int
    var perRecord: Double
    var firstTenth: Double
    var peak: Double
  }

  /// Runs `binary listen` in tmux, streams every device's events into it while pressing keys, and
  /// returns what it measured.
  static func measure(binary: String, directory: URL, name: String) throws -> Outcome {
    guard FileManager.default.isExecutableFile(atPath: binary) else {
      throw BenchFailure(
        "\(binary) is missing: build it with `swift build -c release --product tagscope` first")
    }
    let port = ServerBench.freePort()
    let recording = directory.appendingPathComponent("\(name).jsonl")
    let session = UIBench.Session(name: "sdkdev-\(name)-\(getpid())")
    defer { session.kill() }
    let pid = try session.start(
      "LANG=C.UTF-8 TERM=xterm-256color exec '\(binary)' listen --port \(port) --record '\(recording.path)'")
    var connected = false
    for _ in 0..<100 where !connected {
      Thread.sleep(forTimeInterval: 0.1)
      connected = (try? BenchSocket(port: port)) != nil
    }
    guard connected else { throw BenchFailure("tagscope listen did not open port \(port)") }
    Thread.sleep(forTimeInterval: 0.5)
    let before = Memory.anonymousResident(of: pid)
    let total = devices * eventsPerDevice
    let acknowledged = Counter()
    let done = Counter()
    let peak = Counter()
    let started = Date()
    Thread.detachNewThread {
      DispatchQueue.concurrentPerform(iterations: devices) { device in
        send(device: device, port: port, acknowledged: acknowledged)
      }
      done.add(1)
    }
    // The peak, and the memory of a short session: sampled once the first tenth is in.
    let tenth = Counter()
    Thread.detachNewThread {
      while done.value == 0 {
        let resident = Memory.anonymousResident(of: pid)
        if resident > peak.value { peak.add(resident - peak.value) }
        if tenth.value == 0, acknowledged.value >= total / 10 { tenth.add(max(1, resident - before)) }
        Thread.sleep(forTimeInterval: 0.05)
      }
    }
    Thread.sleep(forTimeInterval: 1)
    var latencies: [Double] = []
    for press in 0..<40 where done.value == 0 {
      latencies.append(session.timeKey(press))
      Thread.sleep(forTimeInterval: 0.15)
    }
    try done.wait(for: 1, timeout: 1_200)
    let seconds = Date().timeIntervalSince(started)
    var records = 0
    // Until listen has written what it acknowledged (or stopped moving).
    for _ in 0..<300 {
      let now = recordCount(recording)
      if now >= acknowledged.value || (now == records && now > 0) {
        records = now
        break
      }
      records = now
      Thread.sleep(forTimeInterval: 0.2)
    }
    let after = Memory.anonymousResident(of: pid)
    session.send("q")
    guard latencies.count >= 10 else {
      throw BenchFailure("the streams ended after \(latencies.count) keys; no latency figure")
    }
    if ProcessInfo.processInfo.environment["DEVICES_BENCH_VERBOSE"] != nil {
      FileHandle.standardError.write(Data("\(name) key latencies (ms): \(latencies.map { Int($0) })\n".utf8))
    }
    latencies.sort()
    let p99 = latencies[min(latencies.count - 1, Int((Double(latencies.count) * 0.99).rounded(.up)) - 1)]
    return Outcome(
      lost: Double(total - records), rate: Double(acknowledged.value) / seconds, p99: p99,
      median: latencies[latencies.count / 2], keys: latencies.count,
      perRecord: Double(after - before) / Double(max(records, 1)),
      firstTenth: Double(tenth.value) / Double(total / 10),
      peak: Double(max(peak.value, after)) / 1_048_576)
  }

  /// One device's events on one keep-alive connection, a batch at a time; a `503` is retried after
  /// a pause, as the SDKs do.
  static func send(device: Int, port: Int, acknowledged: Counter) {
    guard let socket = try? BenchSocket(port: port) else { return }
    var first = 0
    while first < eventsPerDevice {
      let request = self.request(device: device, first: first, count: min(batch, eventsPerDevice - first))
      socket.send(request)
      let status = socket.readResponseStatus()
      if status == 503 {
        usleep(200_000)
        continue
      }
      guard status == 200 else { return }
      acknowledged.add(min(batch, eventsPerDevice - first))
      first += batch
    }
  }

  static let screens = ["Home", "Search", "Product", "Cart", "Checkout"]

  /// One HTTP request carrying events `first..<first + count` of `device`: a screen every fifth.
  static func request(device: Int, first: Int, count: Int) -> [UInt8] {
    let isAmplitude = device >= devices - amplitudeDevices
    var events: [String] = []
    events.reserveCapacity(count)
    for index in first..<(first + count) {
      let screen = screens[(index / 5 + device) % screens.count]
      let time = 1_790_000_000_000 + index * 200 + device
      if isAmplitude {
        let type = index % 5 == 0 ? "[Amplitude] Screen Viewed" : "Add To Cart"
        events.append(
          #"{"event_type":"\#(type)","device_id":"amp-device-\#(device)","session_id":1790000000\#(device),"#
            + #""time":\#(time),"insert_id":"\#(device)-\#(index)","platform":"iOS","os_name":"ios","#
            + #""device_model":"iPhone15,2","event_properties":{"[Amplitude] Screen Name":"\#(screen)","#
            + #""sku":"sku-\#(index % 40)","quantity":\#(index % 12)}}"#)
      } else {
        let call =
          index % 5 == 0
          ? #""type":"screen","name":"\#(screen)","properties":{}"#
          : #""type":"track","event":"Product Added","properties":{"sku":"sku-\#(index % 40)","quantity":\#(index % 12)}"#
        events.append(
          #"{\#(call),"anonymousId":"anon-\#(device)","messageId":"m-\#(device)-\#(index)","#
            + #""timestamp":"2026-11-25T10:00:00.000Z","context":{"app":{"name":"Shop","version":"1.0"},"#
            + #""device":{"id":"device-\#(device)","model":"iPhone15,2"},"os":{"name":"iOS","version":"17.0"},"#
            + #""library":{"name":"analytics-swift","version":"1.5.0"}}}"#)
      }
    }
    let body: [UInt8]
    let path: String
    if isAmplitude {
      path = "/2/httpapi"
      body = Array((#"{"api_key":"bench","events":["# + events.joined(separator: ",") + "]}").utf8)
    } else {
      path = "/v1/batch"
      body = Array((#"{"writeKey":"bench","batch":["# + events.joined(separator: ",") + "]}").utf8)
    }
    return Array(
      ("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.count)\r\n\r\n").utf8) + body
  }

  /// The records in a recording: its lines that carry a `seq`.
  static func recordCount(_ url: URL) -> Int {
    guard let file = fopen(url.path, "r") else { return 0 }
    defer { fclose(file) }
    var records = 0
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    while getline(&line, &capacity, file) > 0 {
      if let line, strstr(line, "\"seq\":") != nil { records += 1 }
    }
    return records
  }
}
