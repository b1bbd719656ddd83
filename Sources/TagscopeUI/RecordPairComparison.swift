import AnalyticsHub
import TagscopeRecording

/// Two records side by side (`m` marks one, `d` compares it with the selected one): every field
/// of their JSON by path (`outputs[firebase].calls[0].parameters.value`: outputs by provider), in
/// the first record's order then the second's extras, with the differing ones marked.
public struct RecordPairView: Sendable, Hashable {
  /// One field: its path and its value in each record (`nil` where the record lacks it).
  public struct Row: Sendable, Hashable {
    public var path: String
    public var left: String?
    public var right: String?
    /// Whether the values differ (or one record lacks the field).
    public var differs: Bool { left != right }
  }

  /// The marked and the selected record's timeline indices.
  public var left: Int
  public var right: Int
  /// Their sequence numbers and names, once loaded.
  public var leftTitle = ""
  public var rightTitle = ""
  /// The fields; `nil` until loaded.
  public var rows: [Row]?
  /// Only the differing fields are listed (`tab` switches).
  public var differencesOnly = false
  /// First line shown.
  public var scroll = 0

  /// The rows of `left` against `right`, from their JSON lines.
  static func rows(_ left: Record, _ right: Record) -> [Row] {
    let leftFields = fields(left)
    let rightFields = fields(right)
    var rightByPath: [String: String] = [:]
    for (path, value) in rightFields { rightByPath[path] = value }
    var leftPaths = Set<String>()
    var rows: [Row] = []
    for (path, value) in leftFields {
      leftPaths.insert(path)
      rows.append(Row(path: path, left: value, right: rightByPath[path]))
    }
    for (path, value) in rightFields where !leftPaths.contains(path) {
      rows.append(Row(path: path, left: nil, right: value))
    }
    return rows
  }

  /// A record's scalar fields by path, in the order of its JSON line.
  private static func fields(_ record: Record) -> [(String, String)] {
    guard let value = try? JSONParser.parse(RecordLineEncoder.line(record)) else { return [] }
    var fields: [(String, String)] = []
    flatten(value, path: "", into: &fields)
    return fields
  }

  private static func flatten(_ value: PropertyValue, path: String, into fields: inout [(String, String)]) {
    switch value {
    case .object(let object) where !object.isEmpty:
      for (key, inner) in object {
        flatten(inner, path: path.isEmpty ? key : path + "." + key, into: &fields)
      }
    case .array(let elements) where !elements.isEmpty:
      for (index, inner) in elements.enumerated() {
        // Outputs pair by provider, not by position: two records reach different providers.
        if path == "outputs", case .object(let output) = inner,
          case .string(let provider)? = output["provider"]
        {
          flatten(inner, path: path + "[" + provider + "]", into: &fields)
        } else {
          flatten(inner, path: path + "[\(index)]", into: &fields)
        }
      }
    case .object: fields.append((path, "{}"))
    case .array: fields.append((path, "[]"))
    case .string(let text): fields.append((path, "\"" + text + "\""))
    default: fields.append((path, value.displayText))
    }
  }
}

extension State {
  /// `m`: marks the selected record (again: unmarks it) for `d`.
  mutating func markSelected() {
    guard let index = selectedIndex else { return }
    let seq = Format.number(index)
    if markedIndex == index {
      markedIndex = nil
      notice = "mark removed"
    } else {
      markedIndex = index
      notice = Sanitizer.clean("marked #\(seq): select another record and press d to compare them")
    }
  }

  /// `d`: the marked record beside the selected one.
  mutating func openPairComparison() -> [Effect] {
    guard let index = selectedIndex else { return [] }
    guard let marked = markedIndex else {
      notice = "mark a record with m first, then select another and press d"
      return []
    }
    overlay = .pair(RecordPairView(left: marked, right: index))
    return [.loadPair(marked, index)]
  }

  mutating func pairLoaded(left: Int, right: Int, titles: (String, String), rows: [RecordPairView.Row]) {
    guard case .pair(var view) = overlay, view.left == left, view.right == right else { return }
    view.leftTitle = titles.0
    view.rightTitle = titles.1
    view.rows = rows
    overlay = .pair(view)
  }

  mutating func pairKey(_ key: Key, _ view: RecordPairView) {
    var view = view
    let last = FrameView(state: self, layout: layout).pairMaximumScroll(view)
    let page = max(1, size.height - 6)
    switch key {
    case .character("q"):
      shouldQuit = true
      return
    case .escape, .enter, .backspace, .character("d"):
      overlay = .none
      return
    case .tab:
      view.differencesOnly.toggle()
      view.scroll = 0
      overlay = .pair(view)
      return
    default: view.scroll = Self.scrolled(view.scroll, by: key, page: page, last: last)
    }
    overlay = .pair(view)
  }
}
