import Foundation
import TagscopeInspector

/// Reads a recording file line by line, handing every record to a closure; unreadable lines are
/// collected as ``RecordingProblem``s (file and line number) and skipped.
public enum RecordingScanner {
  /// Why a recording could not be read at all.
  public struct ReadError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var message: String
    public var description: String { "\(file): \(message)" }
  }

  /// What a scan found besides the records.
  public struct Summary: Sendable {
    /// Records handed to the closure.
    public var records = 0
    /// Unreadable lines, skipped.
    public var problems: [RecordingProblem] = []
    /// Records the writer reported as lost (drop markers).
    public var droppedByWriter = 0
  }

  /// Scans the recording at `path`. Throws only when the file cannot be opened, or when it has lines
  /// and none of them is a valid recording line.
  public static func scan(path: String, _ body: (Record) -> Void) throws -> Summary {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
    } catch {
      throw ReadError(file: path, message: "cannot read the recording: \(error.localizedDescription)")
    }
    let summary = data.withUnsafeBytes { raw in
      scan(raw.bindMemory(to: UInt8.self), file: path, body)
    }
    if summary.records == 0, !summary.problems.isEmpty, summary.problems.count == nonEmptyLines(data) {
      throw ReadError(
        file: path, message: "no line is a recording line (first problem: \(summary.problems[0]))")
    }
    return summary
  }

  /// Scans recording bytes; `file` names them in problems.
  public static func scan(_ bytes: UnsafeBufferPointer<UInt8>, file: String, _ body: (Record) -> Void) -> Summary {
    var summary = Summary()
    var lineStart = 0
    var lineNumber = 0
    let count = bytes.count
    while lineStart < count {
      lineNumber += 1
      var lineEnd = lineStart
      while lineEnd < count, bytes[lineEnd] != 10 { lineEnd += 1 }
      let terminated = lineEnd < count
      var contentEnd = lineEnd
      if contentEnd > lineStart, bytes[contentEnd - 1] == 13 { contentEnd -= 1 }
      if contentEnd > lineStart, !isBlank(bytes, lineStart, contentEnd) {
        let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<contentEnd])
        do {
          switch try RecordLineDecoder.decode(line) {
          case .record(let record):
            summary.records += 1
            body(record)
          case .header: break
          case .dropped(let marker): summary.droppedByWriter += marker.count
          }
        } catch {
          let prefix = terminated ? "" : "truncated last line: "
          summary.problems.append(RecordingProblem(file: file, line: lineNumber, message: prefix + error.description))
        }
      }
      lineStart = lineEnd + 1
    }
    return summary
  }

  private static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
    for index in start..<end where bytes[index] != 32 && bytes[index] != 9 { return false }
    return true
  }

  private static func nonEmptyLines(_ data: Data) -> Int {
    data.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      var lines = 0
      var blank = true
      for byte in bytes {
        if byte == 10 {
          if !blank { lines += 1 }
          blank = true
        } else if byte != 32 && byte != 9 && byte != 13 {
          blank = false
        }
      }
      return blank ? lines : lines + 1
    }
  }
}
