/// A recording's `seq` checked record by record as a reader goes through it (``SequenceCheck``),
/// keeping where the first anomalies are; ``notes`` words them for standard error, as `validate`,
/// `diff` and `plan infer` all report them.
public struct SequenceReport: Sendable {
  /// The recording's path, as the notes name it.
  public let path: String
  private var sequence = SequenceCheck()
  private var sourceKeys: [[UInt8]: Int] = [:]
  /// The first anomalies (at most ``locatedLimit``), each `file:line: what (source …)`.
  public private(set) var located: [String] = []

  /// Anomalies located one by one; the rest are counted.
  public static let locatedLimit = 100
  /// Anomalies noted one by one on standard error; the rest in one line.
  public static let notedLimit = 10

  public init(path: String) { self.path = path }

  /// Everything found so far.
  public var counts: SequenceCheck.Counts { sequence.counts }

  /// Checks the record at `line` of `source` (its bytes; `nil`: a record without one).
  public mutating func check(seq: UInt64, source: [UInt8]?, line: Int) {
    let key: Int
    if let source {
      if let known = sourceKeys[source] {
        key = known
      } else {
        key = sourceKeys.count + 1
        sourceKeys[source] = key
      }
    } else {
      key = 0
    }
    guard let anomaly = sequence.check(seq: seq, sourceKey: key), located.count < Self.locatedLimit else {
      return
    }
    located.append(
      Self.located(
        anomaly, file: path, line: line, source: source.map { String(decoding: $0, as: UTF8.self) }))
  }

  /// `file:line: what (source …)`, the words of every report of a `seq` anomaly.
  public static func located(_ anomaly: SequenceCheck.Anomaly, file: String, line: Int, source: String?)
    -> String
  {
    let from = source.map { " (source \(String($0.prefix(80))))" } ?? ""
    return "\(file):\(line): \(anomaly)\(from)"
  }

  /// The notes for standard error.
  public var notes: [String] { Self.notes(path: path, located: located, counts: counts) }

  /// The notes for standard error about the recording at `path`: the first ``notedLimit`` of
  /// `located` one by one, then one line counting the rest (`counts` has them all).
  public static func notes(path: String, located: [String], counts: SequenceCheck.Counts) -> [String] {
    var notes = located.prefix(notedLimit).map { "\($0) (kept in file order)" }
    if counts.reported > notedLimit {
      notes.append(
        "\(path): warning: \(counts.reported - notedLimit) more records whose seq repeats, goes backwards "
          + "or starts again (\(counts.repeated) repeated, \(counts.backwards) backwards, "
          + (counts.jumped > 0 ? "\(counts.jumped) jumped far ahead, " : "") + "\(counts.restarts) "
          + "restarts in all)")
    }
    return notes
  }
}
