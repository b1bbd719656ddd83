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
    /// Records read.
    public var records = 0
    /// The last line, when it was cut mid-write (no newline at its end and not a whole record):
    /// set aside, not counted.
    public var tornLastLine: LineProblem?
    /// Records whose `seq` is at or below an earlier one of their run (resent, or sent out of
    /// order): kept, counted here; the run's mark stays its highest `seq`.
    public var sequenceAnomalies = 0
  }

  /// What the recording at `path` holds: see ``Scan``.
  public static func scan(path: String) throws(RecordingReadError) -> Scan {
    let reader = try RecordingReader(path: path)
    var scan = Scan()
    if let written = try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date {
      scan.messages = RecordedMessages(lastWritten: written)
    }
    while let entry = try reader.next() {
      switch entry {
      case .record(let record, _):
        scan.records += 1
        if case .string(let run)? = record.extra["run"] {
          if let highest = scan.runs[run], record.seq <= highest {
            scan.sequenceAnomalies += 1
          } else if let highest = scan.runs[run], record.seq - highest > SequenceCheck.jumpLimit {
            scan.sequenceAnomalies += 1
            scan.jumps[run, default: []].insert(record.seq)
          } else {
            scan.runs[run] = record.seq
          }
        } else {
          scan.devices.note(record)
          scan.messages.note(record)
        }
      case .problem(let problem) where problem.isTruncatedLastLine:
        scan.tornLastLine = problem
      case .problem, .dropped:
        continue
      }
    }
    return scan
  }
}
