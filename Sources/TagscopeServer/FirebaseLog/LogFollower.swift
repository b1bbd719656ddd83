import Foundation

/// Reads one ``LogInput`` on a thread of its own, as it is written, and delivers its records into
/// the server's ingest like an SDK device's: a regular file is read from its start and then
/// followed (lines appended later are read; a file truncated or replaced by a shorter one is read
/// again from its start), standard input until it ends. A line is read once it is complete.
///
/// Entries are read by ``FirebaseLogParser`` and made records by ``FirebaseLogRecords``; a
/// problem is delivered as the source's `problem` (path, line, what is wrong) and counted as
/// `badLogEntry`. When the ingest queue is full the reader waits for room: nothing read is lost.
final class LogFollower: @unchecked Sendable {
  /// How long a follower waits at the end of a regular file before looking for more (`tail -f`
  /// looks each second).
  static let followInterval = 0.1
  private static let chunkSize = 64 * 1024

  let input: LogInput
  private let context: ServerContext
  /// Read by the reader thread only once it started (reopened when the path is replaced).
  private var descriptor: Int32
  private let isRegularFile: Bool
  private let condition = NSCondition()
  private var stopping = false
  private var finished = false

  /// Opens the input; throws a sentence naming the path when it cannot be read.
  init(_ input: LogInput, context: ServerContext) throws(LogInput.Failure) {
    self.input = input
    self.context = context
    if input.isStandardInput {
      descriptor = 0
    } else {
      descriptor = open(input.path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        throw LogInput.Failure(
          description:
            "cannot read the \(input.format.rawValue) log \(input.path): \(String(cString: strerror(errno)))")
      }
    }
    var status = stat()
    if fstat(descriptor, &status) == 0 {
      isRegularFile = (status.st_mode & S_IFMT) == S_IFREG
      if (status.st_mode & S_IFMT) == S_IFDIR {
        if !input.isStandardInput { close(descriptor) }
        throw LogInput.Failure(
          description: "cannot read the \(input.format.rawValue) log \(input.path): it is a directory")
      }
    } else {
      isRegularFile = false
    }
  }

  /// Starts reading on a thread of its own.
  func start() {
    let thread = Thread { [self] in run() }
    thread.name = "tagscope log \(input.name)"
    thread.start()
  }

  /// Stops following. A file's reader finishes the chunk it holds and returns before this does;
  /// standard input's may be blocked in a read, and is left to end with the process.
  func stop() {
    condition.lock()
    stopping = true
    condition.broadcast()
    if isRegularFile {
      while !finished { condition.wait() }
    }
    condition.unlock()
  }

  private var source: String { "\(input.format.rawValue) log \(input.name)" }

  private func run() {
    var parser = FirebaseLogParser()
    var pending: [UInt8] = []
    var offset = 0
    var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
    defer {
      if !input.isStandardInput { close(descriptor) }
      condition.lock()
      finished = true
      condition.broadcast()
      condition.unlock()
    }
    while !isStopping {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, Self.chunkSize) }
      if count > 0 {
        offset += count
        pending.append(contentsOf: buffer[0..<count])
        deliver(lines(from: &pending, parser: &parser))
        continue
      }
      if count < 0, errno == EINTR { continue }
      if count < 0 {
        deliver([
          .problem(FirebaseLogProblem(line: parser.lineNumber, message: String(cString: strerror(errno))))
        ])
        break
      }
      guard isRegularFile else { break }  // the pipe ended
      var status = stat()
      if fstat(descriptor, &status) == 0, Int(status.st_size) < offset {
        // Truncated (or rewritten shorter): read it again from its start.
        lseek(descriptor, 0, SEEK_SET)
        offset = 0
        pending.removeAll()
        parser = FirebaseLogParser()
        context.deliver(
          .problem(source: source, message: "\(input.path) was truncated; reading it again from its start"))
        continue
      }
      if let replacement = replaced(status) {
        // Replaced by a new file at the same path (an editor's or `>` after `mv`): follow the new one.
        close(descriptor)
        descriptor = replacement
        offset = 0
        pending.removeAll()
        parser = FirebaseLogParser()
        context.deliver(
          .problem(source: source, message: "\(input.path) was replaced; reading the new file from its start")
        )
        continue
      }
      waitForMore()
    }
    if !pending.isEmpty {
      var items = parser.feed(String(decoding: pending, as: UTF8.self))
      items += parser.finish()
      deliver(items)
    } else {
      deliver(parser.finish())
    }
    if input.isStandardInput {
      context.deliver(.problem(source: source, message: "standard input ended"))
    }
  }

  /// A descriptor of the file now at the path, when it is another file than the one read
  /// (`status`, the one read).
  private func replaced(_ status: stat) -> Int32? {
    var current = stat()
    guard stat(input.path, &current) == 0, current.st_ino != status.st_ino || current.st_dev != status.st_dev,
      (current.st_mode & S_IFMT) == S_IFREG
    else { return nil }
    let opened = open(input.path, O_RDONLY | O_CLOEXEC)
    return opened >= 0 ? opened : nil
  }

  private var isStopping: Bool {
    condition.lock()
    defer { condition.unlock() }
    return stopping
  }

  private func waitForMore() {
    condition.lock()
    if !stopping { _ = condition.wait(until: Date(timeIntervalSinceNow: Self.followInterval)) }
    condition.unlock()
  }

  /// The complete lines at the front of `pending`, parsed; the rest stays.
  private func lines(from pending: inout [UInt8], parser: inout FirebaseLogParser) -> [FirebaseLogItem] {
    var items: [FirebaseLogItem] = []
    var start = 0
    while let end = pending[start...].firstIndex(of: 0x0A) {
      items += parser.feed(String(decoding: pending[start..<end], as: UTF8.self))
      start = end + 1
    }
    pending.removeFirst(start)
    return items
  }

  /// Delivers `items` in order: each problem as the source's problem, the entries between them as
  /// one batch of SDK events, waiting for room in the queue first.
  private func deliver(_ items: [FirebaseLogItem]) {
    var events: [IngestedEvent] = []
    func flush() {
      guard !events.isEmpty else { return }
      waitForRoom()
      context.deliver(events, address: input.name)
      events.removeAll()
    }
    for item in items {
      switch item {
      case .entry(let entry): events.append(FirebaseLogRecords.ingested(entry, input: input.name))
      case .problem(let problem):
        flush()
        context.statistics.reject(.badLogEntry)
        context.deliver(
          .problem(source: source, message: "\(input.path) line \(problem.line): \(problem.message)"))
      }
    }
    flush()
  }

  private func waitForRoom() {
    guard !context.ingest.hasRoom else { return }
    let room = DispatchSemaphore(value: 0)
    context.ingest.whenRoom { room.signal() }
    room.wait()
  }
}
