import TaggingPlan
import TagscopeRecording

/// Reads a recording with the inspector's `RecordingReader`, handing every record to a closure;
/// unreadable lines are collected as ``RecordingProblem``s (file and line number) and skipped.
public enum RecordingScanner {
  /// What a scan found besides the records.
  public struct Summary: Sendable {
    /// Records handed to the closure.
    public var records = 0
    /// Unreadable lines, skipped.
    public var problems: [RecordingProblem] = []
    /// Records the writer reported as lost (drop markers).
    public var droppedByWriter = 0
    /// The header's version warning, when the recording is newer than this reader.
    public var versionWarning: String?
    /// The recording's header (validation only).
    var header: RecordingHeader?
    /// The read error that stopped the scan before the end of the recording, at the line it
    /// would have read next (validation only).
    var readFailure: RecordingProblem?
    /// Records whose `seq` repeats, goes backwards or starts again within their source (the first
    /// ``anomalyLimit``; ``sequence`` counts them all). Records stay in file order.
    public var sequenceAnomalies: [RecordingProblem] = []
    /// Every `seq` anomaly and restart counted.
    public var sequence: SequenceCheck.Counts { sequenceCheck.counts }
    private var sequenceCheck = SequenceCheck()
    /// Where the records with violations are (validation only).
    var sites: [RecordSite] = []
    /// The funnels the recording ends in the middle of (validation only).
    var unfinishedFunnels: [UnfinishedFunnel] = []
    /// Records and violations of records without a `source` (validation only).
    var unsourced = SourceTotals(source: nil)
    /// The same per `source`, in order of appearance (at most ``sourceLimit`` sources; the rest
    /// are counted together as ``otherSources``).
    var sourced: [SourceTotals] = []
    private var sourcePositions: [String: Int] = [:]

    /// Distinct sources counted one by one (recordings are untrusted).
    static let sourceLimit = 1_000
    /// The name the sources past ``sourceLimit`` are counted under.
    static let otherSources = "(other sources)"

    /// Counts a record of `source` and its violations.
    mutating func count(source: String?, violations: Int) {
      guard let source else {
        unsourced.records += 1
        unsourced.violations += violations
        return
      }
      let name =
        sourcePositions[source] != nil || sourced.count < Self.sourceLimit ? source : Self.otherSources
      let position: Int
      if let known = sourcePositions[name] {
        position = known
      } else {
        position = sourced.count
        sourcePositions[name] = position
        sourced.append(SourceTotals(source: name))
      }
      sourced[position].records += 1
      sourced[position].violations += violations
    }

    /// `seq` anomalies listed one by one at most, per recording.
    public static let anomalyLimit = 100

    init(versionWarning: String? = nil) { self.versionWarning = versionWarning }

    /// What a read error says after the recording's `file:line`: the error without the path it
    /// repeats, and that the rest was not read.
    static func readFailureMessage(_ error: RecordingReadError, path: String) -> String {
      var text = error.description
      for name in path == "-" ? [path, "<stdin>"] : [path] where text.hasPrefix(name + ": ") {
        text.removeFirst(name.count + 2)
      }
      return "\(text); the rest of the recording was not read"
    }

    /// Checks the `seq` of the record at `file:line` against its source's earlier records.
    mutating func checkSequence(seq: UInt64, source: String?, file: String, line: Int) {
      guard let anomaly = sequenceCheck.check(seq: seq, source: source) else { return }
      guard sequenceAnomalies.count < Self.anomalyLimit else { return }
      let from = source.map { " (source \(TerminalText.sanitize(String($0.prefix(80)))))" } ?? ""
      sequenceAnomalies.append(RecordingProblem(file: file, line: line, message: "\(anomaly)\(from)"))
    }
  }

  /// Scans the recording at `path` (`-` for standard input). Throws only when it cannot be read
  /// at all: it cannot be opened, or it is not a tagscope recording (no header line).
  public static func scan(path: String, _ body: (Record) -> Void) throws(RecordingReadError) -> Summary {
    let reader = try RecordingReader(path: path)
    var summary = Summary(versionWarning: reader.header.versionWarning)
    while let entry = try reader.next() {
      switch entry {
      case .record(let record, let location):
        summary.records += 1
        summary.checkSequence(seq: record.seq, source: record.source, file: path, line: location.line)
        body(record)
      case .dropped(let marker, _):
        summary.droppedByWriter += marker.count
      case .problem(let problem):
        summary.problems.append(
          RecordingProblem(file: problem.file, line: problem.line, message: problem.reason))
      }
    }
    return summary
  }
}
