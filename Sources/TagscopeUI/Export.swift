import Foundation
import TagscopeRecording

/// Which records an export writes.
public enum ExportScope: Sendable, Hashable {
  /// The record at this timeline index.
  case record(Int)
  /// These timeline indices (the filter's matches).
  case records([Int])
  /// The first `count` records (everything, no filter).
  case all(count: Int)

  /// How many records it names.
  public var count: Int {
    switch self {
    case .record: return 1
    case .records(let indices): return indices.count
    case .all(let count): return count
    }
  }
}

/// An export being set up: what it writes, the file name typed so far, and whether personal data
/// is replaced by salted hashes (`ctrl-r`, ``Redactor``).
public struct ExportPrompt: Sendable, Hashable {
  public var scope: ExportScope
  public var path: String
  public var redacted = false

  /// Whether a file name makes an HTML session (``SessionPage``, `.html` or `.htm`) rather than a
  /// new recording.
  public static func isHTMLSession(_ path: String) -> Bool {
    let lower = path.lowercased()
    return lower.hasSuffix(".html") || lower.hasSuffix(".htm")
  }

  /// The file name with the other choice's extension (`tab`): a recording's `.jsonl` becomes an
  /// HTML session's `.html`, and back.
  static func switched(_ path: String) -> String {
    let html = isHTMLSession(path)
    var base = path
    if let dot = path.lastIndex(of: "."), !path[dot...].contains("/") { base = String(path[..<dot]) }
    return base + (html ? ".jsonl" : ".html")
  }

  /// What the prompt says after the name: what will be written and how to choose the other.
  var hint: String {
    let privacy = redacted ? "ctrl-r as recorded" : "ctrl-r redact personal data"
    return Self.isHTMLSession(path)
      ? "  an HTML session anyone can open · tab recording · \(privacy) · enter write · esc cancel "
      : "  a new recording file · tab HTML session · \(privacy) · enter write · esc cancel "
  }
}

extension State {
  /// Opens the export prompt for the selected record (`e`) or the visible ones (`E`: the filter's
  /// matches, or every record), with a file name made from the time of the last tick.
  mutating func startExport(all: Bool) {
    guard let index = selectedIndex else {
      notice = "nothing to export yet"
      return
    }
    let stamp = ISO8601Timestamp.string(
      from: Date(recordMilliseconds: ISO8601Timestamp.milliseconds(seconds: now))
    )
    .filter { $0.isNumber || $0 == "T" }.prefix(15).replacingOccurrences(of: "T", with: "-")
    let scope: ExportScope
    let name: String
    if all {
      scope = matches.map { .records($0) } ?? .all(count: known)
      name = "tagscope-export-\(scope.count)-records-\(stamp).jsonl"
    } else {
      scope = .record(index)
      name = "tagscope-export-record-\(Format.number(index))-\(stamp).jsonl"
    }
    overlay = .export(ExportPrompt(scope: scope, path: name))
  }

  mutating func exportKey(_ key: Key, _ prompt: ExportPrompt) -> [Effect] {
    var prompt = prompt
    switch key {
    case .escape:
      overlay = .none
      return []
    case .enter:
      let path = prompt.path.trimmingCharacters(in: .whitespaces)
      guard !path.isEmpty else {
        notice = "type a file name for the export"
        overlay = .export(prompt)
        return []
      }
      overlay = .none
      return [.export(prompt.scope, path: path, redacted: prompt.redacted)]
    case .tab: prompt.path = ExportPrompt.switched(prompt.path)
    case .control("r"): prompt.redacted.toggle()
    case .backspace, .delete, .control: prompt.path = TextInput.edit(prompt.path, key)
    case .character(let character) where !character.isNewline: prompt.path.append(character)
    default: break
    }
    overlay = .export(prompt)
    return []
  }

  mutating func exported(path: String, count: Int, error: String?, redacted: Bool = false) {
    if let error {
      notice = Sanitizer.clean("export failed: \(error)", limit: 300)
    } else {
      let records =
        (count == 1 ? "1 record" : "\(Format.grouped(count)) records")
        + (redacted ? ", personal data redacted," : "")
      let reader =
        ExportPrompt.isHTMLSession(path)
        ? "an HTML session: open it in a browser" : "tagscope replay / validate read it"
      notice = Sanitizer.clean("exported \(records) to \(path) (\(reader))", limit: 400)
    }
  }
}
