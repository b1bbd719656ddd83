import Foundation
import TagscopeRecording
import TagscopeServer
import TagscopeTimeline

/// What a recording already holds of each native run (a `RemoteSink`'s `run`): the highest `seq`,
/// so `tagscope listen` continuing the recording takes every resent record once; and of each SDK
/// device, its last state, so its next call carries on from there; and its last SDK messages with
/// an id, so an SDK's retry of one is taken once.
public enum RecordedRuns {
  /// What ``scan(path:)`` found.
  public struct Scan: Sendable {
    /// The highest `seq` per run, from complete lines only (a `seq` more than
    /// ``SequenceCheck/jumpLimit`` past it is not taken as the highest, as `listen` does).
    public var runs: [String: UInt64] = [:]
    /// The `seq`s per run recorded more than ``SequenceCheck/jumpLimit`` past its highest: no
    /// acknowledgement covered them, so their resends are duplicates.
    public var jumps: [String: Set<UInt64>] = [:]
    /// The SDK devices' last states.
    public var devices = RecordedDevices()
    /// The last SDK messages with an id, when the file was written within the retry window.
    public var messages = RecordedMessages()
    /// How far each followed log file's entries were recorded.
    public var logs = RecordedLogs()
    /// Records read.
    public var records = 0
    /// The last line, when it was cut mid-write (no newline at its end and not a whole record):
    /// set aside, not counted.
    public var tornLastLine: LineProblem?
    /// The records' `seq` as ``SequenceCheck`` finds them per source, in file order (what
    /// `validate` counts in the file): kept; each run's mark stays its highest `seq`.
    public var sequence = SequenceCheck.Counts()
  }

  /// What the recording at `path` holds: see ``Scan``.
  public static func scan(path: String) throws(RecordingReadError) -> Scan {
    try scan(RecordingReader(path: path), path: path)
  }

  /// What `reader` (opened on the recording at `path`, its header read) holds from where it
  /// stands: see ``Scan``. The same reader whose header was checked reads the rest, so the file is
  /// opened once.
  public static func scan(_ reader: RecordingReader, path: String) throws(RecordingReadError) -> Scan {
    var scan = Scan()
    if let written = try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date {
      scan.messages = RecordedMessages(lastWritten: written)
    }
    var sequence = SequenceCheck()
    while let entry = try reader.next() {
      switch entry {
      case .record(let record, _):
        scan.records += 1
        _ = sequence.check(seq: record.seq, source: record.source)
        if case .string(let run)? = record.extra["run"] {
          // The run's mark is its highest seq, not one far past it (as `listen` takes them).
          guard let highest = scan.runs[run] else {
            scan.runs[run] = record.seq
            continue
          }
          if record.seq > highest, record.seq - highest > SequenceCheck.jumpLimit {
            scan.jumps[run, default: []].insert(record.seq)
          } else if record.seq > highest {
            scan.runs[run] = record.seq
          }
        } else {
          scan.devices.note(record)
          scan.messages.note(record)
          scan.logs.note(record)
        }
      case .problem(let problem) where problem.isTruncatedLastLine:
        scan.tornLastLine = problem
      case .problem, .dropped:
        continue
      }
    }
    scan.sequence = sequence.counts
    return scan
  }
}
