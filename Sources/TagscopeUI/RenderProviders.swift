import TagscopeRecording

extension FrameView {
  /// Narrowest provider column before the pane scrolls them sideways.
  static let minimumColumnWidth = 18

  /// One column per provider for the selected record: status, calls with name, delivery state
  /// (when a delivery ledger follows the records) and parameters, violations marked `✗`. Hub issues (`!`) and the plan's violations of no provider (`✗`) first,
  /// across the pane.
  func drawProviders(into grid: inout Grid) {
    guard let selected = state.selected else {
      drawTitle(.providers, into: &grid)
      return
    }
    let record = selected.record
    var extra = Segments()
    extra.add(" · ", .dim)
    extra.add(Sanitizer.clean("#\(Format.number(selected.index)) "), .bold)
    extra.add(Sanitizer.clean(record.name, limit: 200), .bold)
    drawTitle(.providers, into: &grid, extra: extra)
    let content = layout.content(.providers)
    var top = content.y
    for issue in record.issues.prefix(3) where top < content.y + content.height {
      var line = Segments()
      let style: Style = issue.code == PlanFinding.issueCode ? .error : .warning
      line.add(issue.code == PlanFinding.issueCode ? "✗ " : "! ", style)
      line.add(Sanitizer.clean(issue.message, limit: 300), style)
      line.draw(into: &grid, column: content.x + 1, row: top, width: content.width - 1)
      top += 1
    }
    let outputs = record.outputs
    guard !outputs.isEmpty else {
      if top < content.y + content.height {
        grid.putTruncated(
          "no provider outputs", column: content.x + 1, row: top, width: content.width - 1, style: .dim)
      }
      return
    }
    let (chosen, columnWidth, columns) = providerColumns(record, width: content.width)
    let height = content.y + content.height - top
    let longest = columns.map(\.count).max() ?? 0
    let scroll = min(state.scroll[Pane.providers.rawValue], max(0, longest - height))
    for (number, lines) in columns.enumerated() {
      let x = content.x + number * (columnWidth + 1)
      for (row, line) in lines.dropFirst(scroll).prefix(height).enumerated() {
        line.draw(into: &grid, column: x + 1, row: top + row, width: columnWidth - 1)
      }
      if number > 0 {
        for row in top..<(top + height) { grid.put("│", column: x - 1, row: row, style: .border) }
      }
    }
    // Arrows say columns are hidden on that side (of the first shown).
    let hidden = outputs.indices.filter { !chosen.contains($0) }
    if let first = chosen.first, hidden.contains(where: { $0 < first }) {
      grid.put("◀", column: content.x, row: top, style: .key)
    }
    if let first = chosen.first, hidden.contains(where: { $0 > first }) {
      grid.put("▶", column: content.x + content.width - 1, row: top, style: .key)
    }
  }

  /// The provider columns on screen: which outputs (in registration order), their width and lines.
  private func providerColumns(_ record: Record, width: Int) -> ([Int], Int, [[Segments]]) {
    let outputs = record.outputs
    let fitting = max(1, (width + 1) / (Self.minimumColumnWidth + 1))
    let chosen = Self.shownOutputs(outputs, fitting: fitting, offset: state.providerOffset)
    let columnWidth = (width - (chosen.count - 1)) / max(1, chosen.count)
    let columns = chosen.map { column(for: outputs[$0], width: columnWidth - 1) }
    return (chosen, columnWidth, columns)
  }

  /// The outputs shown when `fitting` columns fit, from `offset`: the columns give way least broken
  /// first, so a provider with a violation or a failure is always on screen (in place of the last
  /// sound ones of the window), in registration order.
  static func shownOutputs(_ outputs: [ProviderOutput], fitting: Int, offset: Int) -> [Int] {
    let count = min(outputs.count, fitting)
    let start = max(0, min(offset, outputs.count - count))
    var window = Array(start..<(start + count))
    func broken(_ index: Int) -> Bool {
      !outputs[index].violations.isEmpty
        || !["sent", "dropped", "blocked"].contains(outputs[index].status.rawValue)
    }
    let outside = outputs.indices.filter { !window.contains($0) && broken($0) }
    for index in outside {
      guard let sound = window.lastIndex(where: { !broken($0) }) else { break }
      window.remove(at: sound)
      window.append(index)
    }
    return window.sorted()
  }

  /// The largest first provider column: when all columns fit, 0.
  func maximumProviderOffset() -> Int {
    guard let count = state.selected?.record.outputs.count else { return 0 }
    let fitting = max(1, (layout.content(.providers).width + 1) / (Self.minimumColumnWidth + 1))
    return max(0, count - fitting)
  }

  /// How far the Providers pane can scroll for the selected record.
  func providersMaximumScroll() -> Int {
    guard let record = state.selected?.record else { return 0 }
    let content = layout.content(.providers)
    let (_, _, columns) = providerColumns(record, width: content.width)
    let height = content.height - min(3, record.issues.count)
    return max(0, (columns.map(\.count).max() ?? 0) - height)
  }

  /// The lines of one provider's column.
  private func column(for output: ProviderOutput, width: Int) -> [Segments] {
    var lines: [Segments] = []
    let deliveries = state.selected?.deliveries?.filter { $0.provider == output.provider } ?? []
    var header = Segments()
    header.add(Sanitizer.clean(output.provider, limit: 60), .bold)
    if !output.violations.isEmpty { header.add(Sanitizer.clean(" ✗\(output.violations.count)"), .error) }
    lines.append(header)
    // The status is never cut: it wraps (a blocked provider's reason on the next line if need be).
    let (statusText, statusStyle): (String, Style)
    switch output.status.rawValue {
    case "sent":
      statusText = "sent · \(output.calls.count) call" + (output.calls.count == 1 ? "" : "s")
      statusStyle = .success
    case "dropped": (statusText, statusStyle) = ("— dropped", .dim)
    case "blocked":
      (statusText, statusStyle) = ("⊘ blocked" + (output.reason.map { " (\($0))" } ?? ""), .warning)
    default: (statusText, statusStyle) = ("✗ " + output.status.rawValue, .error)
    }
    for part in wrap(Sanitizer.clean(statusText, limit: 120), width: width) {
      var line = Segments()
      line.add(part, statusStyle)
      lines.append(line)
    }
    if !["sent", "dropped", "blocked"].contains(output.status.rawValue), let reason = output.reason {
      for part in wrap(Sanitizer.clean(reason, limit: 300), width: width - 2) {
        var line = Segments()
        line.add("  ")
        line.add(part, .error)
        lines.append(line)
      }
    }
    for (number, call) in output.calls.enumerated() {
      let marked = output.violations.contains { $0.callIndex == number }
      let methodParts = wrap(Sanitizer.clean(call.method, limit: 60), width: width - (marked ? 2 : 0))
      for (index, part) in methodParts.enumerated() {
        var method = Segments()
        method.add(part, Style(color: .cyan))
        if marked && index == methodParts.count - 1 { method.add(" ✗", .error) }
        lines.append(method)
      }
      if let name = call.name {
        for part in wrap(Sanitizer.clean(name, limit: 200), width: width).prefix(4) {
          var nameLine = Segments()
          nameLine.add(part, .bold)
          lines.append(nameLine)
        }
      }
      // The call's fate, as the live session's delivery ledger knows it (none without a ledger).
      if let delivery = deliveries.first(where: { $0.callIndex == number }) {
        for part in wrap(Sanitizer.clean(delivery.words, limit: 60), width: width) {
          var line = Segments()
          line.add(part, delivery.style)
          lines.append(line)
        }
      }
      for (key, value) in call.parameters {
        let keyText = Sanitizer.clean(key, limit: 100)
        let valueText = Sanitizer.clean(value.displayText, limit: 300)
        var parameter = Segments()
        parameter.add(" ")
        parameter.add(keyText, .dim)
        parameter.add(": ", .dim)
        if keyText.width + valueText.width + 3 <= width {
          parameter.add(valueText)
          lines.append(parameter)
        } else {
          if keyText.width + 3 <= width {
            lines.append(parameter)
          } else {
            for part in wrap(Sanitizer.clean(key + ":", limit: 100), width: width - 1) {
              var keyLine = Segments()
              keyLine.add(" ")
              keyLine.add(part, .dim)
              lines.append(keyLine)
            }
          }
          for part in wrap(valueText, width: width - 3).prefix(4) {
            var continuation = Segments()
            continuation.add("   ")
            continuation.add(part)
            lines.append(continuation)
          }
        }
      }
    }
    for violation in output.violations {
      // A rule id is never cut: it wraps between its words.
      for (index, part) in wrap(Sanitizer.clean(violation.rule, limit: 100), width: width - 2).enumerated() {
        var rule = Segments()
        rule.add(index == 0 ? "✗ " : "  ", .error)
        rule.add(part, .error)
        lines.append(rule)
      }
      for part in wrap(Sanitizer.clean(violation.message, limit: 400), width: width - 2) {
        var line = Segments()
        line.add("  ")
        line.add(part, Style(color: .red))
        lines.append(line)
      }
    }
    return lines
  }
}

/// Splits text into pieces of at most `width` columns: at spaces (dropped), else after `_ - . / : ,`
/// (kept at the end of the line), so names like `remove_podcast_from_favorites` and rule ids like
/// `plan.unexpected-provider` break between their words; a word longer than `width` is cut.
func wrap(_ text: SafeText, width: Int) -> [SafeText] {
  guard width > 0, text.width > width else { return [text] }
  var pieces: [SafeText] = []
  var current: [Character] = []
  var currentWidth = 0
  // Where the current line may break: the index of a space, or the index just after a delimiter.
  var lastBreak: (index: Int, isSpace: Bool)?
  for character in text.text {
    let characterWidth = DisplayWidth.of(character)
    if currentWidth + characterWidth > width {
      if let breakPoint = lastBreak, breakPoint.index > 0 {
        let head = current[..<breakPoint.index]
        let tail = current[(breakPoint.isSpace ? breakPoint.index + 1 : breakPoint.index)...]
        pieces.append(Sanitizer.clean(String(head)))
        current = Array(tail)
        currentWidth = DisplayWidth.of(String(current))
      } else {
        pieces.append(Sanitizer.clean(String(current)))
        current = []
        currentWidth = 0
      }
      lastBreak = nil
      for (offset, kept) in current.enumerated() {
        if kept == " " {
          lastBreak = (offset, true)
        } else if isBreakDelimiter(kept) {
          lastBreak = (offset + 1, false)
        }
      }
    }
    if character == " " && current.isEmpty && !pieces.isEmpty { continue }  // a break's space
    if character == " " {
      lastBreak = (current.count, true)
    } else if isBreakDelimiter(character) {
      lastBreak = (current.count + 1, false)
    }
    current.append(character)
    currentWidth += characterWidth
  }
  if !current.isEmpty { pieces.append(Sanitizer.clean(String(current))) }
  return pieces
}

/// Characters a line may break after (besides spaces).
private func isBreakDelimiter(_ character: Character) -> Bool {
  character == "_" || character == "-" || character == "." || character == "/" || character == ":"
    || character == ","
}
