import Foundation
import TagscopeServer

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 42, item 6 (`listen --log firebase` against hostile logs):
///
/// - one entry of 1k, 10k and 100k parameters, from `follow` to its record (parsed, made a record
///   and checked, in process): the process's CPU time (every thread's, so other processes on a
///   busy machine do not count), the median of 15, linear work making the 100k/10k ratio about 10;
/// - a 32 MiB line without a newline, then an entry, read by the release `tagscope listen`: the
///   time to the entry's record and the process's peak memory;
/// - SIGTERM to a `tagscope listen` busy reading a followed file of large entries: the time to
///   its exit, its summary printed.
enum HostileFirebaseLogBench {
  static func run(_ report: inout BenchReport) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "hostile-firebaselog-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var seconds: [Int: Double] = [:]
    for count in [1_000, 10_000, 100_000] {
      let log = directory.appendingPathComponent("entry-\(count).log")
      try Data((entry("big", parameters: count) + "\n").utf8).write(to: log)
      var timings: [Double] = []
      for _ in 0..<15 { timings.append(try followToRecord(log)) }
      seconds[count] = timings.sorted()[7]
      report.add(
        "firebaselog entry of \(count / 1_000)k parameters", seconds[count]!, unit: "s",
        baseline:
          "CPU time, follow to record, in process (parse, record, rules); one Android line of \(count) parameters"
      )
    }
    report.add(
      "firebaselog 100k/10k parameters time", seconds[100_000]! / seconds[10_000]!, unit: "×",
      baseline:
        "10 when linear (quadratic once: 20,000 parameters took 28.6 s; 18.4 in issue 42; 11.1 by this measure at f01863f)",
      atMost: 12)
    let binary =
      ProcessInfo.processInfo.environment["TAGSCOPE_BINARY"]
      ?? Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("tagscope").path
    try longLine(binary, directory: directory, &report)
    try busyTermination(binary, directory: directory, &report)
  }

  /// An Android `FA-SVC` event line (as in `Tests/Fixtures/firebase-log/android-real.txt`) with
  /// `parameters` integer parameters.
  static func entry(_ name: String, parameters: Int) -> String {
    let fields = (0..<parameters).map { "k\($0)=\($0 % 10)" }.joined(separator: ", ")
    return "V/FA-SVC  ( 4120): Logging event: origin=app,name=\(name),params=Bundle[{ga_event_origin(_o)=app"
      + (parameters > 0 ? ", " + fields : "") + "}]"
  }

  /// The process's CPU seconds (user and system, every thread) from following `log` on a new
  /// in-process server to its first record.
  static func followToRecord(_ log: URL) throws -> Double {
    let arrived = DispatchSemaphore(value: 0)
    let server = try QueryAPIBench.blocking {
      try await ListenServer.start(configuration: ListenConfiguration(port: 0)) { event in
        if case .records(let records) = event, !records.isEmpty { arrived.signal() }
      }
    }
    let start = cpuSeconds()
    try server.follow(LogInput(format: .firebase, path: log.path))
    arrived.wait()
    let seconds = cpuSeconds() - start
    try QueryAPIBench.blocking { try await server.shutdown() }
    return seconds
  }

  /// This process's CPU time so far, every thread: `CLOCK_PROCESS_CPUTIME_ID`, exact (the user
  /// and system times of `getrusage` are split from it by samples and kept from going backwards,
  /// which moves CPU time between close readings: 1k parameters read as 0.1 ms).
  static func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// The 32 MiB line: seconds to the record after it, and the peak memory of `listen`.
  static func longLine(_ binary: String, directory: URL, _ report: inout BenchReport) throws {
    let log = directory.appendingPathComponent("long-line.log")
    let handle = try FileHandle(forWritingTo: create(log))
    handle.write(Data((entry("before", parameters: 1) + "\n").utf8))
    let block = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
    for _ in 0..<32 { handle.write(block) }
    handle.write(Data(("\n" + entry("after", parameters: 1) + "\n").utf8))
    try handle.close()
    let child = try ListenChild(binary, ["--log", "firebase", log.path])
    let start = DispatchTime.now().uptimeNanoseconds
    child.waitFor(#"event "after""#)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let end = try child.terminate()
    guard child.output.contains("more than the") else {
      throw BenchError("listen did not report the 32 MiB line: \(child.output.suffix(400))")
    }
    report.add(
      "firebaselog 32 MiB line, to the next entry", seconds, unit: "s",
      baseline: "tagscope listen --headless --log firebase FILE (was 11.3 s), from its start", atMost: 2)
    report.add(
      "firebaselog 32 MiB line, peak memory", end.peakMB, unit: "MB",
      baseline: "the listen process's peak RSS (was 326 MB)", atMost: 100)
  }

  /// SIGTERM while `listen` reads a file of 600 entries of 10k parameters: seconds to its exit.
  static func busyTermination(_ binary: String, directory: URL, _ report: inout BenchReport) throws {
    let log = directory.appendingPathComponent("busy.log")
    let handle = try FileHandle(forWritingTo: create(log))
    let line = Data((entry("busy", parameters: 10_000) + "\n").utf8)
    for _ in 0..<600 { handle.write(line) }
    try handle.close()
    let child = try ListenChild(binary, ["--log", "firebase", log.path])
    child.waitFor(#"event "busy""#)
    let end = try child.terminate()
    let read = child.output.components(separatedBy: #"event "busy""#).count - 1
    guard child.output.contains("stopped: ") else {
      throw BenchError("listen printed no summary after SIGTERM: \(child.output.suffix(400))")
    }
    report.add(
      "firebaselog SIGTERM to exit while busy", end.seconds, unit: "s",
      baseline:
        "listen reading 600 entries of 10k parameters (\(read) read when it stopped), summary printed",
      atMost: 1)
  }

  static func create(_ url: URL) throws -> URL {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw BenchError("cannot create \(url.path)")
    }
    return url
  }
}

/// `tagscope listen --headless --port 0 ARGUMENTS` in a child process whose output (standard
/// output and error together) is read as it comes.
final class ListenChild: @unchecked Sendable {
  struct End {
    /// Seconds from SIGTERM to the exit.
    var seconds: Double
    var peakMB: Double
  }

  private let pid: pid_t
  private let condition = NSCondition()
  private var text = ""
  private var ended = false

  init(_ binary: String, _ arguments: [String]) throws {
    var pipe: [Int32] = [0, 0]
    guard Glibc.pipe(&pipe) == 0 else { throw BenchError("pipe failed") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, pipe[1], 2)
    posix_spawn_file_actions_addclose(&actions, pipe[0])
    let all = [binary, "listen", "--headless", "--port", "0"] + arguments
    let argv: [UnsafeMutablePointer<CChar>?] = all.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, binary, &actions, nil, argv, environ)
    close(pipe[1])
    guard spawned == 0 else {
      close(pipe[0])
      throw BenchError("could not run \(binary): error \(spawned)")
    }
    self.pid = pid
    let descriptor = pipe[0]
    Thread { [self] in read(descriptor) }.start()
  }

  private func read(_ descriptor: Int32) {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      condition.lock()
      if count > 0 { text += String(decoding: buffer[0..<count], as: UTF8.self) } else { ended = true }
      condition.broadcast()
      condition.unlock()
      if count <= 0 { break }
    }
    close(descriptor)
  }

  /// Everything printed so far.
  var output: String {
    condition.lock()
    defer { condition.unlock() }
    return text
  }

  /// Waits until `needle` was printed (or the output ended).
  func waitFor(_ needle: String) {
    condition.lock()
    while !text.contains(needle), !ended { condition.wait() }
    condition.unlock()
  }

  /// Sends SIGTERM and waits for the exit and the end of the output; the peak memory is the
  /// child's `VmHWM` read before the signal (`wait4`'s `ru_maxrss` also counts the memory of this
  /// process the child shared before its `exec`).
  func terminate() throws -> End {
    let peak = Self.peakKB(pid)
    let start = DispatchTime.now().uptimeNanoseconds
    kill(pid, SIGTERM)
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else { throw BenchError("wait4 failed: errno \(errno)") }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    condition.lock()
    while !ended { condition.wait() }
    condition.unlock()
    return End(seconds: seconds, peakMB: Double(peak) / 1024)
  }

  /// The peak resident set of process `pid` (`VmHWM` in `/proc/PID/status`), in KiB.
  static func peakKB(_ pid: pid_t) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
}
