import Foundation

/// Where a line is in a recording.
public struct LineLocation: Sendable, Hashable {
  /// Line number, from 1 (the header is line 1).
  public var line: Int
  /// Byte offset of the line's first byte.
  public var offset: UInt64
  /// Length in bytes, without the newline.
  public var length: Int

  /// A location.
  public init(line: Int, offset: UInt64, length: Int) {
    self.line = line
    self.offset = offset
    self.length = length
  }
}

/// A line of a recording that could not be read; it is skipped and the rest loads.
public struct LineProblem: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file (`<stdin>` for standard input).
  public var file: String
  /// Line number, from 1.
  public var line: Int
  /// Byte offset of the line.
  public var offset: UInt64
  /// What is wrong, naming the field when the JSON was valid.
  public var reason: String
  /// Whether this is the last line cut short (no newline at the end: the writer stopped
  /// mid-write, e.g. a crash).
  public var isTruncatedLastLine: Bool

  /// A problem.
  public init(file: String, line: Int, offset: UInt64, reason: String, isTruncatedLastLine: Bool = false) {
    self.file = file
    self.line = line
    self.offset = offset
    self.reason = reason
    self.isTruncatedLastLine = isTruncatedLastLine
  }

  /// `file:line: reason`.
  public var description: String { "\(file):\(line): \(reason)" }
}

/// Why a recording cannot be read at all.
public enum RecordingReadError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The input is not a tagscope recording (empty, binary, not JSON, or no header).
  case notARecording(file: String, reason: String)
  /// The operating system refused to open or read it.
  case system(SystemError)

  public var description: String {
    switch self {
    case .notARecording(let file, let reason): return "\(file): not a tagscope recording: \(reason)"
    case .system(let error): return error.description
    }
  }
}

/// What a reader finds after the header, line by line.
public enum RecordingEntry: Sendable, Hashable {
  case record(Record, LineLocation)
  case dropped(DropMarker, LineLocation)
  /// A bad line, reported and skipped.
  case problem(LineProblem)
}

/// Streams a recording from a file or standard input, one line at a time, in bounded memory
/// (one 1 MiB chunk plus the current line, whatever the file's size).
///
/// The first line must be the header, or the whole input is rejected with one clear
/// ``RecordingReadError/notARecording(file:reason:)``. After it, a bad line comes back as a
/// ``RecordingEntry/problem(_:)`` with its line number and reason and reading goes on; a last line
/// without its newline that does not parse is reported with ``LineProblem/isTruncatedLastLine``.
/// Blank lines are skipped. Repeated headers (concatenated recordings) are skipped too.
///
/// ```swift
/// let reader = try RecordingReader(path: "session.jsonl")  // "-" reads standard input
/// while let entry = try reader.next() {
///   switch entry {
///   case .record(let record, _): print(record.seq, record.name)
///   case .dropped(let marker, _): print("lost", marker.count)
///   case .problem(let problem): print(problem.reason)
///   }
/// }
/// ```
public final class RecordingReader {
  /// The recording's header.
  public let header: RecordingHeader
  /// The file's name as used in problems.
  public let fileName: String
  private var scanner: LineScanner
  private let file: LineFile

  /// Opens the recording at `path`; `-` is standard input.
  public convenience init(path: String) throws(RecordingReadError) {
    let file: LineFile
    if path == "-" {
      file = LineFile.standardInput()
    } else {
      do { file = try LineFile.openForReading(path: path) } catch { throw .system(error) }
    }
    try self.init(file: file)
  }

  /// Whether the input gives its bytes once (standard input, a pipe or FIFO): this reader must be
  /// the one that reads it on, as opening the path again would start mid-stream.
  public var isReadOnce: Bool { file.isReadOnce }

  /// Opens the recording at `url`.
  public convenience init(url: URL) throws(RecordingReadError) { try self.init(path: url.path) }

  package init(file: LineFile) throws(RecordingReadError) {
    self.file = file
    fileName = file.path
    scanner = LineScanner(file: file)
    // A first line over the limit is no header: do not look for its end.
    scanner.maximumSkip = 0
    let first: LineScanner.Event?
    do { first = try scanner.next() } catch { throw .system(error) }
    scanner.maximumSkip = 1 << 30
    let bytes: UnsafeBufferPointer<UInt8>
    switch first {
    case nil: throw .notARecording(file: fileName, reason: "the input is empty")
    case .overlong?:
      throw .notARecording(file: fileName, reason: "the first line is not a header (over 64 MiB long)")
    case .line(let line, _, _)?, .unterminated(let line, _, _)?: bytes = line
    }
    header = try Self.header(bytes, file: fileName)
  }

  deinit { scanner.release() }

  private static func header(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws(RecordingReadError)
    -> RecordingHeader
  {
    if bytes.contains(0) || UTF8Check.firstInvalid(bytes) != nil {
      throw .notARecording(file: file, reason: "it holds binary data, not JSON Lines text")
    }
    let line: RecordingLine
    do { line = try RecordLineDecoder.decode(bytes) } catch {
      throw .notARecording(file: file, reason: "line 1 is not a recording header (\(error))")
    }
    switch line {
    case .header(let header):
      guard header.version >= 1 else {
        throw .notARecording(
          file: file,
          reason:
            "version \(header.version) is not a recording version (this tagscope reads \(RecordingHeader.currentVersion))"
        )
      }
      return header
    case .record:
      throw .notARecording(file: file, reason: "line 1 is a record, not the tagscope-recording header")
    case .dropped:
      throw .notARecording(file: file, reason: "line 1 is a drop marker, not the tagscope-recording header")
    }
  }

  /// The next record, drop marker or problem; `nil` at the end of the input.
  public func next() throws(RecordingReadError) -> RecordingEntry? {
    while true {
      let event: LineScanner.Event?
      do { event = try scanner.next() } catch { throw .system(error) }
      switch event {
      case nil: return nil
      case .overlong(let offset, let number, let length)?:
        return .problem(
          Self.overlong(
            file: fileName, offset: offset, number: number, length: length, limit: scanner.maximumLineLength,
            stopped: scanner.stoppedInsideLine))
      case .line(let bytes, let offset, let number)?:
        if let entry = entry(bytes, offset: offset, number: number, last: false) { return entry }
      case .unterminated(let bytes, let offset, let number)?:
        if let entry = entry(bytes, offset: offset, number: number, last: true) { return entry }
      }
    }
  }

  /// One line after the header as it is in the file, for readers that decode lines their own way
  /// (the plan validator); its bytes are valid until the next call.
  package enum RawLine {
    case line(UnsafeBufferPointer<UInt8>, number: Int, offset: UInt64, terminated: Bool)
    /// A line over the length limit, skipped.
    case overlong(LineProblem)
  }

  /// The next line after the header, undecoded; `nil` at the end of the input.
  package func nextRawLine() throws(RecordingReadError) -> RawLine? {
    let event: LineScanner.Event?
    do { event = try scanner.next() } catch { throw .system(error) }
    switch event {
    case nil: return nil
    case .overlong(let offset, let number, let length)?:
      return .overlong(
        Self.overlong(
          file: fileName, offset: offset, number: number, length: length, limit: scanner.maximumLineLength,
          stopped: scanner.stoppedInsideLine))
    case .line(let bytes, let offset, let number)?:
      return .line(bytes, number: number, offset: offset, terminated: true)
    case .unterminated(let bytes, let offset, let number)?:
      return .line(bytes, number: number, offset: offset, terminated: false)
    }
  }

  /// The byte offset just after the last line read.
  package var consumedOffset: UInt64 { scanner.consumedOffset }

  private func entry(_ bytes: UnsafeBufferPointer<UInt8>, offset: UInt64, number: Int, last: Bool)
    -> RecordingEntry?
  {
    Self.entry(bytes, offset: offset, number: number, last: last, file: fileName)
  }

  /// What one line after the header is: `nil` for blank lines and repeated headers.
  package static func entry(
    _ bytes: UnsafeBufferPointer<UInt8>, offset: UInt64, number: Int, last: Bool, file: String
  ) -> RecordingEntry? {
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
    let location = LineLocation(line: number, offset: offset, length: bytes.count)
    do {
      switch try RecordLineDecoder.decode(bytes) {
      case .record(let record): return .record(record, location)
      case .dropped(let marker): return .dropped(marker, location)
      case .header: return nil
      }
    } catch {
      let reason = last ? "truncated last line (no newline at the end; \(error))" : error.description
      return .problem(
        LineProblem(file: file, line: number, offset: offset, reason: reason, isTruncatedLastLine: last))
    }
  }

  /// An overlong line's problem.
  package static func overlong(
    file: String, offset: UInt64, number: Int, length: UInt64, limit: Int, stopped: Bool = false
  ) -> LineProblem {
    let reason =
      stopped
      ? "no end of line in \(length) bytes (over the \(limit >> 20) MiB line limit; endless input?): reading stopped"
      : "line of \(length) bytes is longer than the \(limit >> 20) MiB limit"
    return LineProblem(file: file, line: number, offset: offset, reason: reason)
  }

  /// Reads every remaining entry.
  public func forEach(_ body: (RecordingEntry) throws -> Void) throws {
    while let entry = try next() { try body(entry) }
  }
}
