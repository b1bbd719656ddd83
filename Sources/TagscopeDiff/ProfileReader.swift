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
    /// What its header's version says when a newer tagscope wrote it (see
    /// `RecordingHeader.versionWarning`); `nil` for the version read.
    public var versionWarning: String?
    /// Records whose `seq` repeats, goes backwards or starts again within their source, as
    /// `validate` notes them (``SequenceReport/notes``).
    public var sequenceNotes: [String] = []
  }

  /// Distinct records remembered (as the cells of the profile they add to); past it,
  /// records are decoded and added one by one.
  static let distinctLimit = 262_144

  /// Reads the recording at `path` (`-` is standard input). Throws when it cannot be read at all.
  public static func read(path: String) throws(RecordingReadError) -> (RecordingProfile, Summary) {
    var profile = RecordingProfile()
    var summary = Summary()
    let scan = try RecordingContentScan.scan(
      path: path, limit: distinctLimit,
      first: { record, remembered in profile.add(record, times: 1, remember: remembered) },
      problem: { summary.problems.append($0) }, dropped: { summary.droppedByWriter += $0 })
    for (replay, repeats) in zip(scan.memos, scan.repeats) where repeats > 0 {
      if let replay { profile.add(replay, times: repeats) }
    }
    profile.forgetReplays()
    summary.versionWarning = scan.header.versionWarning
    summary.sequenceNotes = scan.sequence.notes
    return (profile, summary)
  }
}
