import AnalyticsHub
import Foundation
import TagscopeLive
import TagscopeRecording
import TagscopeServer
import TagscopeTimeline

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 12's figures, many devices at once: 20 native streams of 100,000 records each (every
/// device on its own journey of screens and taps) into `listen` with the debugger's timeline
/// attached — records lost, rate and resident memory per record in process; key latency of the
/// real `tagscope listen` debugger in tmux while the same streams arrive; and seeks (the state of
/// the record's own device, and the record) on the 2,000,000-record, 20-source recording it wrote.
enum DevicesBench {
  static let devices = 20
  static let recordsPerDevice = 100_000
  static let screens = ["home", "podcasts", "favorites", "player", "settings"]

  static func run(_ report: inout BenchReport) throws {
    // As tagscope listen does (the last group, so no other group runs with it).
    HeapTrimmer.keepLargeBlocksApart()
    let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
      "tagscope-devices-bench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try liveTimelineMemory(directory: directory, &report)
    // First, in a process that has done nothing else: the 20-source recording listen would write
    // (each device's records interleaved, 100 at a time, with their source), opened and sought.
    let written = directory.appendingPathComponent("written.jsonl")
    try writeInterleaved(to: written)
    try seeking(written, &report)
    try? FileManager.default.removeItem(at: written)
    let recording = directory.appendingPathComponent("devices.jsonl")
    try streamIntoTimeline(recording: recording, &report)
    try? FileManager.default.removeItem(at: recording)
    try keyLatency(directory: directory, &report)
  }

  // MARK: Streams

  /// One connection of a device in chunks of `chunk` records: the header, then its journey (a
  /// screen every fifth record, taps on it in between) from record `first` (`seq`) to `last`.
  struct DeviceStream {
    let device: Int
    var next: Int
    let last: Int
    var headerSent = false
    let start = Date(timeIntervalSince1970: 1_790_000_000)

    init(device: Int, records: ClosedRange<Int>) {
      self.device = device
      next = records.lowerBound
      last = records.upperBound
    }

    mutating func chunk(_ count: Int) -> [UInt8] {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(count * 460)
      if !headerSent {
        headerSent = true
        RecordLineEncoder.appendLine(
          RecordingHeader(app: "Podcasts", device: "phone-\(device)", started: start), to: &bytes)
      }
      let end = min(next + count, last + 1)
      while next < end {
        RecordLineEncoder.appendLine(record(next), to: &bytes)
        next += 1
      }
      return bytes
    }

    var finished: Bool { next > last }

    func record(_ index: Int) -> Record {
      let screens = DevicesBench.screens
      let screen = screens[(index / 5 + device) % screens.count]
      let previous = screens[(index / 5 + device + screens.count - 1) % screens.count]
      let isScreen = index % 5 == 0
      return Record(
        seq: UInt64(index), time: start.addingTimeInterval(Double(index) / 200 + Double(device) / 1000),
        kind: isScreen ? .screen : .userAction,
        name: isScreen ? screen : "tap\(index % 3)",
        properties: isScreen
          ? [:] : ["item": .string("episode-\(index % 40)"), "position": .int(index % 12)],
        context: RecordContext(
          screen: screen, history: [previous, screen],
          session: RecordSession(id: "s-\(device)", state: "authenticated", user: "u-\(device)")),
        outputs: [
          ProviderOutput(
            provider: "firebase", status: .sent,
            calls: [
              CallDescription(
                method: "logEvent", name: isScreen ? "screen_view" : "tap_\(index % 3)",
                parameters: ["screen_name": .string(screen)])
            ]),
          ProviderOutput(provider: "amplitude", status: index % 7 == 0 ? .dropped : .sent),
        ])
    }
  }

  /// The debugger's live timeline alone, fed the 20 devices' records (with their sources, 1,000
  /// per device in turn) as the live session hands them over: its resident memory per record,
  /// measured over the second half (what each further record of a day-long session costs).
  static func liveTimelineMemory(directory: URL, _ report: inout BenchReport) throws {
    let url = directory.appendingPathComponent("live-only.jsonl")
    defer { try? FileManager.default.removeItem(at: url) }
    let timeline = try Timeline.live(recordingTo: url)
    defer { timeline.release() }
    var streams = (0..<devices).map { DeviceStream(device: $0, records: 1...recordsPerDevice) }
    let rounds = recordsPerDevice / 1_000
    var halfway = 0
    for round in 0..<rounds {
      if round == rounds / 2 {
        trimHeap()
        halfway = Memory.anonymousResident()
      }
      for device in 0..<devices {
        var items: [SinkItem] = []
        items.reserveCapacity(1_000)
        for _ in 0..<1_000 {
          var record = streams[device].record(streams[device].next)
          streams[device].next += 1
          record.source = "Podcasts@phone-\(device)"
          items.append(SinkItem(record))
        }
        timeline.receive(items)
      }
    }
    trimHeap()
    let after = Memory.anonymousResident()
    report.add(
      "devices.timeline.memory.per_record", Double(after - halfway) / Double(devices * recordsPerDevice / 2),
      unit: "bytes",
      baseline: "the live timeline's anonymous RSS growth over the second 1,000,000 of 20 devices' records",
      atMost: 64)
  }

  /// Writes what `listen` records from the 20 devices: each device's records with its source
  /// (`Podcasts@phone-N`), interleaved 100 at a time.
  static func writeInterleaved(to url: URL) throws {
    guard let file = fopen(url.path, "w") else { throw BenchFailure("cannot write \(url.path)") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    RecordLineEncoder.appendLine(RecordingHeader(app: "tagscope listen", started: Date()), to: &bytes)
    for first in stride(from: 1, through: recordsPerDevice, by: 100) {
      for device in 0..<devices {
        let stream = DeviceStream(device: device, records: first...(first + 99))
        for index in first...min(first + 99, recordsPerDevice) {
          var record = stream.record(index)
          record.source = "Podcasts@phone-\(device)"
          RecordLineEncoder.appendLine(record, to: &bytes)
        }
      }
      fwrite(bytes, 1, bytes.count, file)
      bytes.removeAll(keepingCapacity: true)
    }
  }

  /// Sends every device's `records` at once, each on a connection of its own (a device that
  /// connects again is the same source), `chunk` records at a time.
  static func sendAllDevices(port: Int, records: ClosedRange<Int> = 1...recordsPerDevice, chunk: Int = 2_000)
  {
    DispatchQueue.concurrentPerform(iterations: devices) { device in
      guard let socket = try? BenchSocket(port: port) else { return }
      var stream = DeviceStream(device: device, records: records)
      while !stream.finished { socket.send(stream.chunk(chunk)) }
      socket.finishSending()
      socket.waitForClose()
    }
  }

  // MARK: In process

  /// A real server into a ``LiveSession`` writing the debugger's live ``Timeline`` (what `tagscope
  /// listen` runs under its user interface), in two halves (each device connects again for the
  /// second, as a reconnecting sink does). Memory per record is the growth of the process's
  /// anonymous resident memory over the second half, after freed heap is returned
  /// (`malloc_trim`): what each further record costs a day-long session, without what the server
  /// and the session set up once; the whole process's growth is reported beside it.
  static func streamIntoTimeline(recording: URL, _ report: inout BenchReport) throws {
    let total = devices * recordsPerDevice
    let half = recordsPerDevice / 2
    trimHeap()
    let before = Memory.anonymousResident()
    let timeline = try Timeline.live(
      recordingTo: recording, header: RecordingHeader(app: "tagscope listen", started: Date()))
    let counter = Counter()
    let session = LiveSession(store: timeline) { update in
      for case .records(let records) in update.events { counter.add(records.count) }
    }
    let server = try startServer(ingest: session)
    var halfway = 0
    var heapHalfway = 0
    let seconds = try measureSeconds {
      sendAllDevices(port: server.port, records: 1...half)
      try counter.wait(for: devices * half, timeout: 300)
      trimHeap()
      halfway = Memory.anonymousResident()
      heapHalfway = Memory.heapInUse()
      sendAllDevices(port: server.port, records: (half + 1)...recordsPerDevice)
      try counter.wait(for: total, timeout: 300)
    }
    trimHeap()
    let after = Memory.anonymousResident()
    if ProcessInfo.processInfo.environment["DEVICES_BENCH_VERBOSE"] != nil {
      let records = Double(total - devices * half)
      print(
        "devices.memory: resident +\(Double(after - halfway) / records) B/record, malloc in use +\(Double(Memory.heapInUse() - heapHalfway) / records) B/record"
      )
    }
    try ServerBench.stop(server)
    session.close()
    timeline.waitUntilIndexed()
    let held = timeline.count
    let sources = timeline.sourceStatistics().count
    timeline.release(keepTemporary: true)
    report.add(
      "devices.stream.lost", Double(total - held), unit: "records",
      baseline:
        "\(devices) devices × \(recordsPerDevice) sent − records in the live timeline (\(sources) sources)",
      atMost: 0)
    report.add(
      "devices.stream.rate", Double(total) / seconds, unit: "records/s",
      baseline: "\(devices) native connections → live session → the debugger's live timeline + recording")
    report.add(
      "devices.memory.per_record", Double(after - halfway) / Double(total - devices * half), unit: "bytes",
      baseline:
        "whole process (server, session, timeline): anonymous RSS growth over the second \(devices * half) records, after malloc_trim",
      atMost: 64)
    report.add(
      "devices.memory.process_per_record", Double(after - before) / Double(max(held, 1)), unit: "bytes",
      baseline: "the whole process's anonymous RSS growth from before the server started / records")
  }

  static func startServer(ingest: LiveSession) throws -> ListenServer {
    let box = ResultBox<ListenServer>()
    let semaphore = DispatchSemaphore(value: 0)
    Task {
      box.set(
        await Result.capture {
          try await ListenServer.start(configuration: ListenConfiguration(port: 0), ingest: ingest)
        })
      semaphore.signal()
    }
    semaphore.wait()
    return try box.get()
  }

  /// Returns freed heap to the system, as the live session does every so often, so resident
  /// memory counts what is still held.
  static func trimHeap() { HeapTrimmer.trim() }

  // MARK: Seeking

  /// Opens a 20-source recording (as `listen` writes it) and seeks 2,000 random records: the state
  /// as of each (its own device's fold from that device's keyframes) and the record; memory is
  /// the anonymous resident growth of opening it, in a process that has done nothing else yet.
  static func seeking(_ url: URL, _ report: inout BenchReport) throws {
    trimHeap()
    let before = Memory.anonymousResident()
    let timeline = try Timeline.open(url: url)
    timeline.waitUntilIndexed()
    defer { timeline.release() }
    trimHeap()
    let opened = Memory.anonymousResident()
    var random = BenchRandom(seed: 12)
    var timings: [Double] = []
    var wrongDevice = 0
    for _ in 0..<2_000 {
      let position = Int(random.next() % UInt64(timeline.count))
      var state: TimelineState?
      var record: Record?
      timings.append(
        try measureSeconds {
          state = try timeline.state(at: position)
          record = try timeline.record(at: position)
        } * 1000)
      if let record, let screen = record.context.screen, state?.screen != screen { wrongDevice += 1 }
    }
    timings.sort()
    report.add(
      "devices.seek.p50", timings[timings.count / 2], unit: "ms",
      baseline: "state + record at a random index of \(timeline.count) records, \(devices) sources",
      atMost: 20)
    report.add(
      "devices.seek.max", timings.last!, unit: "ms", baseline: "2,000 random seeks", atMost: 20)
    report.add(
      "devices.seek.wrong_screen", Double(wrongDevice), unit: "seeks",
      baseline: "the state's current screen is not the record's own (another device's)", atMost: 0)
    report.add(
      "devices.open.memory.per_record", Double(opened - before) / Double(timeline.count), unit: "bytes",
      baseline: "anonymous RSS growth (after malloc_trim) / records, opening the recording", atMost: 64)
  }

  // MARK: The real debugger

  /// `tagscope listen` with its debugger in tmux 140×40 while the 20 devices stream into it: 40
  /// keys (pause, then up and down), each timed from `send-keys` until `capture-pane` shows it.
  static func keyLatency(directory: URL, _ report: inout BenchReport) throws {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("tagscope").path
    guard FileManager.default.isExecutableFile(atPath: binary) else {
      throw BenchFailure(
        "\(binary) is missing: build it with `swift build -c release --product tagscope` first")
    }
    let port = ServerBench.freePort()
    let recording = directory.appendingPathComponent("listen.jsonl")
    let session = UIBench.Session(name: "devbench-\(getpid())")
    defer { session.kill() }
    let pid = try session.start(
      "LANG=C.UTF-8 TERM=xterm-256color exec '\(binary)' listen --port \(port) --record '\(recording.path)'")
    var connected = false
    for _ in 0..<100 where !connected {
      Thread.sleep(forTimeInterval: 0.1)
      connected = (try? BenchSocket(port: port)) != nil
    }
    guard connected else { throw BenchFailure("tagscope listen did not open port \(port)") }
    let residentBefore = Memory.anonymousResident(of: pid)
    let done = Counter()
    let started = Date()
    Thread.detachNewThread {
      sendAllDevices(port: port)
      done.add(1)
    }
    Thread.sleep(forTimeInterval: 1)
    var latencies: [Double] = []
    for press in 0..<40 where done.value == 0 {
      latencies.append(session.timeKey(press))
      Thread.sleep(forTimeInterval: 0.15)
    }
    try done.wait(for: 1, timeout: 600)
    let streamed = Date().timeIntervalSince(started)
    Thread.sleep(forTimeInterval: 1)
    let residentAfter = Memory.anonymousResident(of: pid)
    session.send("q")
    var lines = 0
    for _ in 0..<100 {
      Thread.sleep(forTimeInterval: 0.2)
      lines = lineCount(recording)
      if lines > devices * recordsPerDevice { break }
    }
    guard latencies.count >= 10 else {
      throw BenchFailure("the streams ended after \(latencies.count) keys; no latency figure")
    }
    if ProcessInfo.processInfo.environment["DEVICES_BENCH_VERBOSE"] != nil {
      FileHandle.standardError.write(Data("key latencies (ms): \(latencies.map { Int($0) })\n".utf8))
    }
    latencies.sort()
    let p99 = latencies[min(latencies.count - 1, Int((Double(latencies.count) * 0.99).rounded(.up)) - 1)]
    report.add(
      "devices.key_latency.p99", p99, unit: "ms",
      baseline:
        "\(latencies.count) keys while \(devices) devices stream into tagscope listen in tmux (median "
        + String(format: "%.1f", latencies[latencies.count / 2]) + " ms)", atMost: 50)
    report.add(
      "devices.listen.memory.per_record",
      Double(residentAfter - residentBefore) / Double(devices * recordsPerDevice), unit: "bytes",
      baseline:
        "tagscope listen's own anonymous RSS growth while the records arrived / records (as a user sees it)")
    report.add(
      "devices.listen.lost", Double(devices * recordsPerDevice - (lines - 1)), unit: "records",
      baseline: "sent − lines in listen's --record file (streams took \(String(format: "%.1f", streamed)) s)",
      atMost: 0)
  }

  static func lineCount(_ url: URL) -> Int {
    guard let file = fopen(url.path, "r") else { return 0 }
    defer { fclose(file) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    var lines = 0
    while true {
      let read = fread(&buffer, 1, buffer.count, file)
      if read <= 0 { break }
      for byte in buffer[0..<read] where byte == 10 { lines += 1 }
    }
    return lines
  }
}
