import Foundation
import TagscopeRecording
import TagscopeTimeline

/// `tagscope plan infer FILE…`: drafts a tagging plan from recordings (in-app or from `listen`).
/// Every tag with its properties (types; `required` when present every time; `enum` for a small
/// set of string values), the screens each tag happened on, and per provider the calls observed
/// (with `when: {screen: …}` where they differ by screen, `when: {phase: …}` for timed events),
/// counts as comments. The output is deterministic and loads as a plan; it is a draft to review.
public struct PlanInference {
  /// Records read, and records of kinds a plan does not describe (sessions, consent, SDK payloads).
  public private(set) var records = 0
  public private(set) var otherKinds = 0
  /// Unreadable lines, skipped: `file:line: reason`.
  public private(set) var problems: [String] = []
  /// The first recording's app (its header's `app`), if it names one.
  public private(set) var app: String?
  private var tags: [InferredTag.Key: InferredTag] = [:]
  private var files: [String] = []

  /// Distinct records remembered for their repeats (as validate's cache).
  static let distinctLimit = 262_144

  public init() {}

  /// Reads the recording at `path` (`-` is standard input) into the draft. Throws when it cannot
  /// be read at all.
  public mutating func read(path: String) throws(RecordingReadError) {
    let reader = try RecordingReader(path: path)
    files.append(path)
    if app == nil { app = reader.header.app }
    var known: [RecordContentKey: Int] = [:]
    var replays: [(replay: InferredTag.Replay?, pending: Int)] = []
    var builder = RecordContentKeyBuilder(keysSourcedRecords: true)
    while let raw = try reader.nextRawLine() {
      switch raw {
      case .overlong(let problem):
        problems.append(problem.description)
      case .line(let rawLine, let number, _, let terminated):
        var line = rawLine
        if let last = line.last, last == 13 { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
        builder.reset()
        let key = builder.decode(line)?.key
        if let key, let slot = known[key] {
          replays[slot].pending += 1
          continue
        }
        do {
          guard case .record(let record) = try RecordLineDecoder.decode(line) else { continue }
          let replay = add(record)
          if let key, replays.count < Self.distinctLimit {
            known[key] = replays.count
            replays.append((replay, 0))
          }
        } catch {
          let reason =
            terminated ? error.description : "truncated last line (no newline at the end; \(error))"
          problems.append("\(path):\(number): \(reason)")
        }
      }
    }
    for (replay, pending) in replays where pending > 0 {
      records += pending
      guard let replay else {
        otherKinds += pending
        continue
      }
      tags[replay.key]?.add(replay, times: pending)
    }
  }

  /// Adds one record (the debugger drafts an entry from the records it holds).
  public mutating func add(record: Record) { _ = add(record) }

  /// The tag of `section` named `name`, when one of its records was read.
  func tag(section: PlanSection, name: String) -> InferredTag? {
    tags[InferredTag.Key(section: section, name: name)]
  }

  /// Adds one record; returns what its repeats add, `nil` for a kind plans do not describe.
  private mutating func add(_ record: Record) -> InferredTag.Replay? {
    records += 1
    guard let kind = record.kind.tagKind, let section = PlanSection(kind: kind) else {
      otherKinds += 1
      return nil
    }
    let key = InferredTag.Key(section: section, name: record.name)
    tags[key, default: InferredTag(section: section, name: record.name)].add(record, times: 1)
    return InferredTag.Replay(record, key: key)
  }

  /// The draft plan as YAML, named `name`.
  public func yaml(name: String) -> String {
    PlanDraftWriter(
      tags: tags.values.sorted { $0.key < $1.key }, files: files, records: records,
      otherKinds: otherKinds
    ).yaml(name: name)
  }
}

extension InferredTag {
  var key: Key { Key(section: section, name: name) }
}
