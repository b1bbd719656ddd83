import AnalyticsHub
import Foundation
import SystemPackage
import TagscopeRecording

/// The store the debugger reads, live and in replay alike: records backed by a recording file
/// plus a compact in-memory index (about 21 bytes per record in columns, plus keyframes every 256
/// records of each source), so a debugger left open for a day does not grow without bound.
///
/// - Replay: ``open(path:)`` reads the header, then indexes the file on a background thread;
///   ``count`` grows as it goes (the first screenful is there within milliseconds).
/// - Live: ``live(recordingTo:header:)`` records to the given file (or a temporary one) and
///   indexes each record as it is appended (``append(_:)``, or as an ``Inspector`` sink).
///
/// Reading (any thread): ``summary(at:)`` from the index alone; ``record(at:)`` reads the line
/// back from the file (small LRU cache); ``state(at:)`` folds from the nearest keyframe (never
/// from the start); ``filter(_:in:)`` scans the index. Indices are positions from 0 in the order
/// records were appended; drop markers become ``gaps`` and bad lines ``problems``.
public final class Timeline: RecordSink, @unchecked Sendable {
  /// The recording's header.
  public let header: RecordingHeader
  /// The backing file.
  public let url: URL
  /// Whether records are appended live (rather than indexed from an existing file).
  public let isLive: Bool
  /// Whether the backing file is a temporary one this timeline made.
  public let isTemporary: Bool

  private let lock = NSLock()
  /// Held by ``sync()`` and ``release(keepTemporary:)``: an `fsync` never holds appends or reads
  /// back, and the descriptor is never closed under it.
  private let syncLock = NSLock()
  private let indexed = NSCondition()
  private let file: LineFile
  private var index = TimelineIndex()
  private var cache = RecordCache(capacity: 256)
  private var storedProblems: [LineProblem] = []
  private var totalProblems = 0
  private var storedGaps: [TimelineGap] = []
  private var fileEnd: UInt64 = 0
  private var indexing = false
  private var indexingError: TimelineError?
  private var ended = false
  private var released = false
  private var writeFailure: SystemError?

  /// Problems kept (later ones are only counted).
  public static let maximumStoredProblems = 10_000

  private init(header: RecordingHeader, url: URL, file: LineFile, live: Bool, temporary: Bool) {
    self.header = header
    self.url = url
    self.file = file
    isLive = live
    isTemporary = temporary
  }

  // MARK: Opening

  /// Opens a recording for replay; indexing continues in the background (see ``isIndexing``).
  /// `-` reads standard input, copied to a temporary recording as it arrives; so is a pipe or FIFO.
  ///
  /// - Throws: ``RecordingReadError`` when the file cannot be opened or is not a recording.
  public static func open(path: String) throws(RecordingReadError) -> Timeline {
    if path == "-" { return try openStandardInput() }
    // The reader's descriptor is read sequentially by the indexing thread, which owns it; the
    // timeline's own descriptor serves random reads and is closed by `release()` without racing
    // a read in progress on the other.
    let reader = try RecordingReader(path: path)
    // A pipe or FIFO (`<(zcat r.jsonl.gz)`) gives its bytes once: copied as it arrives, like `-`.
    if reader.isReadOnce { return try copying(reader) }
    let file: LineFile
    do { file = try LineFile.openForReading(path: path) } catch { throw .system(error) }
    let timeline = Timeline(
      header: reader.header, url: URL(fileURLWithPath: path), file: file, live: false, temporary: false)
    timeline.startIndexing(reader)
    return timeline
  }

  /// Opens the recording at `url` for replay (see ``open(path:)``).
  public static func open(url: URL) throws(RecordingReadError) -> Timeline { try open(path: url.path) }

  /// A live timeline recording to `url`, or to a new temporary file when `url` is `nil`.
  public static func live(
    recordingTo url: URL? = nil, header: RecordingHeader = RecordingHeader(started: Date())
  )
    throws(SystemError) -> Timeline
  {
    let target =
      url
      ?? FileManager.default.temporaryDirectory.appendingPathComponent(
        "tagscope-\(fileStamp())-\(UUID().uuidString.prefix(8)).jsonl")
    let file = try LineFile.create(path: target.path)
    var bytes: [UInt8] = []
    RecordLineEncoder.appendLine(header, to: &bytes)
    try file.write(bytes)
    let timeline = Timeline(header: header, url: target, file: file, live: true, temporary: url == nil)
    timeline.fileEnd = UInt64(bytes.count)
    return timeline
  }

  private static func openStandardInput() throws(RecordingReadError) -> Timeline {
    try copying(RecordingReader(file: LineFile.standardInput()))
  }

  /// A timeline of what `reader` (an input read once) gives, copied to a temporary recording as
  /// it arrives.
  private static func copying(_ reader: RecordingReader) throws(RecordingReadError) -> Timeline {
    let timeline: Timeline
    do { timeline = try live(header: reader.header) } catch { throw .system(error) }
    timeline.lock.lock()
    timeline.indexing = true
    timeline.lock.unlock()
    let handoff = Handoff(reader)
    _ = WorkerThread(name: "tagscope.timeline.stdin") { _ in
      let reader = handoff.value
      do {
        while let entry = try reader.next() {
          switch entry {
          case .record(let record, _): try timeline.append(record)
          case .dropped(let marker, _): try timeline.append(marker)
          case .problem(let problem): timeline.report(problem)
          }
        }
        timeline.finishIndexing(error: nil)
      } catch let error as SystemError {
        timeline.finishIndexing(error: .system(error))
      } catch let error as RecordingReadError {
        timeline.finishIndexing(error: .input(error))
      } catch {
        timeline.finishIndexing(error: .system(SystemError("read", reader.fileName, .ioError)))
      }
    }
    return timeline
  }

  private func startIndexing(_ reader: RecordingReader) {
    indexing = true
    nonisolated(unsafe) let reader = reader
    _ = WorkerThread(name: "tagscope.timeline.index", qualityOfService: .userInitiated) { [self] _ in
      index(reader)
    }
  }

  /// Indexes the rest of the file after the header, line by line: the record decoder with the
  /// index fields' builder for records, the reader's full decoding for anything else (markers,
  /// errors). Commits in growing batches so the first screenful is there at once.
  private func index(_ reader: RecordingReader) {
    var builder = IndexFieldsBuilder()
    var batch: [(IndexFields, UInt64, Int)] = []
    var limit = 64
    batch.reserveCapacity(4096)
    let name = url.path
    func commit() {
      guard !batch.isEmpty else { return }
      lock.lock()
      for (fields, offset, length) in batch { index.add(fields, offset: offset, length: length) }
      fileEnd = reader.consumedOffset
      lock.unlock()
      batch.removeAll(keepingCapacity: true)
      limit = min(limit * 4, 4096)
    }
    func handle(_ entry: RecordingEntry?) {
      switch entry {
      case .record(let record, let location)?:
        batch.append((IndexFields(record), location.offset, location.length))
      case .dropped(let marker, _)?:
        commit()
        lock.lock()
        storedGaps.append(TimelineGap(beforeIndex: index.count, marker: marker))
        lock.unlock()
      case .problem(let problem)?:
        commit()
        report(problem)
      case nil: break
      }
    }
    do {
      while let line = try reader.nextRawLine() {
        switch line {
        case .line(let bytes, let number, let offset, terminated: true):
          if builder.decode(bytes) {
            batch.append((builder.fields, offset, bytes.count))
          } else {
            handle(RecordingReader.entry(bytes, offset: offset, number: number, last: false, file: name))
          }
        case .line(let bytes, let number, let offset, terminated: false):
          handle(RecordingReader.entry(bytes, offset: offset, number: number, last: true, file: name))
        case .overlong(let problem): handle(.problem(problem))
        }
        if batch.count >= limit {
          commit()
          if isReleased { break }
        }
      }
      commit()
      finishIndexing(error: nil)
    } catch {
      commit()
      if case .system(let failure) = error {
        finishIndexing(error: .system(failure))
      } else {
        finishIndexing(error: nil)
      }
    }
  }

  private var isReleased: Bool {
    lock.lock()
    defer { lock.unlock() }
    return released
  }

  private func report(_ problem: LineProblem) {
    lock.lock()
    totalProblems += 1
    if storedProblems.count < Self.maximumStoredProblems { storedProblems.append(problem) }
    lock.unlock()
  }

  private func finishIndexing(error: TimelineError?) {
    lock.lock()
    indexing = false
    indexingError = error
    lock.unlock()
    indexed.lock()
    indexed.broadcast()
    indexed.unlock()
  }

  // MARK: Reading

  /// Records indexed so far.
  public var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return index.count
  }

  /// Whether the background indexing (replay, standard input) is still running.
  public var isIndexing: Bool {
    lock.lock()
    defer { lock.unlock() }
    return indexing
  }

  /// Why background indexing stopped early, if it did.
  public var indexingFailure: TimelineError? {
    lock.lock()
    defer { lock.unlock() }
    return indexingError
  }

  /// Bytes of the backing file indexed so far (for a progress display).
  public var indexedBytes: UInt64 {
    lock.lock()
    defer { lock.unlock() }
    return fileEnd
  }

  /// Blocks until background indexing has finished (at once for live timelines).
  public func waitUntilIndexed() {
    indexed.lock()
    while isIndexing { _ = indexed.wait(until: Date(timeIntervalSinceNow: 0.05)) }
    indexed.unlock()
  }

  /// Bad lines found (the first ``maximumStoredProblems``).
  public var problems: [LineProblem] {
    lock.lock()
    defer { lock.unlock() }
    return storedProblems
  }

  /// How many bad lines were found.
  public var problemCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return totalProblems
  }

  /// Records lost upstream, where the recording says so.
  public var gaps: [TimelineGap] {
    lock.lock()
    defer { lock.unlock() }
    return storedGaps
  }

  /// Records whose `seq` repeats or goes backwards within their source, so far. They keep their
  /// place: navigation follows file order.
  public var sequence: SequenceCheck.Counts {
    lock.lock()
    defer { lock.unlock() }
    return index.sequence.counts
  }

  /// Providers seen so far, in the order first seen.
  public var providers: [String] {
    lock.lock()
    defer { lock.unlock() }
    return index.providers.strings
  }

  /// How many of the newest records ``sourceStatistics(window:)`` looks at for the rates.
  public static let recentScanLimit = 200_000

  /// Sources seen so far (`tagscope listen`), in the order first seen.
  public var sources: [String] {
    lock.lock()
    defer { lock.unlock() }
    return Array(index.sources.strings.dropFirst())
  }

  /// Each source seen so far, in the order first seen, with its record count, its records with
  /// violations, its first and latest record, and how many of its records fall in the last
  /// `window` seconds before its own latest one — by its own clock, since devices' clocks differ
  /// (from memory, no file access; the newest ``recentScanLimit`` records are looked at). A source
  /// younger than `window` has its rate over its own life, a second at least.
  public func sourceStatistics(window: Double = 10) -> [SourceStatistics] {
    lock.lock()
    defer { lock.unlock() }
    guard index.count > 0 else { return [] }
    let names = index.sources.strings
    var recent = [Int](repeating: 0, count: names.count)
    let span = Int64(window * 1000)
    let oldest = max(0, index.count - Self.recentScanLimit)
    for position in stride(from: index.count - 1, through: oldest, by: -1) {
      let source = Int(index.entries.sourceID(at: position))
      let time = index.entries.time(at: position)
      let last = index.entries.time(at: index.lastOfSource[source])
      if time > last - span && time <= last { recent[source] += 1 }
    }
    return names.indices.dropFirst().compactMap { id in
      guard id < index.countOfSource.count, index.countOfSource[id] > 0 else { return nil }
      let last = index.lastOfSource[id]
      let first = index.keyframes[id][0].index
      // A source younger than the window is measured over its own life (a second at least): 8
      // records within 2 ms are 8/s, not 0.8/s.
      let lived = Double(max(0, index.entries.time(at: last) - index.entries.time(at: first))) / 1000
      return SourceStatistics(
        name: names[id], records: index.countOfSource[id], withViolations: index.violationsOfSource[id],
        firstIndex: first, lastIndex: last, lastTimeMilliseconds: index.entries.time(at: last),
        recentRecords: recent[id], window: min(window, max(1, lived)))
    }
  }

  /// The Events-list fields of record `index` (from memory, no file access).
  public func summary(at position: Int) throws(TimelineError) -> RecordSummary {
    lock.lock()
    defer { lock.unlock() }
    guard position >= 0, position < index.count else { throw .indexOutOfRange(position, count: index.count) }
    return index.summary(at: position)
  }

  /// The time of record `position` in milliseconds since 1970 (one index read, for binary
  /// searches by time); `nil` past the end.
  public func timeMilliseconds(at position: Int) -> Int64? {
    lock.lock()
    defer { lock.unlock() }
    guard position >= 0, position < index.count else { return nil }
    return index.entries.time(at: position)
  }

  /// Summaries of a range of records (clamped to what exists).
  public func summaries(in range: Range<Int>) -> [RecordSummary] {
    lock.lock()
    defer { lock.unlock() }
    let clamped = range.clamped(to: 0..<index.count)
    return clamped.map(index.summary(at:))
  }

  /// Record `index`, read back from the file.
  public func record(at position: Int) throws(TimelineError) -> Record {
    lock.lock()
    if let cached = cache.get(position) {
      lock.unlock()
      return cached
    }
    guard position >= 0, position < index.count else {
      let count = index.count
      lock.unlock()
      throw .indexOutOfRange(position, count: count)
    }
    let entry = index.entries[position]
    lock.unlock()
    let bytes = try lineBytes(entry)
    let record: Record
    do {
      guard case .record(let decoded) = try RecordLineDecoder.decode(bytes) else {
        throw RecordLineError(reason: "the line is not a record")
      }
      record = decoded
    } catch {
      throw .unreadable(
        LineProblem(file: url.path, line: 0, offset: entry.offset, reason: "record \(position): \(error)"))
    }
    lock.lock()
    cache.put(record, at: position)
    lock.unlock()
    return record
  }

  /// The line of record `index` exactly as stored (JSON, for the detail view).
  public func line(at position: Int) throws(TimelineError) -> String {
    lock.lock()
    guard position >= 0, position < index.count else {
      let count = index.count
      lock.unlock()
      throw .indexOutOfRange(position, count: count)
    }
    let entry = index.entries[position]
    lock.unlock()
    return String(decoding: try lineBytes(entry), as: UTF8.self)
  }

  private func lineBytes(_ entry: IndexEntry) throws(TimelineError) -> [UInt8] {
    do {
      var bytes = try file.read(count: Int(entry.length), at: entry.offset)
      if bytes.last == 0x0D { bytes.removeLast() }
      return bytes
    } catch { throw .system(error) }
  }

  /// The app's state as of record `index`: context from the latest record that has one, consent
  /// and providers folded from the nearest keyframe (at most 255 index entries, no file access
  /// beyond that record and any consent records among them).
  public func state(at position: Int) throws(TimelineError) -> TimelineState {
    lock.lock()
    guard position >= 0, position < index.count else {
      let count = index.count
      lock.unlock()
      throw .indexOutOfRange(position, count: count)
    }
    var (fold, consentRecords) = index.fold(upTo: position)
    let sourceID = index.sourceID(at: position)
    let sourceName = sourceID == 0 ? nil : index.sources.strings[sourceID]
    lock.unlock()
    for consentIndex in consentRecords {
      if let decision = FoldState.decision(try record(at: consentIndex), index: consentIndex) {
        fold.apply(decision)
      }
    }
    // The providers this record's source has had outputs for (the fold's table is by global id).
    var state = TimelineState(
      index: position, consent: fold.consent, providers: fold.providers.filter { $0.lastIndex != nil })
    state.source = sourceName
    if let contextIndex = fold.lastContextIndex {
      let context = try record(at: contextIndex).context
      state.screen = context.screen
      state.history = context.history
      state.session = context.session
      state.timedEvents = context.timedEvents
      if case .array(let names)? = context.extra["inferred"] {
        state.inferred = Set(names.compactMap { if case .string(let name) = $0 { name } else { nil } })
      }
    }
    return state
  }

  /// Indices of the records in `range` (all indexed ones by default) that pass `filter`, in order.
  /// Call it again with `lastCount..<count` to extend a filtered list incrementally.
  public func filter(_ filter: TimelineFilter, in range: Range<Int>? = nil) throws(TimelineFilterError)
    -> [Int]
  {
    lock.lock()
    defer { lock.unlock() }
    let scope = (range ?? 0..<index.count).clamped(to: 0..<index.count)
    if filter.isEmpty { return Array(scope) }
    let compiled = try index.compile(filter)
    return index.positions(in: scope, passing: compiled)
  }

  /// The first record with sequence number `seq` (and `source`, when given), for "go to #seq".
  public func firstIndex(seq: UInt64, source: String? = nil) -> Int? {
    lock.lock()
    defer { lock.unlock() }
    let sourceID: UInt16?
    if let source {
      guard let id = index.sources.lookup(source) else { return nil }
      sourceID = UInt16(clamping: id)
    } else {
      sourceID = nil
    }
    for position in 0..<index.count {
      guard index.entries.seqLow(at: position) == UInt32(truncatingIfNeeded: seq),
        index.seq(at: position) == seq
      else { continue }
      if sourceID == nil || index.entries.sourceID(at: position) == sourceID { return position }
    }
    return nil
  }

  // MARK: Violations (tagging plan)

  /// Attaches the number of tagging-plan violations found on record `index` (shown by summaries,
  /// used by the `violations` filter and ``nextViolation(after:)``).
  public func setPlanViolations(_ count: Int, at position: Int) {
    lock.lock()
    defer { lock.unlock() }
    guard position >= 0, position < index.count else { return }
    index.setPlanViolations(count, at: position)
  }

  /// The first record after `index` with rule or plan violations.
  public func nextViolation(after position: Int) -> Int? {
    lock.lock()
    defer { lock.unlock() }
    var candidate = max(position + 1, 0)
    while candidate < index.count {
      if index.entries.hasViolations(at: candidate) { return candidate }
      candidate += 1
    }
    return nil
  }

  /// The last record before `index` with rule or plan violations.
  public func previousViolation(before position: Int) -> Int? {
    lock.lock()
    defer { lock.unlock() }
    var candidate = min(position, index.count) - 1
    while candidate >= 0 {
      if index.entries.hasViolations(at: candidate) { return candidate }
      candidate -= 1
    }
    return nil
  }

  // MARK: Live

  /// Appends a record: writes its line to the recording, then indexes it.
  public func append(_ record: Record) throws(SystemError) {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(768)
    RecordLineEncoder.appendLine(record, to: &bytes)
    lock.lock()
    defer { lock.unlock() }
    guard isLive, !ended else { throw SystemError("write", url.path, .badFileDescriptor) }
    try file.write(bytes)
    index.add(record, offset: fileEnd, length: bytes.count - 1)
    fileEnd += UInt64(bytes.count)
  }

  /// Appends a drop marker: written to the recording and listed in ``gaps``.
  public func append(_ marker: DropMarker) throws(SystemError) {
    var bytes: [UInt8] = []
    RecordLineEncoder.appendLine(marker, to: &bytes)
    lock.lock()
    defer { lock.unlock() }
    guard isLive, !ended else { throw SystemError("write", url.path, .badFileDescriptor) }
    try file.write(bytes)
    fileEnd += UInt64(bytes.count)
    storedGaps.append(TimelineGap(beforeIndex: index.count, marker: marker))
  }

  /// The first error writing the recording as an ``Inspector`` sink, if any.
  public var lastWriteError: SystemError? {
    lock.lock()
    defer { lock.unlock() }
    return writeFailure
  }

  /// Records written and indexed per hold of the lock by ``receive(_:)``: a live session hands
  /// over everything queued at once (up to its capacity, 20,000 records), and the debugger's reads
  /// must not wait for all of it to be indexed.
  static let receiveSlice = 512

  /// As an ``Inspector`` sink: writes and indexes the batch a slice at a time (one write each),
  /// releasing the lock in between, so a reader waits for at most one slice (about a millisecond)
  /// however large the batch.
  public func receive(_ items: [SinkItem]) {
    var start = 0
    while start < items.count {
      let end = min(start + Self.receiveSlice, items.count)
      guard receive(items[start..<end]) else { return }
      start = end
    }
  }

  /// Writes and indexes one slice under the lock; `false` when input has ended or the write failed.
  private func receive(_ items: ArraySlice<SinkItem>) -> Bool {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(items.reduce(0) { $0 + $1.line.count })
    for item in items { bytes.append(contentsOf: item.line) }
    lock.lock()
    defer { lock.unlock() }
    guard isLive, !ended else { return false }
    do { try file.write(bytes) } catch {
      if writeFailure == nil { writeFailure = error }
      return false
    }
    for item in items {
      switch item {
      case .record(let record, let line): index.add(record, offset: fileEnd, length: line.count - 1)
      case .dropped(let marker, _): storedGaps.append(TimelineGap(beforeIndex: index.count, marker: marker))
      }
      fileEnd += UInt64(item.line.count)
    }
    return true
  }

  /// Makes the records written so far durable (`fsync`) when the recording is the user's (a
  /// temporary one is not worth a disk flush); a failure becomes ``lastWriteError``.
  public func sync() {
    syncLock.lock()
    defer { syncLock.unlock() }
    lock.lock()
    let syncs = isLive && !ended && !isTemporary
    lock.unlock()
    guard syncs else { return }
    do { try file.sync() } catch {
      lock.lock()
      if writeFailure == nil { writeFailure = error }
      lock.unlock()
    }
  }

  /// Records are written as they come; nothing to flush.
  public func flush() {}

  /// Ends live input (as an ``Inspector`` sink, when the inspector closes): later appends fail;
  /// the timeline stays readable.
  public func close() {
    lock.lock()
    ended = true
    lock.unlock()
  }

  /// Whether live input has ended (``close()``).
  public var isEnded: Bool {
    lock.lock()
    defer { lock.unlock() }
    return ended
  }

  /// Releases the timeline when the debugger is done with it: stops background indexing, drops
  /// the cache and deletes a temporary recording unless `keepTemporary`. Reads of records fail
  /// afterwards.
  public func release(keepTemporary: Bool = false) {
    syncLock.lock()
    defer { syncLock.unlock() }
    lock.lock()
    let wasReleased = released
    released = true
    ended = true
    cache.removeAll()
    if !wasReleased { file.closeDescriptor() }
    lock.unlock()
    guard !wasReleased else { return }
    if isTemporary && !keepTemporary { try? FileManager.default.removeItem(at: url) }
  }
}

extension Timeline {
  /// `20261121-100004` for file names.
  fileprivate static func fileStamp() -> String {
    let text = ISO8601Timestamp.string(milliseconds: Date().recordMilliseconds)
    return String(text.prefix(19)).replacingOccurrences(of: "-", with: "").replacingOccurrences(
      of: ":", with: ""
    )
    .replacingOccurrences(of: "T", with: "-")
  }
}

/// Hands a value that is not `Sendable` to exactly one other thread, which then owns it.
private final class Handoff<Value>: @unchecked Sendable {
  let value: Value

  init(_ value: Value) { self.value = value }
}
