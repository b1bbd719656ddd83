import Foundation
import TagscopeInspector

/// Validates recording lines, decoding only records it has not seen before: a record whose
/// ``LineKey`` (kind, name, properties, screen, outputs) matches an earlier one gets that one's
/// violations (with its own `seq`) and coverage without being decoded.
struct LineValidator {
  /// What became of one line.
  enum Outcome {
    /// A record, its violations appended to the caller's list.
    case record
    case header
    case dropped(Int)
    case problem(RecordLineError)
  }

  private struct Cached {
    var violations: [PlanViolation]
    var marks: [Int]
  }

  /// Distinct records remembered at most; later ones are validated without being remembered.
  static let cacheLimit = 262_144

  var validator: PlanValidator
  private var cache: [LineKey: Cached] = [:]
  /// Records validated from the cache.
  private(set) var hits = 0

  init(plan: Plan) { validator = PlanValidator(plan: plan) }

  /// Validates one line, appending a record's violations to `violations`.
  mutating func validate(_ line: UnsafeBufferPointer<UInt8>, into violations: inout [PlanViolation])
    -> Outcome
  {
    guard let (key, seq) = LineKey.scan(line) else { return decodeAndValidate(line, into: &violations) }
    if let cached = cache[key] {
      hits += 1
      validator.replay(marks: cached.marks)
      for violation in cached.violations {
        violations.append(violation)
        violations[violations.count - 1].seq = seq
      }
      return .record
    }
    let record: Record
    do {
      guard case .record(let decoded) = try RecordLineDecoder.decode(line) else {
        return decodeAndValidate(line, into: &violations)
      }
      record = decoded
    } catch {
      return .problem(error)
    }
    var marks: [Int] = []
    let found = validator.validate(record, marks: &marks)
    if cache.count < Self.cacheLimit { cache[key] = Cached(violations: found, marks: marks) }
    violations.append(contentsOf: found)
    return .record
  }

  private mutating func decodeAndValidate(
    _ line: UnsafeBufferPointer<UInt8>, into violations: inout [PlanViolation]
  ) -> Outcome {
    do {
      switch try RecordLineDecoder.decode(line) {
      case .record(let record):
        violations.append(contentsOf: validator.validate(record))
        return .record
      case .header: return .header
      case .dropped(let marker): return .dropped(marker.count)
      }
    } catch {
      return .problem(error)
    }
  }
}

extension RecordingScanner {
  /// Validates the recording at `path` line by line with `lines`, appending violations in record
  /// order. The header is checked by the inspector's ``RecordingReader`` (same errors); `-` (standard
  /// input) is read through it entirely.
  static func validate(
    path: String, with lines: inout LineValidator, into violations: inout [PlanViolation]
  ) throws(RecordingReadError) -> Summary {
    if path == "-" {
      return try scan(path: path) { record in violations.append(contentsOf: lines.validator.validate(record))
      }
    }
    _ = try RecordingReader(path: path)
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
    } catch {
      throw .notARecording(file: path, reason: "cannot read it: \(error.localizedDescription)")
    }
    return data.withUnsafeBytes { raw in
      validate(raw.bindMemory(to: UInt8.self), file: path, with: &lines, into: &violations)
    }
  }

  /// Validates the lines after the header (line 1) of recording bytes.
  static func validate(
    _ bytes: UnsafeBufferPointer<UInt8>, file: String, with lines: inout LineValidator,
    into violations: inout [PlanViolation]
  ) -> Summary {
    var summary = Summary()
    var lineStart = Self.newline(in: bytes, from: 0) + 1
    var lineNumber = 1
    while lineStart < bytes.count {
      lineNumber += 1
      let lineEnd = Self.newline(in: bytes, from: lineStart)
      let terminated = lineEnd < bytes.count
      var contentEnd = lineEnd
      if contentEnd > lineStart, bytes[contentEnd - 1] == 13 { contentEnd -= 1 }
      let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<contentEnd])
      if line.first == UInt8(ascii: "{") || !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
        switch lines.validate(line, into: &violations) {
        case .record:
          summary.records += 1
        case .header: break
        case .dropped(let count): summary.droppedByWriter += count
        case .problem(let error):
          let reason =
            terminated ? error.description : "truncated last line (no newline at the end; \(error))"
          summary.problems.append(RecordingProblem(file: file, line: lineNumber, message: reason))
        }
      }
      lineStart = lineEnd + 1
    }
    return summary
  }
}

extension RecordingScanner {
  /// The index of the next newline at or after `start`, or `bytes.count`.
  static func newline(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard let base = bytes.baseAddress, start < bytes.count else { return bytes.count }
    guard let found = memchr(base + start, 10, bytes.count - start) else { return bytes.count }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
  }
}
