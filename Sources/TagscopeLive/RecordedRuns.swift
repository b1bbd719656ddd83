import TagscopeRecording
import TagscopeServer
import TagscopeTimeline

/// What a recording already holds of each native run (a `RemoteSink`'s `run`): the highest `seq`,
/// so `tagscope listen` continuing the recording takes every resent record once; and of each SDK
/// device, its last state, so its next call carries on from there.
public enum RecordedRuns {
  /// The highest `seq` per run in the recording at `path`, its SDK devices, and how many records
  /// it holds.
  public static func scan(path: String) throws(RecordingReadError) -> (
    runs: [String: UInt64], devices: RecordedDevices, records: Int
  ) {
    let reader = try RecordingReader(path: path)
    var runs: [String: UInt64] = [:]
    var devices = RecordedDevices()
    var records = 0
    while let entry = try reader.next() {
      guard case .record(let record, _) = entry else { continue }
      records += 1
      if case .string(let run)? = record.extra["run"] {
        runs[run] = max(runs[run] ?? 0, record.seq)
      } else {
        devices.note(record)
      }
    }
    return (runs, devices, records)
  }
}
