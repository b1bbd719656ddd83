import TagscopeRecording

/// Records lost before reaching the timeline (a writer fell behind), as a drop marker said.
public struct TimelineGap: Sendable, Hashable {
  /// The index of the first record after the gap (`count` when the gap is at the end).
  public var beforeIndex: Int
  /// The marker as recorded.
  public var marker: DropMarker

  /// A gap.
  public init(beforeIndex: Int, marker: DropMarker) {
    self.beforeIndex = beforeIndex
    self.marker = marker
  }
}

/// Why the timeline cannot give a record.
public enum TimelineError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No record at this index.
  case indexOutOfRange(Int, count: Int)
  /// The backing file could not be read.
  case system(SystemError)
  /// The line at the index no longer decodes (the file changed underneath).
  case unreadable(LineProblem)
  /// A recording from standard input could not be read.
  case input(RecordingReadError)

  public var description: String {
    switch self {
    case .indexOutOfRange(let index, let count):
      return "no record at index \(index) (the timeline has \(count))"
    case .system(let error): return error.description
    case .unreadable(let problem): return problem.description
    case .input(let error): return error.description
    }
  }
}
