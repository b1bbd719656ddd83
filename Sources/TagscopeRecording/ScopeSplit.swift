import Foundation

/// The records of one UI test scope (between its ``ScopeMarker`` lines, of its source only when
/// it names one) copied out of a recording, every other line left blank, so a reader of the copy
/// cites the original's line numbers (blank lines are skipped by every reader).
public enum ScopeSplit {
  /// What a copy holds.
  public struct Summary: Sendable, Hashable {
    /// Records copied.
    public var records = 0
    /// Times the scope began in the recording.
    public var begun = 0
    /// Whether the recording ends with the scope still open (its end was never written).
    public var leftOpen = false
  }

  /// The names of the scopes begun in the recording at `path`, in order of their first begin.
  public static func names(in path: String) throws -> [String] {
    var names: [String] = []
    try forEachLine(path) { _, decoded in
      if case .dropped(let marker)? = decoded, let scope = ScopeMarker(marker), scope.event == .begin,
        !names.contains(scope.name)
      {
        names.append(scope.name)
      }
    }
    return names
  }

  /// Copies the header and the lines of scope `name` of the recording at `path` to `destination`
  /// (created new), other lines blank. A line that cannot be read is copied when it is inside the
  /// scope, so the copy's reader reports it with its line.
  public static func copy(scope name: String, of path: String, to destination: URL) throws -> Summary {
    var summary = Summary()
    var open: ScopeMarker?
    var out = Data()
    try forEachLine(path) { bytes, decoded in
      switch decoded {
      case .header?: out.append(contentsOf: bytes)
      case .dropped(let marker)?:
        if let scope = ScopeMarker(marker), scope.name == name {
          if scope.event == .begin { summary.begun += 1 }
          open = scope.event == .begin ? scope : nil
        } else if open != nil {
          out.append(contentsOf: bytes)
        }
      case .record(let record)?:
        if let scope = open, scope.source == nil || scope.source == record.source {
          out.append(contentsOf: bytes)
          summary.records += 1
        }
      case nil:
        if open != nil { out.append(contentsOf: bytes) }
      }
      out.append(0x0A)
    }
    summary.leftOpen = open != nil
    guard FileManager.default.createFile(atPath: destination.path, contents: out) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
    }
    return summary
  }

  /// Calls `body` with each line of the file at `path` (without its newline) and what it is
  /// (`nil` when it is blank or cannot be read).
  private static func forEachLine(_ path: String, _ body: (ArraySlice<UInt8>, RecordingLine?) -> Void) throws
  {
    let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
    let bytes = [UInt8](data)
    var start = 0
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
      let line = bytes[start..<end]
      let decoded = line.isEmpty ? nil : try? RecordLineDecoder.decode(Array(line))
      body(line, decoded)
      start = end + 1
    }
  }
}
