/// Draws `state` as a frame of `size` (the state's own size when omitted). Pure: the same state
/// always gives the same grid, so tests snapshot it as text.
public func render(_ state: State, size: Size? = nil) -> Grid {
  let size = size ?? state.size
  var grid = Grid(size: size)
  let layout = Layout(size: size, zoomed: state.zoomed ? state.focus : nil, eventsWidth: state.eventsWidth)
  if layout.isTooSmall {
    drawTooSmall(size, into: &grid)
    return grid
  }
  // The help and detail boxes cover every pane: the frame beneath them has no dividers, so no
  // junction of the hidden layout shows on the outer border.
  let covered: Bool
  switch state.overlay {
  case .help, .detail, .sources, .comparison, .planEntry, .pair: covered = true
  case .none, .filter, .jump, .export: covered = false
  }
  layout.drawFrame(into: &grid, dividers: !covered)
  let view = FrameView(state: state, layout: layout)
  view.drawHeader(into: &grid)
  for pane in Pane.allCases where layout.isVisible(pane) && !covered {
    switch pane {
    case .events: view.drawEvents(into: &grid)
    case .screens: view.drawScreens(into: &grid)
    case .session: view.drawSession(into: &grid)
    case .providers: view.drawProviders(into: &grid)
    }
  }
  switch state.overlay {
  case .help(let scroll): view.drawHelp(scroll: scroll, into: &grid)
  case .detail(let detail): view.drawDetail(detail, into: &grid)
  case .sources(let sources): view.drawSources(sources, into: &grid)
  case .comparison(let comparison): view.drawComparison(comparison, into: &grid)
  case .pair(let pair): view.drawPair(pair, into: &grid)
  case .planEntry(let entry): view.drawPlanEntry(entry, into: &grid)
  case .none, .filter, .jump, .export: break
  }
  view.drawFooter(into: &grid)
  return grid
}

private func drawTooSmall(_ size: Size, into grid: inout Grid) {
  let lines: [SafeText] = [
    "Terminal too small",
    Sanitizer.clean(
      "\(size.width)×\(size.height), need at least \(Layout.minimum.width)×\(Layout.minimum.height)"),
    "q quits",
  ]
  let first = max(0, (size.height - lines.count) / 2)
  for (offset, line) in lines.enumerated() {
    let column = max(0, (size.width - line.width) / 2)
    grid.putTruncated(
      line, column: column, row: first + offset, width: size.width - column,
      style: offset == 0 ? .error : .plain)
  }
}

/// A run of styled text pieces written left to right.
struct Segments {
  var pieces: [(SafeText, Style)] = []

  mutating func add(_ text: SafeText, _ style: Style = .plain) { pieces.append((text, style)) }

  var width: Int { pieces.reduce(0) { $0 + $1.0.width } }

  /// Writes the pieces, truncating with `…` at `width`; returns the columns written.
  @discardableResult
  func draw(into grid: inout Grid, column: Int, row: Int, width: Int) -> Int {
    var x = column
    let end = column + width
    for (text, style) in pieces {
      let room = end - x
      if room <= 0 { break }
      if text.width <= room {
        x += grid.put(text, column: x, row: row, style: style, maxWidth: room)
      } else {
        x += grid.putTruncated(text, column: x, row: row, width: room, style: style)
        break
      }
    }
    return x - column
  }
}

/// The state and layout of one frame, with the drawing of each part.
struct FrameView {
  let state: State
  let layout: Layout

  func titleStyle(_ pane: Pane) -> Style { state.focus == pane ? .focusedTitle : .title }

  func drawTitle(_ pane: Pane, into grid: inout Grid, extra: Segments = Segments()) {
    let area = layout.area(pane)
    var segments = Segments()
    segments.add(pane.title, titleStyle(pane))
    segments.pieces += extra.pieces
    segments.draw(into: &grid, column: area.x + 1, row: area.y, width: area.width - 1)
  }
}
