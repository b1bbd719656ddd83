import Foundation
import TagscopeInspector

/// Validates recording lines, decoding only records it has not seen before: a record whose
/// ``LineKey`` (kind, name, properties, screen, outputs) matches an earlier one gets that one's
/// violations (with its own `seq`) and coverage without being decoded.
struct LineValidator {
  /// What became of one line.
  enum Outcome {
    case record([PlanViolation])
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

  mutating func validate(_ line: UnsafeBufferPointer<UInt8>) -> Outcome {
    guard let (key, seq) = LineKey.scan(line) else { return decodeAndValidate(line) }
    if let cached = cache[key] {
      hits += 1
      validator.replay(marks: cached.marks)
      guard !cached.violations.isEmpty else { return .record([]) }
      return .record(
        cached.violations.map { violation in
          var copy = violation
          copy.seq = seq
          return copy
        })
    }
    let record: Record
    do {
      guard case .record(let decoded) = try RecordLineDecoder.decode(line) else {
        return decodeAndValidate(line)
      }
      record = decoded
    } catch {
      return .problem(error)
    }
    var marks: [Int] = []
    let violations = validator.validate(record, marks: &marks)
    if cache.count < Self.cacheLimit { cache[key] = Cached(violations: violations, marks: marks) }
    return .record(violations)
  }

  private mutating func decodeAndValidate(_ line: UnsafeBufferPointer<UInt8>) -> Outcome {
    do {
      switch try RecordLineDecoder.decode(line) {
      case .record(let record): return .record(validator.validate(record))
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
    var lineStart = 0
    while lineStart < bytes.count, bytes[lineStart] != 10 { lineStart += 1 }
    lineStart += 1
    var lineNumber = 1
    while lineStart < bytes.count {
      lineNumber += 1
      var lineEnd = lineStart
      while lineEnd < bytes.count, bytes[lineEnd] != 10 { lineEnd += 1 }
      let terminated = lineEnd < bytes.count
      var contentEnd = lineEnd
      if contentEnd > lineStart, bytes[contentEnd - 1] == 13 { contentEnd -= 1 }
      let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<contentEnd])
      if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
        switch lines.validate(line) {
        case .record(let found):
          summary.records += 1
          violations.append(contentsOf: found)
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
