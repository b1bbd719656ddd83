import Foundation
import TagscopeTimeline

/// One source in the Sources view: what the timeline counts of it and, under `listen`, its
/// connection.
public struct SourceOverview: Sendable, Hashable {
  public var statistics: SourceStatistics
  public var connection: SourceConnection?

  /// An overview row.
  public init(statistics: SourceStatistics, connection: SourceConnection? = nil) {
    self.statistics = statistics
    self.connection = connection
  }
}

/// The Sources view (`S`): every device with its counts and connection; `enter` shows only the
/// one under the cursor (row 0: all of them).
public struct SourcesView: Sendable, Hashable {
  /// The sources, in the order first seen.
  public var rows: [SourceOverview]
  /// The row under the cursor: 0 is "all sources", `n` is `rows[n - 1]`.
  public var cursor: Int
  /// The record count the rows were loaded at (they are reloaded as records arrive).
  public var loadedAt: Int
}

/// The short, stable label and colour of each source: its letter in the order sources were first
/// seen (`A`, `B`, … `Z`, `AA`, …), so the same device keeps its label and colour all session.
public enum SourceLabels {
  /// The colours labels cycle through.
  static let colors: [Color] = [.cyan, .magenta, .yellow, .green, .blue, .red]

  /// The label of the source at `position` in ``SourceInfo/sources``.
  public static func label(_ position: Int) -> String {
    var number = position
    var label = ""
    repeat {
      label = String(UnicodeScalar(UInt8(65 + number % 26))) + label
      number = number / 26 - 1
    } while number >= 0
    return label
  }

  /// The label's colour.
  static func style(_ position: Int) -> Style { Style(color: colors[position % colors.count], bold: true) }
}

extension State {
  /// The position of `source` among the sources seen (its label's number).
  func sourcePosition(_ source: String?) -> Int? {
    guard let source else { return nil }
    return info.sources.firstIndex(of: source)
  }

  /// Whether the Events rows carry source labels: once there are two sources or more.
  var showsSourceLabels: Bool { info.sources.count >= 2 }

  /// Columns of the widest source label (and its space).
  var sourceLabelWidth: Int { showsSourceLabels ? SourceLabels.label(info.sources.count - 1).count + 1 : 0 }

  /// Opens the Sources view (nothing without sources).
  mutating func openSources() -> [Effect] {
    guard !info.sources.isEmpty else {
      notice = "no sources: records from tagscope listen carry their device"
      return []
    }
    let current = filter?.source
    let cursor = (info.sources.firstIndex { $0.lowercased() == current }).map { $0 + 1 } ?? 0
    overlay = .sources(SourcesView(rows: [], cursor: cursor, loadedAt: -1))
    return [.loadSources]
  }

  mutating func sourcesKey(_ key: Key, _ view: SourcesView) -> [Effect] {
    var view = view
    switch key {
    case .character("q"): shouldQuit = true
    case .escape, .character("S"):
      overlay = .none
      return []
    case .character("j"), .down: view.cursor = min(view.cursor + 1, view.rows.count)
    case .character("k"), .up: view.cursor = max(view.cursor - 1, 0)
    case .character("g"), .home: view.cursor = 0
    case .character("G"), .end: view.cursor = view.rows.count
    case .enter:
      overlay = .none
      let terms = (try? FilterTerms.split(filterText).get()) ?? []
      let others = terms.filter {
        !$0.lowercased().hasPrefix("source:") && !$0.lowercased().hasPrefix("source~")
      }
      var text = others.map(FilterTerms.quoted)
      if view.cursor > 0, view.cursor <= view.rows.count {
        text.append("source:" + FilterTerms.quotedValue(view.rows[view.cursor - 1].statistics.name))
      }
      return applyFilter(text.joined(separator: " "))
    default: break
    }
    overlay = .sources(view)
    return []
  }

  mutating func sourcesLoaded(_ rows: [SourceOverview], at count: Int) {
    guard case .sources(var view) = overlay else { return }
    view.rows = rows
    view.loadedAt = count
    view.cursor = min(view.cursor, rows.count)
    overlay = .sources(view)
  }
}
