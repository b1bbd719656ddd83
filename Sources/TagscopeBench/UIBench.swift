import AnalyticsHub
import Foundation
import PodcastDemo
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline
import TagscopeUI

/// Issue 5's figures: frame rendering with a million records, idle CPU of the real binary, and the
/// live demo at 10,000 events/s (CPU, redraws, key latency).
///
/// The process figures run the release `tagscope` binary (built next to this one) in a tmux
/// session 140×40 and read its CPU time from `/proc/PID/stat`.
enum UIBench {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  static func run(_ report: inout BenchReport) throws {
    try renderFrame(&report)
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("tagscope").path
    guard FileManager.default.isExecutableFile(atPath: binary) else {
      throw Failure(
        description: "\(binary) is missing: build it with `swift build -c release --product tagscope` first")
    }
    guard shell("command -v tmux >/dev/null").status == 0 else {
      throw Failure(description: "tmux is not installed (apt-get install tmux)")
    }
    try idle(&report, binary: binary)
    try live(&report, binary: binary)
  }

  // MARK: Rendering

  /// Real demo records (2,000 from the simulator on the real providers) repeated to 1,000,000 in
  /// the inspector's ``Timeline`` (a recording file plus its in-memory index), read through
  /// ``InspectorTimelineSource`` as the debugger does; frames of 200×60 at the tail, a page up,
  /// and at random positions (records read back from the file, state folded from keyframes).
  static func renderFrame(_ report: inout BenchReport) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-uirender-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let timeline = try millionRecords(in: directory.appendingPathComponent("million.jsonl"))
    defer { timeline.release() }
    let source = InspectorTimelineSource(timeline: timeline, sourceLabel: "bench")
    var state = UISession(source: source, mode: .replay, size: Size(width: 200, height: 60))
    guard state.known == 1_000_000 else {
      throw Failure(description: "timeline holds \(state.known) records")
    }
    var random = SeededGenerator(seed: 5)
    // Baseline: a blank 200×60 grid (allocation and fill only).
    var blank = 0.0
    for _ in 0..<50 { blank += time { _ = Grid(size: state.size) } }
    var samples: [Double] = []
    _ = render(state.state)
    for frame in 0..<400 {
      var grid: Grid?
      // A key's whole way to the frame: the reducer, its effects reading the timeline, the render.
      samples.append(
        time {
          switch frame % 4 {
          case 0: state.apply(.key(.character("G")))
          case 1: state.apply(.key(.pageUp))
          default:
            state.apply(.key(.character(":")))
            for digit in String(Int.random(in: 1...source.count, using: &random)) {
              state.apply(.key(.character(digit)))
            }
            state.apply(.key(.enter))
          }
          grid = render(state.state)
        })
      precondition(grid?.size == state.size)
    }
    samples.sort()
    let median = samples[samples.count / 2] * 1000
    let p99 = samples[samples.count * 99 / 100] * 1000
    report.add(
      "ui.render.ms", median, unit: "ms",
      baseline:
        "median of 400 keys to frames 200×60 (reducer, effects, render), 1,000,000 records in the inspector Timeline (blank grid alone: "
        + String(format: "%.3f", blank / 50 * 1000) + " ms)", atMost: 2)
    report.add(
      "ui.render.p99.ms", p99, unit: "ms",
      baseline: "99th percentile of the same frames (shared machine: includes scheduling noise)")
  }

  static func millionRecords(in url: URL) throws -> Timeline {
    let clock = ManualClock(start: DemoHub.seededEpoch)
    let hub = try DemoHub.make(providers: PodcastMappings.providers(), clock: clock, seed: 3)
    let collected = Collected()
    hub.addObserver(ClosureObserver { collected.append(Record(dispatch: $0)) })
    let simulator = PodcastSimulator(hub: hub, seed: 3)
    while collected.count < 2_000 {
      clock.advance(by: simulator.step())
      hub.flush()
    }
    let templates = collected.records
    let span = templates.last!.time.timeIntervalSince(templates.first!.time) + 1
    let timeline = try Timeline.live(
      recordingTo: url, header: RecordingHeader(app: "Podcasts", started: DemoHub.seededEpoch))
    var batch: [SinkItem] = []
    batch.reserveCapacity(10_000)
    for index in 0..<1_000_000 {
      var record = templates[index % templates.count]
      record.seq = UInt64(index + 1)
      record.time += Double(index / templates.count) * span
      batch.append(SinkItem(record))
      if batch.count == 10_000 {
        timeline.receive(batch)
        batch.removeAll(keepingCapacity: true)
      }
    }
    return timeline
  }

  final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Record] = []
    func append(_ record: Record) {
      lock.lock()
      storage.append(record)
      lock.unlock()
    }
    var count: Int {
      lock.lock()
      defer { lock.unlock() }
      return storage.count
    }
    var records: [Record] {
      lock.lock()
      defer { lock.unlock() }
      return storage
    }
  }

  // MARK: The real binary

  /// `tagscope replay` paused in tmux: CPU time over 10 s.
  static func idle(_ report: inout BenchReport, binary: String) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-uibench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let recording = directory.appendingPathComponent("idle.jsonl").path
    guard
      shell("'\(binary)' demo --headless --seed 9 --count 5000 --record '\(recording)' >/dev/null").status
        == 0
    else { throw Failure(description: "could not record with \(binary) demo --headless") }
    let session = Session(name: "uibench-idle-\(getpid())")
    defer { session.kill() }
    let pid = try session.start("LANG=C.UTF-8 TERM=xterm-256color exec '\(binary)' replay '\(recording)'")
    Thread.sleep(forTimeInterval: 1)
    let before = try cpuSeconds(pid)
    let start = Date()
    Thread.sleep(forTimeInterval: 10)
    let used = try cpuSeconds(pid) - before
    let elapsed = Date().timeIntervalSince(start)
    session.send("q")
    report.add(
      "ui.idle.cpu_percent", used / elapsed * 100, unit: "% core",
      baseline: "tagscope replay paused in tmux 140×40, utime+stime over \(Int(elapsed)) s", atMost: 1)
  }

  /// `tagscope demo --rate 10000` in tmux for 10 s: CPU of the whole process, frames per second from
  /// the loop's own count (`TAGSCOPE_UI_STATS`), and key latency measured from outside: `tmux
  /// send-keys k` until `capture-pane` shows the selection moved.
  static func live(_ report: inout BenchReport, binary: String) throws {
    let stats = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-uistats-\(getpid()).json")
    defer { try? FileManager.default.removeItem(at: stats) }
    let session = Session(name: "uibench-live-\(getpid())")
    defer { session.kill() }
    let pid = try session.start(
      "LANG=C.UTF-8 TERM=xterm-256color TAGSCOPE_UI_STATS='\(stats.path)' exec '\(binary)' demo --seed 1 --rate 10000"
    )
    Thread.sleep(forTimeInterval: 2)
    let before = try cpuSeconds(pid)
    let start = Date()
    var latencies: [Double] = []
    // Pause (k), then nine more moves, each timed until the screen shows it: PAUSED in the header,
    // then the selected position in the Events title.
    for press in 0..<10 {
      Thread.sleep(forTimeInterval: 0.7)
      latencies.append(session.timeKey(press))
    }
    session.send("G")
    let remaining = 10 - Date().timeIntervalSince(start)
    if remaining > 0 { Thread.sleep(forTimeInterval: remaining) }
    let used = try cpuSeconds(pid) - before
    let elapsed = Date().timeIntervalSince(start)
    session.send("q")
    var loop: LoopStats?
    for _ in 0..<50 where loop == nil {
      Thread.sleep(forTimeInterval: 0.1)
      loop = (try? Data(contentsOf: stats)).flatMap { try? JSONDecoder().decode(LoopStats.self, from: $0) }
    }
    guard let loop else { throw Failure(description: "the live demo did not write its loop statistics") }
    latencies.sort()
    report.add(
      "ui.live.cpu_percent", used / elapsed * 100, unit: "% core",
      baseline: "tagscope demo --rate 10000 in tmux, utime+stime over \(Int(elapsed)) s (whole process)",
      atMost: 100)
    report.add(
      "ui.live.redraws_per_s", loop.framesPerSecond, unit: "frames/s",
      baseline: "\(loop.frames) frames in \(String(format: "%.1f", loop.seconds)) s (event loop count)",
      atMost: 30)
    report.add(
      "ui.live.key_latency_ms", latencies[latencies.count - 1], unit: "ms",
      baseline: "worst of 10 keys, tmux send-keys → capture-pane shows it (median "
        + String(format: "%.1f", latencies[latencies.count / 2]) + " ms; in-process worst "
        + String(format: "%.1f", loop.maxKeyLatencyMilliseconds) + " ms)", atMost: 50)
  }

  // MARK: Helpers

  static func time(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  /// utime + stime of a process, in seconds.
  static func cpuSeconds(_ pid: Int32) throws -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { throw Failure(description: "cannot read /proc/\(pid)/stat (has the UI exited?)") }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // After the command name: state is field 3, utime 14 and stime 15 (1-based over the whole line).
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
      throw Failure(description: "unexpected /proc/\(pid)/stat format")
    }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// Runs `command` with `/bin/sh` (`popen`: Foundation's `Process` can miss the exit of a child
  /// that leaves a daemon behind, as tmux does); with `capture`, returns its standard output. A
  /// command that starts a daemon must not be captured: the daemon would keep the pipe open.
  @discardableResult
  static func shell(_ command: String, capture: Bool = true) -> (status: Int32, output: String) {
    let line = capture ? command + " 2>/dev/null" : command + " >/dev/null 2>&1"
    guard let stream = popen(line, "r") else { return (127, "") }
    var output = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = fread(&buffer, 1, buffer.count, stream)
      if count <= 0 { break }
      output.append(contentsOf: buffer[0..<count])
    }
    let status = pclose(stream)
    return ((status >> 8) & 0xFF, String(decoding: output, as: UTF8.self))
  }

  /// A detached tmux session on its own server socket.
  struct Session {
    let name: String

    func start(_ command: String) throws -> Int32 {
      let escaped = command.replacingOccurrences(of: "\"", with: "\\\"")
      guard
        shell("tmux -L \(name) new-session -d -s ui -x 140 -y 40 \"\(escaped)\"", capture: false).status == 0
      else { throw Failure(description: "tmux could not start: \(command)") }
      let pane = shell("tmux -L \(name) list-panes -t ui -F '#{pane_pid}'").output
      guard let pid = Int32(pane.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw Failure(description: "no pane pid from tmux")
      }
      return pid
    }

    func send(_ key: String) { shell("tmux -L \(name) send-keys -t ui '\(key)'", capture: false) }

    func capture() -> String { shell("tmux -L \(name) capture-pane -p -t ui").output }

    func kill() { shell("tmux -L \(name) kill-server", capture: false) }

    /// Presses the `press`th key of a latency run (`k` to pause, then `k`/`j` in turn) and returns
    /// the milliseconds until the screen shows it (PAUSED in the header, then the selected position
    /// in the Events title moved); 2 s at most.
    func timeKey(_ press: Int) -> Double {
      let before = position()
      let sent = Date()
      send(press == 0 ? "k" : (press % 2 == 0 ? "j" : "k"))
      while Date().timeIntervalSince(sent) < 2 {
        let now = position()
        if press == 0 ? now.paused : (now.cursor != before.cursor && now.cursor != nil) { break }
      }
      return Date().timeIntervalSince(sent) * 1000
    }

    /// Whether the header says PAUSED, and the selected position in the Events title.
    func position() -> (paused: Bool, cursor: Int?) {
      let lines = capture().split(separator: "\n", omittingEmptySubsequences: false)
      let paused = lines.first?.contains("PAUSED") ?? false
      guard lines.count > 1, let range = lines[1].range(of: "Events ") else { return (paused, nil) }
      let digits = lines[1][range.upperBound...].prefix { $0.isNumber || $0 == "," }.filter(\.isNumber)
      return (paused, Int(digits))
    }
  }
}
