/// Finds records whose `seq` does not follow the earlier records of the same source in file order:
/// a `seq` that repeats, one below the highest so far, or one more than ``jumpLimit`` past it (which
/// does not become the highest, so the records after it are not all counted as going backwards). A
/// source whose `seq` starts again at 1 (an app launched again under the same name) has restarted:
/// reported, but counted apart from the anomalies. Records keep their file order whatever their
/// `seq`; this only says where it is not ascending.
///
/// It is the one definition of a `seq` anomaly: `validate` and `diff` count with it offline, the
/// live timeline as it stores records (the query API's `seqAnomalies`, `listen`'s summary and the
/// debugger's header read that count), and `listen`'s native streams apply the same jump limit
/// before acknowledging.
public struct SequenceCheck: Sendable {
  /// How a record's `seq` fails to follow its source's earlier ones.
  public enum Anomaly: Sendable, Hashable, CustomStringConvertible {
    /// The same `seq` as one of the source's latest records (see ``SequenceCheck/window``).
    case repeated(UInt64)
    /// Lower than the highest `seq` the source has sent so far.
    case backwards(from: UInt64, to: UInt64)
    /// Back to 1 (or 0): a new run of the app, or records spliced from two runs.
    case restarted(after: UInt64)
    /// More than ``SequenceCheck/jumpLimit`` past the source's highest: not taken as the highest.
    case jumped(from: UInt64, to: UInt64)

    public var description: String {
      switch self {
      case .repeated(let seq): "seq \(seq) repeats an earlier record's"
      case .backwards(let from, let to): "seq goes backwards, from \(from) to \(to)"
      case .restarted(let previous): "seq starts again at 1 after \(previous) (a new run of the app?)"
      case .jumped(let from, let to):
        "seq jumps from \(from) to \(to), more than \(SequenceCheck.jumpLimit) ahead (not taken as the highest)"
      }
    }
  }

  /// Counts of what was found.
  public struct Counts: Sendable, Hashable {
    /// Records whose `seq` repeats one of their source's latest.
    public var repeated = 0
    /// Records whose `seq` is below their source's highest so far (and not a repeat).
    public var backwards = 0
    /// Sources whose `seq` started again at 1.
    public var restarts = 0
    /// Records whose `seq` jumped more than ``SequenceCheck/jumpLimit`` past their source's highest.
    public var jumped = 0

    /// Repeated, backwards and jumped.
    public var anomalies: Int { repeated + backwards + jumped }
    /// Everything reported: anomalies and restarts.
    public var reported: Int { anomalies + restarts }

    /// Adds `other`'s counts (another recording's).
    public static func += (lhs: inout Counts, rhs: Counts) {
      lhs.repeated += rhs.repeated
      lhs.backwards += rhs.backwards
      lhs.restarts += rhs.restarts
      lhs.jumped += rhs.jumped
    }

    public init() {}
  }

  /// One source's run so far: its highest `seq` and its last ``window`` ones.
  private struct Run {
    var highest: UInt64
    var recent: [UInt64]
    var next = 0

    init(_ seq: UInt64) {
      highest = seq
      recent = [seq]
    }

    mutating func check(_ seq: UInt64, counts: inout Counts) -> Anomaly? {
      defer { remember(seq) }
      guard seq <= highest else {
        if seq - highest > SequenceCheck.jumpLimit {
          counts.jumped += 1
          return .jumped(from: highest, to: seq)
        }
        highest = seq
        return nil
      }
      if seq <= 1 && highest > 1 {
        counts.restarts += 1
        let previous = highest
        self = Run(seq)
        return .restarted(after: previous)
      }
      if recent.contains(seq) {
        counts.repeated += 1
        return .repeated(seq)
      }
      counts.backwards += 1
      return .backwards(from: highest, to: seq)
    }

    private mutating func remember(_ seq: UInt64) {
      if recent.last == seq { return }
      if recent.count < SequenceCheck.window {
        recent.append(seq)
      } else {
        recent[next] = seq
        next = (next + 1) % SequenceCheck.window
      }
    }
  }

  /// The most a `seq` may pass its source's highest and become the new highest (2^20).
  public static let jumpLimit: UInt64 = 1 << 20

  /// How many of a source's latest `seq` a repeat is looked for in; an older one seen again counts
  /// as going backwards.
  public static let window = 64

  /// By source key (key 0: no source); `nil` before a source's first record.
  private var runs: [Run?] = []
  private var keys: [String: Int] = [:]
  /// What was found so far.
  public private(set) var counts = Counts()

  public init() {}

  /// Checks the next record (in file order) of the source numbered `sourceKey` (small numbers from
  /// 0, e.g. an interned source id).
  public mutating func check(seq: UInt64, sourceKey: Int) -> Anomaly? {
    if sourceKey >= runs.count {
      runs.append(contentsOf: repeatElement(nil, count: sourceKey + 1 - runs.count))
    }
    guard runs[sourceKey] != nil else {
      runs[sourceKey] = Run(seq)
      return nil
    }
    return runs[sourceKey]!.check(seq, counts: &counts)
  }

  /// Checks the next record (in file order) of `source` (`nil`: a record without one).
  public mutating func check(seq: UInt64, source: String?) -> Anomaly? {
    guard let source else { return check(seq: seq, sourceKey: 0) }
    if let key = keys[source] { return check(seq: seq, sourceKey: key) }
    let key = keys.count + 1
    keys[source] = key
    return check(seq: seq, sourceKey: key)
  }
}
