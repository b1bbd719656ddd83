import Foundation
import SystemPackage
import TagscopeRecording

/// Writes a recording: a JSON Lines file, the header first, then one line per record.
///
/// Crash-safe: lines are only ever written whole (a batch of complete lines per `write(2)`), so a
/// process killed at any moment leaves a file whose complete lines all load; at worst the last
/// line is cut short, and `RecordingReader` reports it and loads the rest. Drops upstream (a full
/// ``Inspector`` backlog) arrive as `DropMarker` lines, so gaps are written down, never silent.
///
/// Use it as an ``Inspector`` sink, or directly (`tagscope listen --record`) with `append(_:)`.
public final class Recorder: RecordSink, @unchecked Sendable {
  /// The recording's path.
  public let url: URL
  private let file: LineFile
  private let lock = NSLock()
  /// Held by ``sync()`` and ``close()``: an `fsync` never holds writers back, and the descriptor is
  /// never closed under it.
  private let syncLock = NSLock()
  private var failure: SystemError?
  private var closed = false

  /// Creates (or truncates) the file at `url` and writes the header line.
  public init(url: URL, header: RecordingHeader = RecordingHeader(started: Date())) throws(SystemError) {
    self.url = url
    file = try LineFile.create(path: url.path)
    var bytes: [UInt8] = []
    RecordLineEncoder.appendLine(header, to: &bytes)
    try file.write(bytes)
  }

  /// Continues the existing recording at `url`: lines are appended after its last one (a last line
  /// cut short by a crash is ended first, so it stays one bad line and the next ones load).
  public init(continuing url: URL) throws(SystemError) {
    self.url = url
    file = try LineFile.openForAppending(path: url.path)
    let size = try file.size()
    if size > 0, try file.read(count: 1, at: size - 1) != [10] { try file.write([10]) }
  }

  /// The first write error, if any (writes continue to be attempted).
  public var lastError: SystemError? {
    lock.lock()
    defer { lock.unlock() }
    return failure
  }

  /// The most bytes of whole lines ``receive(_:)`` gathers for one write: a batch of thousands of
  /// lines is written a chunk at a time, never copied into one buffer as large as itself.
  static let chunkBytes = 64 * 1024

  public func receive(_ items: [SinkItem]) { receive(segments: [items]) }

  /// Writes the items of `segments` in order, as one batch: the arrays a batch arrived in, read
  /// where they lie (never joined into one array, which copies every item and its record).
  public func receive(segments: [[SinkItem]]) {
    let size = segments.reduce(0) { total, items in items.reduce(total) { $0 + $1.line.count } }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(min(Self.chunkBytes, size))
    for items in segments {
      for item in items {
        if !bytes.isEmpty && bytes.count + item.line.count > Self.chunkBytes {
          // A chunk that failed ends the batch: no later line of it is written past a gap.
          guard writeLines(bytes) else { return }
          bytes.removeAll(keepingCapacity: true)
        }
        bytes.append(contentsOf: item.line)
      }
    }
    writeLines(bytes)
  }

  /// Appends one record (a single write of one whole line). Safe from any thread.
  public func append(_ record: Record) throws(SystemError) {
    var bytes: [UInt8] = []
    RecordLineEncoder.appendLine(record, to: &bytes)
    try appendLines(bytes)
  }

  /// Appends a drop marker.
  public func append(_ marker: DropMarker) throws(SystemError) {
    var bytes: [UInt8] = []
    RecordLineEncoder.appendLine(marker, to: &bytes)
    try appendLines(bytes)
  }

  /// Appends lines already encoded (each ending in a newline), in one write.
  public func appendLines(_ bytes: [UInt8]) throws(SystemError) {
    lock.lock()
    defer { lock.unlock() }
    guard !closed else { throw SystemError("write", url.path, .badFileDescriptor) }
    try file.write(bytes)
  }

  @discardableResult
  private func writeLines(_ bytes: [UInt8]) -> Bool {
    guard !bytes.isEmpty else { return true }
    do { try appendLines(bytes) } catch {
      lock.lock()
      if failure == nil { failure = error }
      lock.unlock()
      return false
    }
    return true
  }

  /// Makes every line written so far durable (`fsync`); a failure becomes ``lastError``. Appends
  /// from other threads go on meanwhile (a later ``sync()`` covers them).
  public func sync() {
    syncLock.lock()
    defer { syncLock.unlock() }
    lock.lock()
    let isClosed = closed
    lock.unlock()
    guard !isClosed else { return }
    do { try file.sync() } catch {
      lock.lock()
      if failure == nil { failure = error }
      lock.unlock()
    }
  }

  /// Lines go straight to the operating system on every batch; nothing is buffered here.
  public func flush() {}

  /// Closes the file; later appends fail.
  public func close() {
    syncLock.lock()
    defer { syncLock.unlock() }
    lock.lock()
    defer { lock.unlock() }
    guard !closed else { return }
    closed = true
    file.closeDescriptor()
  }
}
