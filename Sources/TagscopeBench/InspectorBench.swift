import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline

/// Issue 4's figures, on a 1,000,000-record recording generated from the podcast simulator on a
/// real hub with the demo's provider mappings (`PodcastMappings`: Firebase, Amplitude, Piano, Braze,
/// FPTI, with their rules), made once under `bench-data/` (or `$TAGSCOPE_BENCH_DATA`) and reused: time to the first screenful, full indexing throughput against Python's `json.loads`
/// per line on the same file, seek time, resident memory per record, and the inspector's overhead
/// on `send`.
enum InspectorBench {
  static let recordCount = 1_000_000

  static func run(_ report: inout BenchReport) throws {
    // `TAGSCOPE_BENCH_ONLY=send` (or `index`, `seek`, `open`) runs one part, for quick iterations.
    let only = ProcessInfo.processInfo.environment["TAGSCOPE_BENCH_ONLY"]
    if only == "send" { return try sendOverhead(&report) }
    if only == "encode" { return try encoding(&report) }
    let url = try recording()
    if only == "index" { return try indexing(url, &report) }
    let size = try url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
    report.add(
      "inspector.recording.size", Double(size) / 1_048_576, unit: "MiB", baseline: "\(recordCount) records")
    report.add(
      "inspector.recording.bytes_per_record", Double(size) / Double(recordCount), unit: "bytes",
      baseline: "average line")
    try firstScreenful(url, &report)
    try indexing(url, &report)
    try seeking(url, &report)
    try sendOverhead(&report)
  }

  // MARK: The recording

  /// The 1M-record recording, generated if missing.
  static func recording() throws -> URL {
    let directory = URL(
      fileURLWithPath: ProcessInfo.processInfo.environment["TAGSCOPE_BENCH_DATA"] ?? "bench-data",
      isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent("podcast-\(recordCount).jsonl")
    if let reader = try? RecordingReader(path: url.path), reader.header.extra["records"] == .int(recordCount),
      reader.header.extra["mappings"] == "PodcastMappings"
    {
      return url
    }
    FileHandle.standardError.write("generating \(url.path)…\n".data(using: .utf8)!)
    let partial = url.appendingPathExtension("partial")
    let clock = ManualClock(start: DemoHub.seededEpoch)
    let hub = try DemoHub.make(providers: PodcastMappings.providers(), clock: clock, seed: 1)
    let header = RecordingHeader(
      app: "Podcasts", device: "TagscopeBench simulator", started: DemoHub.seededEpoch,
      extra: ["records": .int(recordCount), "mappings": "PodcastMappings"])
    let recorder = try Recorder(url: partial, header: header)
    let writer = SynchronousWriter(recorder: recorder)
    hub.addObserver(writer)
    let simulator = PodcastSimulator(hub: hub, seed: 1)
    while writer.count < recordCount { clock.advance(by: simulator.step()) }
    hub.flush()
    hub.removeObserver(writer)
    try writer.finish()
    recorder.close()
    try? FileManager.default.removeItem(at: url)
    try FileManager.default.moveItem(at: partial, to: url)
    return url
  }

  // MARK: Figures

  static func firstScreenful(_ url: URL, _ report: inout BenchReport) throws {
    var summaries: [RecordSummary] = []
    let seconds = try measureSeconds {
      let timeline = try Timeline.open(url: url)
      while timeline.count < 60 && timeline.isIndexing { usleep(200) }
      summaries = timeline.summaries(in: 0..<60)
      blackHole(try timeline.record(at: 0))
      blackHole(try timeline.state(at: 59))
      timeline.release()
    }
    guard summaries.count == 60 else {
      throw BenchError("the first screenful has \(summaries.count) rows, not 60")
    }
    report.add(
      "inspector.first_screenful", seconds * 1000, unit: "ms",
      baseline: "open 1M-record file, 60 rows + detail",
      atMost: 1000)
  }

  static func indexing(_ url: URL, _ report: inout BenchReport) throws {
    let orjson = try PythonBaseline.rate(url, module: "orjson").wall
    let python = try PythonBaseline.rate(url, module: "json").wall
    let before = Memory.anonymousResident()
    var timeline: Timeline?
    let seconds = try measureSeconds {
      let opened = try Timeline.open(url: url)
      opened.waitUntilIndexed()
      timeline = opened
    }
    let after = Memory.anonymousResident()
    guard let timeline else { return }
    let count = timeline.count
    // The generator stops at the simulator step that reaches `recordCount`, which may write a few
    // records more (1,000,032 with today's simulator): at least that many, none unreadable. A
    // failed check fails this group with its figures, not the whole bench (a precondition's words
    // are not printed by a release build).
    guard count >= recordCount, timeline.problemCount == 0 else {
      throw BenchError(
        "indexed \(count) records of at least \(recordCount), \(timeline.problemCount) problems")
    }
    let rate = Double(count) / seconds
    report.add(
      "inspector.index.rate", rate, unit: "records/s", baseline: "validating scan + index + keyframes")
    report.add(
      "inspector.index.orjson_rate", orjson, unit: "records/s", baseline: "python orjson.loads per line")
    report.add(
      "inspector.index.python_rate", python, unit: "records/s", baseline: "python json.loads per line")
    let reader = try RecordingReader(url: url)
    var decoded = 0
    let decodeSeconds = try measureSeconds {
      while decoded < 200_000, let entry = try reader.next() {
        blackHole(entry)
        decoded += 1
      }
    }
    report.add(
      "inspector.decode.rate", Double(decoded) / decodeSeconds, unit: "records/s",
      baseline: "RecordingReader, a full Record per line (first 200,000)")
    report.add(
      "inspector.index.vs_orjson", rate / orjson, unit: "x", baseline: "vs python orjson.loads, same file",
      atLeast: 1)
    report.add(
      "inspector.index.vs_json", rate / python, unit: "x", baseline: "vs python json.loads, same file")
    report.add(
      "inspector.memory.per_record", Double(after - before) / Double(count), unit: "bytes",
      baseline: "anonymous RSS growth (statm resident - shared) / records", atMost: 300)
    withExtendedLifetime(timeline) {}
    timeline.release()
  }

  static func seeking(_ url: URL, _ report: inout BenchReport) throws {
    let timeline = try Timeline.open(url: url)
    timeline.waitUntilIndexed()
    defer { timeline.release() }
    var random = BenchRandom(seed: 11)
    var timings: [Double] = []
    for _ in 0..<2000 {
      let position = Int(random.next() % UInt64(timeline.count))
      timings.append(
        try measureSeconds {
          blackHole(try timeline.state(at: position))
          blackHole(try timeline.record(at: position))
        } * 1000)
    }
    timings.sort()
    report.add(
      "inspector.seek.p50", timings[timings.count / 2], unit: "ms",
      baseline: "state + record at a random index", atMost: 20)
    report.add("inspector.seek.max", timings.last!, unit: "ms", baseline: "2,000 random seeks", atMost: 20)
    let filterSeconds = try measureSeconds {
      blackHole(
        try timeline.filter(
          TimelineFilter(kinds: [.userAction], name: .substring("play"), provider: "firebase")))
    }
    report.add(
      "inspector.filter.1m", filterSeconds * 1000, unit: "ms", baseline: "kind + name + provider over 1M")
  }

  /// The send figures: wall time and the app thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`, which
  /// leaves out time other processes take on this shared machine), best of 3 runs each.
  static func sendOverhead(_ report: inout BenchReport) throws {
    let sends = 200_000
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var baseline = Timing.worst
    var observing = Timing.worst
    var observed = Timing.worst
    var total = Double.infinity
    var dropped = 0
    // Rounds alternate the three set-ups so a noisy neighbour hits them alike; best of 5 each.
    for round in 0..<5 {
      let plain = try makeSendHub()
      baseline = baseline.best(Timing.measure { driveSends(plain, count: sends) })
      let noop = try makeSendHub()
      noop.addObserver(ClosureObserver { _ in })
      observing = observing.best(Timing.measure { driveSends(noop, count: sends) })
      let hub = try makeSendHub()
      let recorder = try Recorder(url: directory.appendingPathComponent("run\(round).jsonl"))
      let inspector = Inspector(sinks: [recorder], backlog: .dispatches(1 << 20))
      hub.addObserver(inspector)
      let start = DispatchTime.now().uptimeNanoseconds
      observed = observed.best(Timing.measure { driveSends(hub, count: sends) })
      hub.flush()
      inspector.close()
      total = min(total, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      dropped += inspector.droppedCount
      try? FileManager.default.removeItem(at: directory.appendingPathComponent("run\(round).jsonl"))
    }
    let collector = DispatchRecorder()
    let collecting = try makeSendHub()
    collecting.addObserver(collector)
    driveSends(collecting, count: 20_000)
    let dispatches = collector.dispatches
    let buildTime = bestOf(3) { for dispatch in dispatches { blackHole(Record(dispatch: dispatch)) } }
    let records = dispatches.map(Record.init(dispatch:))
    // The writer thread's whole work per dispatch, on one core: record, line, file write.
    let writer = try Recorder(url: directory.appendingPathComponent("writer.jsonl"))
    let writerTime = bestOf(3) {
      for start in stride(from: 0, to: dispatches.count, by: 512) {
        let batch = dispatches[start..<min(start + 512, dispatches.count)]
        writer.receive(batch.map { SinkItem(Record(dispatch: $0)) })
      }
      writer.flush()
    }
    writer.close()
    let encodeTime = bestOf(3) {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(1 << 20)
      for record in records {
        RecordLineEncoder.appendLine(record, to: &bytes)
        if bytes.count > 1 << 20 { bytes.removeAll(keepingCapacity: true) }
      }
      blackHole(bytes)
    }
    let perSend = 1e9 / Double(sends)
    report.add(
      "inspector.send.baseline", baseline.wall * perSend, unit: "ns/send", baseline: "no observer, wall")
    report.add(
      "inspector.send.cpu.ratio", observed.cpu / baseline.cpu, unit: "x",
      baseline: "app thread CPU time vs no observer", atMost: 2)
    report.add(
      "inspector.send.ratio", observed.wall / baseline.wall, unit: "x",
      baseline: "app thread wall time vs no observer",
      atMost: 2)
    report.add(
      "inspector.send.hub_observing.ratio", observing.cpu / baseline.cpu, unit: "x",
      baseline: "CPU, hub with a do-nothing observer (describes calls, checks rules)")
    report.add(
      "inspector.send.hub_observing.wall_ratio", observing.wall / baseline.wall, unit: "x",
      baseline: "wall, hub with a do-nothing observer")
    report.add(
      "inspector.send.own.ratio", observed.cpu / observing.cpu, unit: "x",
      baseline: "CPU, inspector vs do-nothing observer (the inspector's own share)")
    report.add(
      "inspector.send.written.ratio", total / baseline.wall, unit: "x", baseline: "wall, until all written")
    report.add(
      "inspector.send.dropped", Double(dropped), unit: "records", baseline: "5 × 200,000 sends", atMost: 0)
    let writerRate = Double(dispatches.count) / writerTime
    let hubRate = Double(sends) / observing.wall
    report.add(
      "inspector.writer.rate", writerRate, unit: "records/s",
      baseline: "writer thread alone: record, line, file (one core)")
    report.add(
      "inspector.writer.ratio", writerRate / hubRate, unit: "x",
      baseline: "writer records/s vs the hub's observed sends/s (\(Int(hubRate))/s)", atLeast: 1)
    report.add(
      "inspector.record.build", buildTime / Double(records.count) * 1e9, unit: "ns/record",
      baseline: "Record(dispatch:), background thread")
    report.add(
      "inspector.record.encode", encodeTime / Double(records.count) * 1e9, unit: "ns/record",
      baseline: "line encoder, background thread")
  }

  /// Building and encoding records alone (the inspector's background work per dispatch).
  static func encoding(_ report: inout BenchReport) throws {
    let collector = DispatchRecorder()
    let hub = try makeSendHub()
    hub.addObserver(collector)
    driveSends(hub, count: 20_000)
    let dispatches = collector.dispatches
    let rounds = 20
    let build = bestOf(3) {
      for _ in 0..<rounds { for dispatch in dispatches { blackHole(Record(dispatch: dispatch)) } }
    }
    let records = dispatches.map(Record.init(dispatch:))
    var bytes: [UInt8] = []
    bytes.reserveCapacity(1 << 21)
    let encode = bestOf(3) {
      for _ in 0..<rounds {
        for record in records {
          RecordLineEncoder.appendLine(record, to: &bytes)
          if bytes.count > 1 << 20 { bytes.removeAll(keepingCapacity: true) }
        }
      }
    }
    let count = Double(rounds * records.count)
    report.add(
      "inspector.record.build", build / count * 1e9, unit: "ns/record", baseline: "Record(dispatch:)")
    report.add("inspector.record.encode", encode / count * 1e9, unit: "ns/record", baseline: "line encoder")
  }

  // MARK: Helpers

  static func makeSendHub() throws -> AnalyticsHub<PodcastTaxonomy> {
    let hub = try AnalyticsHub<PodcastTaxonomy>(providers: PodcastMappings.providers())
    hub.startSession(properties: ["voiceOver": false])
    return hub
  }

  /// A fixed mix of tags: screens, actions, events, states.
  static func driveSends(_ hub: AnalyticsHub<PodcastTaxonomy>, count: Int) {
    let podcasts = Podcast.catalogue
    for step in 0..<count {
      let podcast = podcasts[step & 7]
      switch step & 7 {
      case 0: hub.send(screen: .podcasts)
      case 1: hub.send(userAction: .playPodcast(podcast))
      case 2: hub.send(event: .playerDidPlay(podcast))
      case 3: hub.send(screen: .favorites)
      case 4: hub.send(userAction: .addPodcastToFavorite(podcast))
      case 5: hub.send(state: .autoPlay(step & 16 == 0))
      case 6: hub.send(event: .playerDidStop(podcast, position: step))
      default: hub.send(userAction: .pausePodcast(podcast))
      }
    }
    hub.flush()
  }
}

/// Wall and thread CPU seconds of one run.
struct Timing {
  var wall: Double
  var cpu: Double

  static let worst = Timing(wall: .infinity, cpu: .infinity)

  func best(_ other: Timing) -> Timing { Timing(wall: min(wall, other.wall), cpu: min(cpu, other.cpu)) }

  static func measure(_ body: () -> Void) -> Timing {
    let cpuStart = threadCPUSeconds()
    let wall = measureSeconds(body)
    return Timing(wall: wall, cpu: threadCPUSeconds() - cpuStart)
  }

  static func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}

struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Resident memory from `/proc/self/statm`: resident minus shared (file-backed) pages, i.e. the
/// process's own anonymous memory, excluding the page cache of the recording (read with `pread`,
/// never mapped). Zero where `/proc` does not exist.
enum Memory {
  static func anonymousResident(of pid: Int32? = nil) -> Int {
    let path = "/proc/\(pid.map(String.init) ?? "self")/statm"
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ").compactMap { Int($0) }
    guard fields.count >= 3 else { return 0 }
    return (fields[1] - fields[2]) * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  /// The bytes malloc has handed out and not had back (glibc's `mallinfo2`, all arenas: small
  /// blocks plus mmapped ones), to tell what is held from what fragmentation keeps resident; 0
  /// where it cannot be asked. Swift does not import `mallinfo2`, whose 80-byte result x86-64
  /// returns through a hidden first argument, so it is called that way.
  static func heapInUse() -> Int {
    #if canImport(Glibc) && arch(x86_64)
      typealias Call = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer
      guard let symbol = dlsym(nil, "mallinfo2") else { return 0 }
      var fields = [Int](repeating: 0, count: 10)
      fields.withUnsafeMutableBytes { _ = unsafeBitCast(symbol, to: Call.self)($0.baseAddress!) }
      return fields[7] + fields[4]  // uordblks + hblkhd
    #else
      return 0
    #endif
  }
}

/// SplitMix64, for reproducible random seeks.
struct BenchRandom {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Writes each dispatch's line as it happens (generation only: no backlog, no drops).
final class SynchronousWriter: HubObserver, @unchecked Sendable {
  private let recorder: Recorder
  private var buffer: [UInt8] = []
  private(set) var count = 0
  private var failure: (any Error)?

  init(recorder: Recorder) {
    self.recorder = recorder
    buffer.reserveCapacity(8 << 20)
  }

  func hubDidDispatch(_ dispatch: Dispatch) {
    RecordLineEncoder.appendLine(Record(dispatch: dispatch), to: &buffer)
    count += 1
    if buffer.count >= 4 << 20 { write() }
  }

  private func write() {
    do { try recorder.appendLines(buffer) } catch { failure = error }
    buffer.removeAll(keepingCapacity: true)
  }

  func finish() throws {
    write()
    if let failure { throw failure }
  }
}
