extension FrameView {
  /// The box overlays are drawn in.
  var overlayBox: Rect {
    Rect(x: 1, y: 1, width: layout.size.width - 2, height: layout.size.height - 2)
  }

  private func drawBox(_ box: Rect, title: Segments, into grid: inout Grid) {
    grid.fill(box)
    grid.box(box)
    grid.resolveLines(style: Style(color: .cyan))
    title.draw(into: &grid, column: box.x + 2, row: box.y, width: box.width - 4)
  }

  /// The key reference.
  func drawHelp(into grid: inout Grid) {
    let box = overlayBox
    var title = Segments()
    title.add(" Help ", .focusedTitle)
    drawBox(box, title: title, into: &grid)
    let entries: [(SafeText, SafeText)] = [
      ("q", "quit"), ("?", "this help (any key closes it)"),
      ("/", "filter: kind:screen name:play provider:braze status:blocked has:violations"),
      ("esc", "back: close, unzoom, clear the filter"),
      ("tab 1-4", "focus Events, Screens, Session, Providers"),
      ("j k ↑ ↓", "move the selection or scroll the focused pane"), ("PgUp PgDn", "a page"),
      ("g G", "first record / last record (G resumes following the live tail)"),
      ("enter", "the selected record in full (JSON, values escaped)"), ("z", "zoom the focused pane"),
      ("h l", "scroll provider columns"), ("[ ]", "previous / next record with violations"),
      ("space", "live: pause or follow · replay: play or pause at recorded speed"),
      (". ,", "step one record forward / back"), ("← →", "replay: seek 10 s back / forward"),
      ("+ -", "replay speed"), (":", "jump to a record number (42) or time from the start (3:12)"),
      ("mouse", "click selects and focuses, wheel scrolls"),
      ("s", "listen: show one source after the other, then all (filter source:)"),
      ("c", "with a plan: the coverage checklist (not yet seen first)"),
    ]
    for (offset, entry) in entries.enumerated() where offset < box.height - 2 {
      let row = box.y + 1 + offset
      grid.put(entry.0, column: box.x + 2, row: row, style: .key, maxWidth: 12)
      grid.putTruncated(entry.1, column: box.x + 14, row: row, width: box.width - 16)
    }
  }

  /// A record's pretty JSON, wrapped to the box and scrolled.
  func drawDetail(_ detail: Detail, into grid: inout Grid) {
    let box = overlayBox
    var title = Segments()
    // The coverage checklist is reloaded whenever plan results change, so it fills in while open.
    let lines = detail.lines
    if detail.heading != nil {
      title.add(
        Sanitizer.clean(" Coverage · \(state.info.planSummary ?? "tagging plan") ", limit: 200), .focusedTitle
      )
    } else {
      title.add(Sanitizer.clean(" Record #\(detail.seq) "), .focusedTitle)
      title.add(" ")
      title.add(Sanitizer.clean(detail.name, limit: 200), .bold)
      title.add(" · JSON, values escaped ", .dim)
    }
    drawBox(box, title: title, into: &grid)
    let width = box.width - 4
    let height = box.height - 2
    var row = box.y + 1
    var shownLast = detail.scroll
    outer: for (number, line) in lines.enumerated().dropFirst(detail.scroll) {
      for piece in wrap(line, width: width) {
        if row >= box.y + 1 + height { break outer }
        grid.put(piece, column: box.x + 2, row: row, style: jsonStyle(piece), maxWidth: width)
        row += 1
      }
      shownLast = number
    }
    let position = Sanitizer.clean(" \(shownLast + 1)/\(lines.count) ")
    grid.put(
      position, column: box.x + box.width - 2 - position.width, row: box.y + box.height - 1, style: .dim)
  }

  private func jsonStyle(_ line: SafeText) -> Style {
    line.text.contains("\"violations\"") || line.text.contains("\"rule\"") ? Style(color: .red) : .plain
  }

  /// The bottom border: the keys of the focused pane, the filter or jump being typed, or a notice.
  func drawFooter(into grid: inout Grid) {
    let row = layout.size.height - 1
    let width = layout.size.width - 3
    var segments = Segments()
    segments.add(" ")
    switch state.overlay {
    case .filter(let text):
      segments.add("/", .key)
      segments.add(Sanitizer.clean(text, limit: 200), .bold)
      segments.add("▏", .key)
      switch Filter.parse(text) {
      case .success: segments.add("  enter apply · esc cancel ", .dim)
      case .failure(let error): segments.add(Sanitizer.clean("  ✗ " + error.message + " "), .error)
      }
      segments.draw(into: &grid, column: 1, row: row, width: width)
      return
    case .jump(let text):
      segments.add(":", .key)
      segments.add(Sanitizer.clean(text, limit: 40), .bold)
      segments.add("▏", .key)
      segments.add("  record number or time (3:12) · enter jump · esc cancel ", .dim)
      segments.draw(into: &grid, column: 1, row: row, width: width)
      return
    default: break
    }
    if let notice = state.notice {
      segments.add(notice, .warning)
      segments.add(" ")
      segments.draw(into: &grid, column: 1, row: row, width: width)
      return
    }
    for (index, (key, label)) in footerKeys.enumerated() {
      if index > 0 { segments.add(" · ", .border) }
      segments.add(key, .key)
      segments.add(" ")
      segments.add(label)
    }
    segments.add(" ")
    segments.draw(into: &grid, column: 1, row: row, width: width)
  }

  private var footerKeys: [(SafeText, SafeText)] {
    switch state.overlay {
    case .detail:
      return [("esc", "back"), ("j/k", "scroll"), ("PgUp/PgDn", "page"), ("g/G", "top/end"), ("q", "quit")]
    case .help: return [("any key", "close"), ("q", "quit")]
    default: break
    }
    var keys: [(SafeText, SafeText)] = [("q", "quit"), ("?", "help")]
    switch state.focus {
    case .events:
      keys += [("/", "filter"), ("enter", "detail")]
      if state.mode == .replay {
        keys += [
          ("space", state.playing ? "pause" : "play"), (". ,", "step"), ("← →", "seek"), ("+ -", "speed"),
          (":", "jump"),
        ]
      } else {
        keys += [("space", state.following ? "pause" : "follow"), ("G", "live tail"), (". ,", "step")]
      }
      keys += [("[ ]", "violations"), ("j/k", "move")]
    case .screens, .session: keys += [("j/k", "scroll"), ("g/G", "top/end")]
    case .providers: keys += [("j/k", "scroll"), ("h/l", "columns")]
    }
    keys += [("tab", "pane"), ("z", state.zoomed ? "unzoom" : "zoom")]
    if !state.info.sources.isEmpty { keys.append(("s", "source")) }
    if state.info.planSummary != nil { keys.append(("c", "coverage")) }
    if state.filter != nil { keys.append(("esc", "clear filter")) }
    return keys
  }
}
