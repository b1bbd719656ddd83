import TagscopeTimeline

extension FrameView {
  /// Draws `lines` in a pane's content area from the pane's scroll offset (clamped so the last line
  /// stays at the bottom).
  func drawLines(_ lines: [Segments], pane: Pane, into grid: inout Grid, indent: Int = 1) {
    let content = layout.content(pane)
    let maxScroll = max(0, lines.count - content.height)
    let scroll = min(state.scroll[pane.rawValue], maxScroll)
    for (offset, line) in lines.dropFirst(scroll).prefix(content.height).enumerated() {
      line.draw(
        into: &grid, column: content.x + indent, row: content.y + offset, width: content.width - indent)
    }
    if scroll > 0 {
      grid.put("↑", column: content.x + content.width - 1, row: content.y, style: .dim)
    }
    if scroll < maxScroll {
      grid.put("↓", column: content.x + content.width - 1, row: content.y + content.height - 1, style: .dim)
    }
  }

  /// ` · B Podcasts@phone-2`: whose screens and session the panes show, when records come from
  /// several devices (each pane shows the selected record's own device).
  func deviceTitle() -> Segments {
    var extra = Segments()
    guard state.showsSourceLabels, let source = selectedState?.source,
      let position = state.sourcePosition(source)
    else { return extra }
    extra.add(" · ", .dim)
    extra.add(Sanitizer.clean(SourceLabels.label(position)), SourceLabels.style(position))
    extra.add(" ")
    extra.add(Sanitizer.clean(source, limit: 80), .dim)
    return extra
  }

  /// The state shown by Screens and Session: as of the selected record.
  var selectedState: TimelineState? { state.selected?.state }

  /// Screen history, newest first; the current screen marked `▶`.
  func drawScreens(into grid: inout Grid) {
    drawTitle(.screens, into: &grid, extra: deviceTitle())
    drawLines(screensLines(), pane: .screens, into: &grid)
  }

  /// The Screens pane's lines.
  func screensLines() -> [Segments] {
    guard let selected = selectedState else { return [] }
    var lines: [Segments] = []
    let history = selected.history
    for (offset, screen) in history.reversed().enumerated() {
      var line = Segments()
      if offset == 0 {
        line.add("▶ ", Style(color: .green, bold: true))
        line.add(Sanitizer.clean(screen, limit: 200), .bold)
      } else {
        line.add("  ")
        line.add(Sanitizer.clean(screen, limit: 200), .dim)
      }
      lines.append(line)
      if offset == 0, selected.inferred.contains("screen") {
        // An SDK's screens: `listen` folded them from the device's screen and page calls.
        var note = Segments()
        note.add("  (inferred from calls)", Style(color: .yellow))
        lines.append(note)
      }
    }
    if history.isEmpty {
      var line = Segments()
      line.add("no screen yet", .dim)
      lines.append(line)
    }
    return lines
  }

  /// Session state, user, properties, consent and running timers.
  func drawSession(into grid: inout Grid) {
    drawTitle(.session, into: &grid, extra: deviceTitle())
    drawLines(sessionLines(), pane: .session, into: &grid)
  }

  /// The Session pane's lines.
  func sessionLines() -> [Segments] {
    guard let selected = selectedState else { return [] }
    var lines: [Segments] = []
    var first = Segments()
    if let session = selected.session {
      first.add(
        Sanitizer.clean(session.state, limit: 40),
        Style(color: session.state == "authenticated" ? .green : .yellow, bold: true))
      if let user = session.user {
        first.add(" · user ", .dim)
        first.add(Sanitizer.clean(user, limit: 80), .bold)
      } else if case .string(let anonymous)? = session.extra["anonymousId"] {
        // An SDK's anonymous visitor (`listen` keeps its id beside the session).
        first.add(" · anonymous ", .dim)
        first.add(Sanitizer.clean(anonymous, limit: 80))
        if selected.inferred.contains("anonymous") { first.add(" · inferred: no user id", .dim) }
      }
      lines.append(first)
      if !session.id.isEmpty {
        var idLine = Segments()
        idLine.add("session ", .dim)
        idLine.add(Sanitizer.clean(session.id, limit: 80))
        if selected.inferred.contains("session") { idLine.add(" · inferred from the SDK's id", .dim) }
        lines.append(idLine)
      }
      for (key, value) in session.properties {
        var line = Segments()
        line.add(Sanitizer.clean(key, limit: 80), Style(color: .cyan))
        line.add(": ", .dim)
        line.add(Sanitizer.clean(value.displayText, limit: 200))
        lines.append(line)
      }
    } else {
      first.add("no session", .dim)
      lines.append(first)
    }
    if !selected.consent.isEmpty {
      var line = Segments()
      line.add("consent:", .dim)
      for decision in selected.consent {
        let scope = decision.scope.split(separator: ":", maxSplits: 1).last.map(String.init) ?? decision.scope
        line.add(" ")
        line.add(Sanitizer.clean(scope, limit: 60))
        line.add(decision.granted ? " ✓" : " ✗", decision.granted ? .success : .error)
      }
      lines.append(line)
    }
    if !selected.timedEvents.isEmpty {
      var line = Segments()
      line.add("timed: ", .dim)
      line.add(Sanitizer.clean(selected.timedEvents.joined(separator: ", "), limit: 200), .warning)
      lines.append(line)
    }
    return lines
  }

  /// How far the focused pane's content can scroll: its lines beyond the pane's height.
  func maximumScroll(_ pane: Pane) -> Int {
    let height = layout.content(pane).height
    switch pane {
    case .events: return 0
    case .screens: return max(0, screensLines().count - height)
    case .session: return max(0, sessionLines().count - height)
    case .providers: return providersMaximumScroll()
    }
  }
}
