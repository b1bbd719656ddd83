import Foundation

/// Reads one ``LogInput`` on a thread of its own, as it is written, and delivers its records into
/// the server's ingest like an SDK device's: a regular file is read from its start (or, when the
/// recording being continued holds its entries up to a place the file still starts with, from
/// there: ``RecordedLogs``) and then followed, standard input until it ends. A line is read once
/// it is complete; lines are split by ``LogLineBuffer``, in bounded memory.
///
/// Following loses and repeats nothing: a file truncated or rewritten in place (smaller than
/// what was read, or its first or last bytes read changed) is read again from its start. A file
/// replaced at its path is first read to its end; then the new file is read on from what was
/// read when it starts with every byte of it (an editor's save, written whole and renamed over),
/// else from its start, and the old one (rotated away) is still read while it grows, until it
/// was left unwritten for ``rotatedGrace`` (a logger reopens its file a while after the rename).
///
/// Entries are read by ``FirebaseLogParser`` and made records by ``FirebaseLogRecords``; a
/// problem is delivered as the source's `problem` (path, line, what is wrong) and counted as
/// `badLogEntry`; a line not understood is counted by its wording in the statistics'
/// `unreadLogLines`, the first of each wording delivered as a problem. When the ingest queue is full the reader waits for room: nothing read is lost.
/// ``stop()`` is seen between reads of 64 KiB, so a busy reader stops at once.
final class LogFollower: @unchecked Sendable {
  /// How long a follower waits at the end of a regular file before looking for more (`tail -f`
  /// looks each second).
  static let followInterval = 0.1
  /// How long a file rotated away is still read after it was last written: 30 s (300 looks).
  static let rotatedGrace = 300

  let input: LogInput
  private let context: ServerContext
  /// The file's absolute path, as ``RecordedLogs`` names it.
  private let file: String
  private let isRegularFile: Bool
  private let condition = NSCondition()
  private var stopping = false
  private var finished = false

  // The reader thread's own state, touched by it alone once it started.
  /// The file at the path (or standard input).
  private var current: LogReading
  /// Files rotated away from the path, still read while they grow.
  private var rotated: [LogReading] = []
  private var outbox: [IngestedEvent] = []
  private var chunk = [UInt8](repeating: 0, count: LogReading.chunkSize)

  /// Opens the input; throws a sentence naming the path when it cannot be read.
  init(_ input: LogInput, context: ServerContext) throws(LogInput.Failure) {
    self.input = input
    self.context = context
    file = input.isStandardInput ? "-" : RecordedLogs.absolute(input.path)
    let descriptor: Int32
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
    current = LogReading(descriptor)
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
    defer {
      if !input.isStandardInput { close(current.descriptor) }
      condition.lock()
      finished = true
      condition.broadcast()
      condition.unlock()
    }
    if isRegularFile { continueRecorded() }
    while !isStopping {
      if isRegularFile, let change = current.rewritten() {
        current.abandon(take: takeCurrent)
        notice("\(input.path) \(change); reading it again from its start")
        lseek(current.descriptor, 0, SEEK_SET)
        current = LogReading(current.descriptor)
        continue
      }
      let count = current.read(into: &chunk, take: takeCurrent)
      if count > 0 {
        flush()
        continue
      }
      if count < 0 {
        let message = String(cString: strerror(errno))
        let problem = FirebaseLogProblem(line: current.parser.lineNumber, message: message)
        takeCurrent([.problem(problem)], current.position)
        break
      }
      guard isRegularFile else { break }  // the pipe ended
      readRotated()
      if switchIfReplaced() { continue }
      flush()
      waitForMore()
    }
    if isRegularFile {
      stopReading(&current, take: takeCurrent)
      for index in rotated.indices {
        stopReading(&rotated[index], take: takeRotated)
        close(rotated[index].descriptor)
      }
    } else {
      current.end(take: takeCurrent)
      flush()
      context.deliver(.inputEnded(source: source))
    }
    flush()
  }

  /// Reading stops before the file's end: the entry left open is reported, and what is not
  /// read is told (a `listen` continuing the recording reads it).
  private func stopReading(_ reading: inout LogReading, take: ([FirebaseLogItem], LogPosition) -> Void) {
    let unread = reading.unreadBytes
    reading.abandon(take: take)
    if unread > 0 {
      notice(
        "\(input.path): reading stopped before line \(reading.parser.lineNumber + 1); its last \(unread) bytes are not read"
      )
    }
  }

  // MARK: Following

  /// Reads on from the place the recording being continued holds this file's entries up to, when
  /// the file starts with the bytes read up to there.
  private func continueRecorded() {
    guard let place = context.configuration.recordedLogs.place(file: file) else { return }
    if let resumed = LogPosition.reading(
      current.descriptor, upTo: place.offset, lines: place.lines, stop: { isStopping }),
      resumed.fingerprint == place.fingerprint
    {
      // The lines before the place are read again so a confirmation line just after it is not
      // taken for a call of its own.
      let tail = LogPosition.lines(current.descriptor, before: place.offset)
      current = LogReading(
        current.descriptor, from: resumed, parser: FirebaseLogParser(after: place.lines, tail: tail))
      notice(
        "\(input.path): its entries up to line \(place.lines) are in the recording; reading on from line \(place.lines + 1)"
      )
    } else if !isStopping {
      notice(
        "\(input.path) does not start with the \(place.offset) bytes the recording holds entries of; reading it from its start"
      )
    }
  }

  /// When another file is at the path (the one read was renamed away, or replaced): reads the old
  /// one to its end, then reads the new one on from what was read when it starts with it, else
  /// from its start, the old one kept while it grows.
  private func switchIfReplaced() -> Bool {
    guard current.isReplaced(at: input.path) else { return false }
    let opened = open(input.path, O_RDONLY | O_CLOEXEC)
    guard opened >= 0 else { return false }
    // What was written to the old file since the last read is read first.
    while !isStopping, current.read(into: &chunk, take: takeCurrent) > 0 {}
    let position = current.position
    if let same = LogPosition.reading(
      opened, upTo: position.offset, lines: position.lines, stop: { isStopping }),
      same.fingerprint == position.fingerprint
    {
      close(current.descriptor)
      current = LogReading(opened, from: same, parser: current.parser)
      notice("\(input.path) was replaced by a file that starts with what was read; reading on after it")
    } else {
      rotated.append(current)
      current = LogReading(opened)
      notice(
        "\(input.path) was replaced; reading the new file from its start (the old one is read while it grows)"
      )
    }
    return true
  }

  /// Reads what was appended to the files rotated away; ends those left unwritten for
  /// ``rotatedGrace`` looks.
  private func readRotated() {
    var index = 0
    while index < rotated.count, !isStopping {
      while rotated[index].read(into: &chunk, take: takeRotated) > 0 {}
      if rotated[index].idleReads > Self.rotatedGrace {
        rotated[index].end(take: takeRotated)
        close(rotated[index].descriptor)
        rotated.remove(at: index)
      } else {
        index += 1
      }
    }
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

  // MARK: Delivery

  /// Takes the file's `items` in order: the entries wait in the outbox as records, each with its
  /// place in the file after `position` (for a regular file), a problem is delivered after them.
  private func takeCurrent(_ items: [FirebaseLogItem], _ position: LogPosition) {
    take(items, place: isRegularFile ? place(position) : nil)
  }

  /// Takes a rotated file's items: their places are in no file at the path.
  private func takeRotated(_ items: [FirebaseLogItem], _ position: LogPosition) {
    take(items, place: nil)
  }

  private func place(_ position: LogPosition) -> RecordedLogs.Place {
    RecordedLogs.Place(
      file: file, offset: position.offset, lines: position.lines, fingerprint: position.fingerprint)
  }

  private func take(_ items: [FirebaseLogItem], place: @autoclosure () -> RecordedLogs.Place?) {
    var computed: RecordedLogs.Place??
    for item in items {
      switch item {
      case .entry(let entry):
        if computed == nil { computed = .some(place()) }
        outbox.append(FirebaseLogRecords.ingested(entry, input: input.name, place: computed ?? nil))
      case .problem(let problem):
        let place = "\(input.path) line \(problem.line)"
        if let wording = problem.wording {
          // Counted; the first of its wording shown.
          var first = false
          context.statistics.update { first = $0.unreadLogLines.count(wording, at: place) }
          guard first else { continue }
        } else {
          context.statistics.reject(.badLogEntry)
        }
        flush()
        context.deliver(.problem(source: source, message: "\(place): \(problem.message)"))
      }
    }
  }

  private func notice(_ message: String) {
    flush()
    context.deliver(.problem(source: source, message: message))
  }

  /// Delivers the records waiting, as one batch, once the queue has room.
  private func flush() {
    guard !outbox.isEmpty else { return }
    waitForRoom()
    context.deliver(outbox, address: input.name)
    outbox.removeAll()
  }

  private func waitForRoom() {
    guard !context.ingest.hasRoom else { return }
    let room = DispatchSemaphore(value: 0)
    context.ingest.whenRoom { room.signal() }
    room.wait()
  }
}
