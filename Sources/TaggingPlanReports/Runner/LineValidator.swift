import Foundation
import TaggingPlan
import TagscopeRecording

/// Validates recording lines, decoding only records it has not seen before: a record whose
/// `LineKey` (kind, name, properties, screen, outputs) matches an earlier one gets that one's
/// violations (with its own `seq`) and coverage without being decoded. When the plan has rules
/// that compare a record with earlier ones (journeys, consent), a line passes them with its
/// content's ``TaggingPlan/SequenceDigest`` and its session id and user when its device's state
/// allows; else the record runs them with this line's `seq`, `time` and session: the one
/// remembered when its content always needs it, else this line decoded.
struct LineValidator {
  /// What became of one line.
  enum Outcome {
    /// A record, its violations appended to the caller's list; `time` in milliseconds since 1970.
    case record(seq: UInt64, source: String?, time: Int64)
    case header
    case dropped(Int)
    case problem(RecordLineError)
  }

  /// What is remembered of a distinct record, at the index ``cache`` gives its key in ``entries``:
  /// the entries lie side by side in one array, each holding only what a cache hit reads (its
  /// findings, coverage marks and digest), so the hits of a recording touch a few contiguous
  /// pages rather than an object of the size of a record each. The record itself, read only when
  /// its digest does not answer, is kept apart (``KeptRecord``).
  private struct Entry {
    var violations: [PlanViolation]
    var marks: [CoverageMark]
    /// What the sequence rules read of it, when the plan has them.
    var digest: SequenceDigest?
    /// The record as the sequence rules read it, kept when its digest says they always need it.
    var kept: KeptRecord?
  }

  /// A record kept for the sequence rules (``TaggingPlan/Record/sequenceFields``), boxed so that
  /// an ``Entry`` stays a few words whether or not it keeps one.
  private final class KeptRecord {
    let record: Record

    init(_ record: Record) { self.record = record }
  }

  /// Distinct records remembered at most; later ones are validated without being remembered.
  static let cacheLimit = 262_144
  /// Bytes the remembered results may hold (each counts 128 bytes of table, 256 a violation and 16
  /// a coverage mark): 32 MiB, what a plan with many violations per distinct record would
  /// otherwise fill far before ``cacheLimit``.
  static let cacheByteLimit = 32 << 20
  /// Bytes the sequence rules' part of the remembered results may hold, apart from
  /// ``cacheByteLimit`` (each counts its digest's ``TaggingPlan/SequenceDigest/bytes`` and, when
  /// kept, the record's ``TaggingPlan/Record/sequenceBytes``): 32 MiB, so a plan with journeys or
  /// consent remembers the same records as without them until either budget runs low.
  static let sequenceByteLimit = 32 << 20

  /// This validator's ``cacheLimit`` (smaller in tests).
  private let limit: Int
  var validator: PlanValidator
  /// Whether the plan has rules that compare a record with earlier ones.
  private let sequence: Bool
  /// With `--by-source`: the coverage of each source's records, keyed by source (a recording's
  /// records without one by their file), in the order first seen.
  private(set) var bySource: [(source: String, coverage: Coverage)]?
  private var sourceIndex: [String: Int] = [:]
  private var currentFile = ""
  /// Reads each line's key (and, with sequence rules, its session).
  private var scanner: LineKeyScanner
  /// The index in ``entries`` of each remembered record's key.
  private var cache = LineKeyTable()
  /// What is remembered of each distinct record, in the order first remembered.
  private var entries: [Entry] = []
  /// Keys of records not remembered, once the cache is half full.
  private var seen = SeenKeys()
  /// The bytes `cache` holds, as ``cacheByteLimit`` counts them.
  private(set) var cacheBytes = 0
  /// The bytes `cache`'s digests and kept records hold, as ``sequenceByteLimit`` counts them.
  private(set) var sequenceBytes = 0
  /// Distinct records remembered.
  var remembered: Int { cache.count }
  /// Records validated from the cache.
  private(set) var hits = 0

  /// A validator; `bySource` keeps each source's coverage too; `cacheLimit` bounds the distinct
  /// records remembered.
  init(plan: Plan, bySource: Bool = false, cacheLimit: Int = cacheLimit) {
    limit = cacheLimit
    validator = PlanValidator(plan: plan)
    sequence = plan.hasSequenceRules
    scanner = LineKeyScanner(readsSession: sequence)
    if bySource { self.bySource = [] }
  }

  /// A new recording (`file`) starts: a new app instance for the provider rules' counts (500
  /// Firebase event types…), so results remembered from the previous one are forgotten.
  mutating func startRecording(file: String = "") {
    validator.startRecording()
    cache.removeAll()
    entries.removeAll(keepingCapacity: true)
    seen.removeAll()
    cacheBytes = 0
    sequenceBytes = 0
    currentFile = file
  }

  /// The next line is line `number` of `file`: with sequence rules, the findings name it and the
  /// records they compare it with by file and line (``TaggingPlan/JourneyRecord/place``).
  mutating func at(file: String, line number: Int) {
    if sequence { validator.recordLine = RecordLine(file: file, line: number) }
  }

  /// Adds what a record of `source` did to coverage to that source's coverage.
  private mutating func cover(_ marks: some Collection<CoverageMark>, source: String?) {
    guard bySource != nil else { return }
    let key = source ?? "(\(currentFile))"
    let position: Int
    if let known = sourceIndex[key] {
      position = known
    } else {
      position = bySource!.count
      sourceIndex[key] = position
      bySource!.append((key, Coverage(items: validator.coverage.items)))
    }
    bySource![position].coverage.apply(marks)
  }

  /// Validates one line, appending a record's violations to `violations`.
  mutating func validate(_ line: UnsafeBufferPointer<UInt8>, into violations: inout [PlanViolation])
    -> Outcome
  {
    guard let (key, seq, time, session) = scanner.scan(line) else {
      return decodeAndValidate(line, into: &violations)
    }
    if let index = cache[key] {
      var record: Record?
      var marks = entries[index].marks
      let digest = entries[index].digest
      if let digest {
        // The session is this line's, or (a session on one side only, an escape) it is decoded.
        guard let session, digest.fits(session) else { return decodeAndValidate(line, into: &violations) }
        if !validator.complete(digest, session: session, seq: seq, time: time, marks: &marks) {
          record = entries[index].kept?.record ?? Self.decodedRecord(line)
          guard record != nil, session.patch(&record!) else {
            return decodeAndValidate(line, into: &violations)
          }
        }
      }
      hits += 1
      for violation in entries[index].violations {
        violations.append(violation)
        violations[violations.count - 1].seq = seq
      }
      if var record {
        record.seq = seq
        record.timeMilliseconds = time
        validator.complete(record, marks: &marks, violations: &violations)
      } else if digest == nil {
        validator.replay(marks: marks)
      }
      cover(marks, source: nil)
      return .record(seq: seq, source: nil, time: time)
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
    var marks: [CoverageMark] = []
    var found = validator.checkOwn(record, marks: &marks)
    let digest = sequence ? validator.sequenceDigest(of: record) : nil
    let kept = digest?.keepsRecord == true
    let size = 128 + 256 * found.count + 16 * marks.count
    let sequenceSize = (digest?.bytes ?? 0) + (kept ? record.sequenceBytes : 0)
    if cache.count < limit, cacheBytes + size <= Self.cacheByteLimit,
      sequenceBytes + sequenceSize <= Self.sequenceByteLimit, admits(key),
      cache.insert(key, position: entries.count)
    {
      entries.append(
        Entry(
          violations: found, marks: marks, digest: digest,
          kept: kept ? KeptRecord(record.sequenceFields) : nil))
      cacheBytes += size
      sequenceBytes += sequenceSize
    }
    if let digest, record.source == nil,
      validator.complete(
        digest, session: LineSession(of: record), seq: record.seq, time: record.timeMilliseconds,
        marks: &marks)
    {
      // Passed its journey and consent checks with its digest alone.
    } else {
      validator.complete(record, marks: &marks, violations: &found)
    }
    cover(marks, source: record.source)
    violations.append(contentsOf: found)
    return .record(seq: record.seq, source: record.source, time: record.timeMilliseconds)
  }

  /// The record of a line whose key was read, or `nil` when it does not decode as one.
  private static func decodedRecord(_ line: UnsafeBufferPointer<UInt8>) -> Record? {
    guard case .record(let record) = try? RecordLineDecoder.decode(line) else { return nil }
    return record
  }

  /// Whether a record of `key`, not in the cache, is remembered: always while the cache is less
  /// than half full (by count or either budget); past that, only when its key was seen before
  /// (``SeenKeys``), so the room left goes to contents that repeat rather than to one-off records
  /// (a position, a duration), which would otherwise fill it first and leave later repeated
  /// records to be decoded every time.
  private mutating func admits(_ key: LineKey) -> Bool {
    guard
      2 * cache.count >= limit || 2 * cacheBytes >= Self.cacheByteLimit
        || 2 * sequenceBytes >= Self.sequenceByteLimit
    else { return true }
    return seen.insert(key)
  }

  private mutating func decodeAndValidate(
    _ line: UnsafeBufferPointer<UInt8>, into violations: inout [PlanViolation]
  ) -> Outcome {
    do {
      switch try RecordLineDecoder.decode(line) {
      case .record(let record):
        if bySource == nil {
          violations.append(contentsOf: validator.validate(record))
        } else {
          var marks: [CoverageMark] = []
          violations.append(contentsOf: validator.validate(record, marks: &marks))
          cover(marks, source: record.source)
        }
        return .record(seq: record.seq, source: record.source, time: record.timeMilliseconds)
      case .header: return .header
      case .dropped(let marker): return .dropped(marker.count)
      }
    } catch {
      return .problem(error)
    }
  }
}

extension RecordingScanner {
  /// Validates the records of `reader` (opened on `path`) with `lines`, appending each record's
  /// violations to `violations` and handing `found` the record's site with them as soon as they
  /// are found (it may take them out: a streamed report keeps none). The summary has no sites.
  /// The file is read by the timeline's reader (the same header checks and errors, lines over its
  /// limit reported and skipped), so memory stays bounded whatever its size. A read error stops
  /// the scan: the summary keeps what was read, and the error as its ``Summary/readFailure``.
  static func validate(
    reader: RecordingReader, path: String, with lines: inout LineValidator,
    into violations: inout [PlanViolation], found: (RecordSite, inout [PlanViolation]) -> Void
  ) -> Summary {
    var summary = Summary(versionWarning: reader.header.versionWarning)
    summary.header = reader.header
    lines.startRecording(file: path)
    var lastLine = 1
    while true {
      let next: RecordingReader.RawLine?
      do throws(RecordingReadError) { next = try reader.nextRawLine() } catch {
        summary.readFailure = RecordingProblem(
          file: path, line: lastLine + 1, message: Summary.readFailureMessage(error, path: path))
        break
      }
      guard let raw = next else { break }
      switch raw {
      case .line(let line, let number, _, let terminated):
        lastLine = number
        if let site = validate(
          line, number: number, terminated: terminated, file: path, lines: &lines, into: &violations, &summary
        ) {
          found(site, &violations)
        }
      case .overlong(let problem):
        lastLine = problem.line
        summary.problems.append(RecordingProblem(file: path, line: problem.line, message: problem.reason))
      }
    }
    summary.unfinishedFunnels = lines.validator.unfinishedFunnels
    return summary
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
      if let site = validate(
        UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd]), number: lineNumber,
        terminated: lineEnd < bytes.count, file: file, lines: &lines, into: &violations, &summary)
      {
        summary.sites.append(site)
      }
      lineStart = lineEnd + 1
    }
    summary.unfinishedFunnels = lines.validator.unfinishedFunnels
    return summary
  }

  /// Validates one line; returns the record's site when it has violations.
  private static func validate(
    _ rawLine: UnsafeBufferPointer<UInt8>, number: Int, terminated: Bool, file: String,
    lines: inout LineValidator,
    into violations: inout [PlanViolation], _ summary: inout Summary
  ) -> RecordSite? {
    var line = rawLine
    if let last = line.last, last == 13 { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
    guard line.first == UInt8(ascii: "{") || !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else {
      return nil
    }
    let before = violations.count
    lines.at(file: file, line: number)
    switch lines.validate(line, into: &violations) {
    case .record(let seq, let source, let time):
      summary.records += 1
      summary.checkSequence(seq: seq, source: source, file: file, line: number)
      let found = violations.count - before
      summary.count(source: source, violations: found)
      guard found > 0 else { return nil }
      return RecordSite(
        file: file, line: number, seq: seq, timeMilliseconds: time, source: source, firstViolation: before)
    case .header: break
    case .dropped(let count): summary.droppedByWriter += count
    case .problem(let error):
      let reason = terminated ? error.description : "truncated last line (no newline at the end; \(error))"
      summary.problems.append(RecordingProblem(file: file, line: number, message: reason))
    }
    return nil
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
