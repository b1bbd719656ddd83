import TagscopeTimeline

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

  /// The keys of the help box, with what they do (``DebuggerReference/keys``).
  static let helpKeys: [(SafeText, SafeText)] = DebuggerReference.keys.map {
    (Sanitizer.clean($0.key, limit: 400), Sanitizer.clean($0.action, limit: 400))
  }

  /// The filter language, for the help box (``DebuggerReference/filterTerms``).
  static let helpFilter: [(SafeText, SafeText)] = DebuggerReference.filterTerms.map {
    (Sanitizer.clean($0.term, limit: 400), Sanitizer.clean($0.meaning, limit: 400))
  }

  /// What the marks of the Events list mean (``DebuggerReference/legend``).
  static let helpMarks: [(SafeText, SafeText)] = DebuggerReference.legend.map {
    (Sanitizer.clean($0.mark, limit: 400), Sanitizer.clean($0.meaning, limit: 400))
  }

  /// The header's words, first in the help: the provider initials heading the status columns and,
  /// with a plan, what its header words count (``PlanHeaderWords``).
  func helpHeaderLegend() -> [(SafeText, SafeText)] {
    var legend: [(SafeText, SafeText)] = []
    if let initials = providerLegend() {
      legend.append((Sanitizer.clean(initials.letters), Sanitizer.clean(initials.names, limit: 400)))
    }
    if state.info.planSummary != nil {
      let words = PlanHeaderWords.words.map { "\($0.word): \($0.meaning)" }.joined(separator: " · ")
      legend.append(("plan", Sanitizer.clean(words, limit: 1_000)))
    }
    return legend
  }

  /// The status columns' heading (`FAPBT`) and what each letter is (`F firebase · A amplitude…`).
  func providerLegend() -> (letters: String, names: String)? {
    let providers = Array(state.info.providers.prefix(Self.maximumStatusMarks))
    guard !providers.isEmpty else { return nil }
    let initials = Self.initials(providers)
    let names = zip(initials, providers).map { "\($0) \($1)" }.joined(separator: " · ")
    return (String(initials), "status columns: " + names)
  }

  /// Whether the help shows the legend beside the keys (else below them, scrolled with `j`/`k`).
  private var helpSideBySide: Bool { overlayBox.width >= 180 }

  /// The width of the help's keys column (the whole box unless side by side).
  private var helpKeysWidth: Int { helpSideBySide ? 76 : overlayBox.width - 4 }

  /// The help's entries: the header's words, the keys, then (unless side by side) the marks and
  /// the filter language.
  private func helpEntries() -> [(SafeText, SafeText)] {
    let header = helpHeaderLegend()
    let top = header.isEmpty ? [] : [("Header", "")] + header + [("", ""), ("Keys", "")]
    return helpSideBySide
      ? top + Self.helpKeys
      : top + Self.helpKeys + [("", ""), ("Events list", "")] + Self.helpMarks + [("", ""), ("Filter", "")]
        + Self.helpFilter
  }

  /// `entries` as drawn `width` columns wide: each text wrapped between words beside its key, its
  /// further lines under the text with no key.
  private static func helpLines(_ entries: [(SafeText, SafeText)], width: Int) -> [(SafeText, SafeText)] {
    entries.flatMap { entry -> [(SafeText, SafeText)] in
      guard entry.1.width > 0 else { return [entry] }
      let lines = WordWrap.lines(entry.1, width: max(1, width - 12))
      return lines.enumerated().map { ($0.offset == 0 ? entry.0 : "", $0.element) }
    }
  }

  /// The help box's lines, wrapped to its keys column.
  private func helpLines() -> [(SafeText, SafeText)] { Self.helpLines(helpEntries(), width: helpKeysWidth) }

  /// The last line the help can be scrolled to, so its last page is full.
  func helpMaximumScroll() -> Int { max(0, helpLines().count - (overlayBox.height - 2)) }

  /// The key reference and the legend of the marks: side by side when the box is wide, else the
  /// legend below the keys, from line `scroll`. The header's words come first, where a new user
  /// looks.
  func drawHelp(scroll: Int, into grid: inout Grid) {
    let box = overlayBox
    var title = Segments()
    title.add(" Help ", .focusedTitle)
    let lines = helpLines()
    let height = box.height - 2
    let first = max(0, min(scroll, helpMaximumScroll()))
    if lines.count > height {
      title.add(
        Sanitizer.clean(" \(first + 1)–\(min(lines.count, first + height))/\(lines.count) · j/k scroll "),
        .dim)
    }
    drawBox(box, title: title, into: &grid)
    func draw(_ entries: ArraySlice<(SafeText, SafeText)>, column: Int, width: Int) {
      for (offset, entry) in entries.prefix(height).enumerated() {
        let row = box.y + 1 + offset
        let heading = entry.1.width == 0
        grid.put(
          entry.0, column: column, row: row, style: heading ? .bold : .key, maxWidth: heading ? width : 11)
        grid.putTruncated(entry.1, column: column + 12, row: row, width: width - 12)
      }
    }
    draw(lines[first...], column: box.x + 2, width: helpKeysWidth)
    if helpSideBySide {
      let column = box.x + 2 + helpKeysWidth + 2
      let width = box.x + box.width - 2 - column
      let side = [("Events list", "")] + Self.helpMarks + [("", ""), ("Filter", "")] + Self.helpFilter
      draw(Self.helpLines(side, width: width)[...], column: column, width: width)
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
        grid.put(
          piece, column: box.x + 2, row: row, style: lineStyle(piece, heading: detail.heading != nil),
          maxWidth: width)
        if number == detail.cursor {  // the checklist item `enter` lists the records of
          grid.restyle(row: row, from: box.x + 1, width: box.width - 2, style: .selected)
        }
        row += 1
      }
      shownLast = number
    }
    let position = Sanitizer.clean(" \(shownLast + 1)/\(lines.count) ")
    grid.put(
      position, column: box.x + box.width - 2 - position.width, row: box.y + box.height - 1, style: .dim)
  }

  /// The first line shown when the detail box is scrolled to its end: its last page is full.
  func detailMaximumScroll(_ detail: Detail) -> Int {
    let box = overlayBox
    let width = box.width - 4
    let height = box.height - 2
    var rows = 0
    var first = detail.lines.count
    while first > 0 {
      let needed = wrap(detail.lines[first - 1], width: width).count
      if rows + needed > height { break }
      rows += needed
      first -= 1
    }
    return min(first, max(0, detail.lines.count - 1))
  }

  /// A checklist line by its state's mark; a JSON line red when it is about violations.
  private func lineStyle(_ line: SafeText, heading: Bool) -> Style {
    guard heading else { return jsonStyle(line) }
    switch line.text.first {
    case "✓": return .success
    case "✗": return .error
    case "⊘": return .warning
    default: return .plain
    }
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
      case .success: segments.add("  enter apply · ↑↓ history · esc cancel ", .dim)
      case .failure(let error):
        let message = Sanitizer.clean("✗ " + error.message, limit: 2_000)
        if segments.width + 2 + message.width + 1 <= width {
          segments.add("  ")
          segments.add(message, .error)
          segments.add(" ")
        } else {
          segments.add("  ✗ see above · esc cancel ", .error)
          drawFilterError(message, into: &grid)
        }
      }
      segments.draw(into: &grid, column: 1, row: row, width: width)
      return
    case .export(let prompt):
      let what =
        (prompt.scope.count == 1 ? "1 record" : "\(Format.grouped(prompt.scope.count)) records")
        + (prompt.redacted ? ", redacted," : "")
      segments.add(Sanitizer.clean("export \(what) to "), .key)
      segments.add(Sanitizer.clean(prompt.path, limit: 300), .bold)
      segments.add("▏", .key)
      segments.add(Sanitizer.clean(prompt.hint), .dim)
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
    // Keys that do not fit give way, least needed first (their order is kept); `?` lists them all.
    var keys = footerKeys
    func keysWidth() -> Int { keys.reduce(0) { $0 + $1.0.width + 1 + $1.1.width + 3 } + 1 }
    while keysWidth() > width, let least = keys.indices.min(by: { keys[$0].2 < keys[$1].2 }),
      keys[least].2 < Int.max
    {
      // `? help, legend` says `? help` before a key as needed as `[ ]` or `v` gives way.
      if keys[least].2 >= Self.legendHintRank, let help = keys.firstIndex(where: { $0.1 == Self.legendHint })
      {
        keys[help].1 = "help"
        continue
      }
      keys.remove(at: least)
    }
    for (index, (key, label, _)) in keys.enumerated() {
      if index > 0 { segments.add(" · ", .border) }
      segments.add(key, .key)
      segments.add(" ")
      segments.add(label)
    }
    segments.add(" ")
    segments.draw(into: &grid, column: 1, row: row, width: width)
  }

  /// A filter error too long for the bottom border, wrapped between words on the rows above it.
  private func drawFilterError(_ message: SafeText, into grid: inout Grid) {
    let width = layout.size.width - 4
    let lines = WordWrap.lines(message, width: width)
    let bottom = layout.size.height - 1
    let first = max(1, bottom - lines.count)
    grid.fill(Rect(x: 1, y: first, width: layout.size.width - 2, height: bottom - first))
    for (offset, line) in lines.prefix(bottom - first).enumerated() {
      grid.put(line, column: 2, row: first + offset, style: .error, maxWidth: width)
    }
  }

  /// The footer's hint that `?` explains the header's words, and the rank of the keys it gives way to.
  static let legendHint: SafeText = "help, legend"
  static let legendHintRank = 70

  /// The footer's keys with how much each is needed (higher stays longer; `Int.max` always).
  private var footerKeys: [(SafeText, SafeText, Int)] {
    let ranked = plainFooterKeys
    let ranks: [String: Int] = [
      "q": .max, "?": .max, "esc": 95, "space": 90, "/": 85, "enter": 80, "[ ]": 75, ". ,": 70, "← →": 65,
      "G": 60, "c": 55, "S": 55, "j/k": 50, "tab": 45, "z": 40, "e E": 35, "+ -": 30, ":": 30,
      "h/l": 50, "g/G": 45, "PgUp/PgDn": 40, "any key": .max, "v": 72,
    ]
    return ranked.map { ($0.0, $0.1, ranks[$0.0.text] ?? 20) }
  }

  private var plainFooterKeys: [(SafeText, SafeText)] {
    switch state.overlay {
    case .detail(let detail) where detail.cursor != nil:
      return [
        ("esc", "back"), ("j/k", "move"), ("enter", "list its records"), ("g/G", "top/end"), ("q", "quit"),
      ]
    case .detail:
      return [("esc", "back"), ("j/k", "scroll"), ("PgUp/PgDn", "page"), ("g/G", "top/end"), ("q", "quit")]
    case .help: return [("j/k", "scroll"), ("any key", "close"), ("q", "quit")]
    case .sources: return [("j/k", "move"), ("enter", "show it (or all)"), ("esc", "back"), ("q", "quit")]
    case .comparison: return [("esc", "back"), ("j/k", "scroll"), ("g/G", "top/end"), ("q", "quit")]
    case .pair:
      return [
        ("esc", "back"), ("tab", "all / differences"), ("j/k", "scroll"), ("g/G", "top/end"), ("q", "quit"),
      ]
    default: break
    }
    // `?` also explains the header's words (plan, provider letters) when it has some.
    let legend = state.info.planSummary != nil || !state.info.providers.isEmpty
    var keys: [(SafeText, SafeText)] = [("q", "quit"), ("?", legend ? Self.legendHint : "help")]
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
      keys += [("[ ]", "violations")]
      if state.selected.map({ selection in
        selection.record.outputs.contains { !$0.violations.isEmpty } || !selection.record.issues.isEmpty
      }) ?? false {
        keys.append(("v", "expected vs got"))
      }
      keys += [("j/k", "move"), ("e E", "export")]
    case .screens, .session: keys += [("j/k", "scroll"), ("g/G", "top/end")]
    case .providers: keys += [("j/k", "scroll"), ("h/l", "columns")]
    }
    keys += [("tab", "pane"), ("z", state.zoomed ? "unzoom" : "zoom")]
    if !state.info.sources.isEmpty { keys.append(("S", "sources")) }
    if state.info.planSummary != nil { keys.append(("c", "coverage")) }
    if state.filter != nil { keys.append(("esc", "clear filter")) }
    return keys
  }
}
