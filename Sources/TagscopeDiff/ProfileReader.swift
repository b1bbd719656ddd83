import Foundation
import TagscopeRecording
import TagscopeTimeline

/// Reads a recording into a ``RecordingProfile``. A record whose content (kind, name, properties,
/// screen, outputs) repeats an earlier one's is counted without being decoded again (see
/// `RecordContentKey`), so reading keeps up with `validate`; unreadable lines are reported with
/// their file and line and skipped.
public enum ProfileReader {
  /// What reading a recording found besides its profile.
  public struct Summary: Sendable {
    /// Unreadable lines, skipped: `file:line: reason`.
    public var problems: [String] = []
    /// Records the writer reported as lost (drop markers).
    public var droppedByWriter = 0
  }

  /// Distinct records remembered (as what they add to the counts, a few names each); past it,
  /// records are decoded and added one by one.
  static let distinctLimit = 262_144

  /// Reads the recording at `path` (`-` is standard input). Throws when it cannot be read at all.
  public static func read(path: String) throws(RecordingReadError) -> (RecordingProfile, Summary) {
    let reader = try RecordingReader(path: path)
    var profile = RecordingProfile()
    var summary = Summary()
    var known: [RecordContentKey: Int] = [:]
    var replays: [RecordingProfile.Replay] = []
    var builder = RecordContentKeyBuilder(keysSourcedRecords: true)
    while let raw = try reader.nextRawLine() {
      switch raw {
      case .overlong(let problem):
        summary.problems.append(problem.description)
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
          switch try RecordLineDecoder.decode(line) {
          case .record(let record):
            profile.add(record)
            if let key, replays.count < distinctLimit {
              known[key] = replays.count
              replays.append(RecordingProfile.Replay(record))
            }
          case .header: break
          case .dropped(let marker): summary.droppedByWriter += marker.count
          }
        } catch {
          let reason =
            terminated ? error.description : "truncated last line (no newline at the end; \(error))"
          summary.problems.append("\(path):\(number): \(reason)")
        }
      }
    }
    for replay in replays where replay.pending > 0 { profile.add(replay, times: replay.pending) }
    return (profile, summary)
  }
}
