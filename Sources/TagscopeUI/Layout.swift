/// The four panes, in focus order (`1`–`4`).
public enum Pane: Int, Sendable, Hashable, CaseIterable {
  case events
  case screens
  case session
  case providers

  /// The pane's title, exactly as shown.
  public var title: SafeText {
    switch self {
    case .events: return "Events"
    case .screens: return "Screens"
    case .session: return "Session"
    case .providers: return "Providers"
    }
  }
}

/// Where each pane goes for a terminal size: events on the left, screens and session side by side at
/// the top right, providers below them. Pure, so `update` (mouse hit tests, page sizes) and `render`
/// agree.
///
/// The Events pane is as wide as its rows need (``State/eventsWidth``), within bounds that leave
/// the provider columns room; the rest goes to the right-hand panes.
public struct Layout: Sendable, Hashable {
  /// Below this the UI shows a notice instead of panes.
  public static let minimum = Size(width: 60, height: 14)

  public let size: Size
  /// The pane filling the screen, when zoomed.
  public let zoomed: Pane?
  /// Columns of the Events pane's content, as its rows want it (`nil`: two fifths of the width).
  public let eventsWidth: Int?
  private let areas: [Rect]

  /// The layout for `size`, with `zoomed` filling the screen and the Events pane sized for
  /// `eventsWidth` columns of content when given.
  public init(size: Size, zoomed: Pane? = nil, eventsWidth: Int? = nil) {
    self.size = size
    self.zoomed = zoomed
    self.eventsWidth = eventsWidth
    let width = size.width
    let height = size.height
    if let zoomed {
      let full = Rect(x: 1, y: 1, width: width - 2, height: height - 2)
      areas = Pane.allCases.map { $0 == zoomed ? full : Rect(x: 0, y: 0, width: 0, height: 0) }
      return
    }
    let eventsRight = Self.eventsDivider(width, wanted: eventsWidth)
    let topHeight = Self.topHeight(height)
    let screensRight = Self.screensDivider(width, eventsRight: eventsRight)
    areas = [
      Rect(x: 1, y: 1, width: eventsRight - 1, height: height - 2),
      Rect(x: eventsRight + 1, y: 1, width: screensRight - eventsRight - 1, height: topHeight),
      Rect(x: screensRight + 1, y: 1, width: width - 2 - screensRight, height: topHeight),
      Rect(
        x: eventsRight + 1, y: topHeight + 2, width: width - 2 - eventsRight, height: height - topHeight - 3),
    ]
  }

  /// The column of the divider right of the Events pane: its wanted width, at least 30 columns
  /// and at most two fifths of a narrow screen (half of one 120 columns or wider), leaving the
  /// right-hand panes at least 30.
  private static func eventsDivider(_ width: Int, wanted: Int?) -> Int {
    let preferred = wanted.map { $0 + 1 } ?? width * 2 / 5
    let most = width < 120 ? width * 2 / 5 : width / 2
    return min(max(preferred, 30), max(30, most), width - 30)
  }
  private static func topHeight(_ height: Int) -> Int { min(max((height - 2) / 3, 6), height - 8) }
  private static func screensDivider(_ width: Int, eventsRight left: Int) -> Int {
    left + 1 + min(max((width - 2 - left) / 3, 14), 28)
  }

  /// Whether the terminal is too small for the panes.
  public var isTooSmall: Bool { size.width < Self.minimum.width || size.height < Self.minimum.height }

  /// The area of `pane` inside the borders: its title on the first row, content below.
  public func area(_ pane: Pane) -> Rect { areas[pane.rawValue] }

  /// The area of `pane` below its title.
  public func content(_ pane: Pane) -> Rect {
    let area = areas[pane.rawValue]
    return Rect(x: area.x, y: area.y + 1, width: area.width, height: area.height - 1)
  }

  /// Whether `pane` is on screen.
  public func isVisible(_ pane: Pane) -> Bool { zoomed == nil || zoomed == pane }

  /// The pane under a cell, if any.
  public func pane(atColumn column: Int, row: Int) -> Pane? {
    Pane.allCases.first { isVisible($0) && areas[$0.rawValue].contains(column: column, row: row) }
  }

  /// Draws the frame lines (outer box and, unless `dividers` is false, the pane dividers) into
  /// `grid`.
  func drawFrame(into grid: inout Grid, dividers: Bool = true) {
    let width = size.width
    let height = size.height
    grid.box(Rect(x: 0, y: 0, width: width, height: height))
    if zoomed == nil && dividers {
      let eventsRight = Self.eventsDivider(width, wanted: eventsWidth)
      let topHeight = Self.topHeight(height)
      let screensRight = Self.screensDivider(width, eventsRight: eventsRight)
      grid.verticalLine(column: eventsRight, from: 0, to: height - 1)
      grid.horizontalLine(row: topHeight + 1, from: eventsRight, to: width - 1)
      grid.verticalLine(column: screensRight, from: 0, to: topHeight + 1)
    }
    grid.resolveLines(style: .border)
  }
}
