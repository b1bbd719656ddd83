import Foundation
import TaggingPlan
import TagscopeRecording

/// `tagscope plan infer FILE…`: drafts a tagging plan from recordings (in-app or from `listen`).
/// Every tag with its properties (types; `required` when present every time; `enum`, with a
/// comment, for a few string values that repeat and are neither ids nor free text: see
/// `InferredTag.Property.inferredEnum(name:)` and ``IdentityShape``), the screens each tag
/// happened on, and per provider the calls observed (with `when: {screen: …}` where they differ by
/// screen, `when: {phase: …}` for timed events), counts as comments. The output is deterministic and loads as a plan; it is a draft to review.
public struct PlanInference {
  /// Records read, and records a plan does not describe: of other kinds (sessions, consent, SDK
  /// payloads), or without a name.
  public private(set) var records = 0
  public private(set) var otherKinds = 0
  /// Unreadable lines, skipped: `file:line: reason`.
  public private(set) var problems: [String] = []
  /// One per recording a newer tagscope wrote: `file: warning: format version N is newer…`.
  public private(set) var warnings: [String] = []
  /// The first recording's app (its header's `app`), if it names one.
  public private(set) var app: String?
  /// What was learnt, flat (see ``InferenceStore``).
  private var store = InferenceStore()
  private var files: [String] = []

  /// Distinct records remembered for their repeats (as validate's cache).
  static let distinctLimit = 262_144

  public init() {}

  /// Reads the recording at `path` (`-` is standard input) into the draft. Throws when it cannot
  /// be read at all.
  public mutating func read(path: String) throws(RecordingReadError) {
    var problems: [String] = []
    let scan = try RecordingContentScan.scan(
      path: path, limit: Self.distinctLimit,
      first: { record, remembered in add(record, remember: remembered) }, problem: { problems.append($0) },
      dropped: { _ in })
    files.append(path)
    if app == nil { app = scan.header.app }
    if let warning = scan.header.versionWarning { warnings.append("\(path): warning: \(warning)") }
    warnings += scan.sequence.notes
    self.problems += problems
    for (replay, repeats) in zip(scan.memos, scan.repeats) where repeats > 0 {
      records += repeats
      guard let replay else {
        otherKinds += repeats
        continue
      }
      store.add(replay, times: repeats)
    }
    store.forgetReplays()
  }

  /// Adds one record (the debugger drafts an entry from the records it holds).
  public mutating func add(record: Record) { _ = add(record, remember: false) }

  /// The tag of `section` named `name`, when one of its records was read.
  func tag(section: PlanSection, name: String) -> InferredTag? {
    let key = InferredTag.Key(section: section, name: name)
    return store.index[key].map { store.tag(key, id: $0) }
  }

  /// Adds one record; with `remember`, returns what its repeats add (`nil` for a kind plans do
  /// not describe).
  private mutating func add(_ record: Record, remember: Bool) -> InferenceStore.Replay? {
    records += 1
    // A record without a name is counted with the other kinds: a plan cannot name it (its loader
    // refuses an empty key), so a draft planning it would not load.
    guard let kind = record.kind.tagKind, let section = PlanSection(kind: kind), !record.name.isEmpty else {
      otherKinds += 1
      return nil
    }
    return store.add(record, section: section, times: 1, remember: remember)
  }

  /// What the draft holds (see ``InferenceStore``).
  var footprint:
    (tags: Int, properties: Int, values: Int, providers: Int, calls: Int, strings: Int, sets: Int)
  {
    store.footprint
  }

  /// The draft plan as YAML, named `name`.
  public func yaml(name: String) -> String {
    var text = ""
    write(name: name) { text += $0 }
    return text
  }

  /// The draft plan as YAML, named `name`, handed to `output` in chunks (about 1 MiB each) rather
  /// than built whole: a draft of a million tags is written without holding its text.
  public func write(name: String, to output: (String) -> Void) {
    let store = self.store
    let order = store.index.keys.indices.sorted { store.index.keys[$0] < store.index.keys[$1] }
    PlanDraftWriter(
      keys: order.map { store.index.keys[$0] },
      tag: { store.tag(store.index.keys[order[$0]], id: Int32(order[$0])) },
      files: files, records: records, otherKinds: otherKinds
    ).write(name: name, to: output)
  }
}

extension InferredTag {
  var key: Key { Key(section: section, name: name) }
}
