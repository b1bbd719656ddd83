import TagscopeRecording

extension FrameView {
  /// Narrowest provider column before the pane scrolls them sideways.
  static let minimumColumnWidth = 18

  /// One column per provider for the selected record: status, calls with name and parameters,
  /// violations marked `✗`. Hub issues first, across the pane.
  func drawProviders(into grid: inout Grid) {
    guard let record = state.selected?.record else {
      drawTitle(.providers, into: &grid)
      return
    }
    var extra = Segments()
    extra.add(" · ", .dim)
    extra.add(Sanitizer.clean("#\(record.seq) "), .bold)
    extra.add(Sanitizer.clean(record.name, limit: 200), .bold)
    drawTitle(.providers, into: &grid, extra: extra)
    let content = layout.content(.providers)
    var top = content.y
    for issue in record.issues.prefix(3) where top < content.y + content.height {
      var line = Segments()
      line.add("! ", .warning)
      line.add(Sanitizer.clean(issue.message, limit: 300), .warning)
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
    let (offset, shown, columnWidth, columns) = providerColumns(record, width: content.width)
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
    if offset > 0 { grid.put("◀", column: content.x, row: top, style: .key) }
    if offset + shown < outputs.count {
      grid.put("▶", column: content.x + content.width - 1, row: top, style: .key)
    }
  }

  /// The provider columns on screen: first output shown, how many, their width and lines.
  private func providerColumns(_ record: Record, width: Int) -> (Int, Int, Int, [[Segments]]) {
    let outputs = record.outputs
    let fitting = max(1, (width + 1) / (Self.minimumColumnWidth + 1))
    let shown = min(outputs.count, fitting)
    let offset = max(0, min(state.providerOffset, outputs.count - shown))
    let columnWidth = (width - (shown - 1)) / max(1, shown)
    let columns = outputs[offset..<(offset + shown)].map { column(for: $0, width: columnWidth - 1) }
    return (offset, shown, columnWidth, columns)
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
    let (_, _, _, columns) = providerColumns(record, width: content.width)
    let height = content.height - min(3, record.issues.count)
    return max(0, (columns.map(\.count).max() ?? 0) - height)
  }

  /// The lines of one provider's column.
  private func column(for output: ProviderOutput, width: Int) -> [Segments] {
    var lines: [Segments] = []
    var header = Segments()
    header.add(Sanitizer.clean(output.provider, limit: 60), .bold)
    if !output.violations.isEmpty { header.add(Sanitizer.clean(" ✗\(output.violations.count)"), .error) }
    lines.append(header)
    var status = Segments()
    switch output.status.rawValue {
    case "sent":
      status.add(
        Sanitizer.clean("sent · \(output.calls.count) call" + (output.calls.count == 1 ? "" : "s")), .success)
    case "dropped": status.add("— dropped", .dim)
    case "blocked":
      status.add("⊘ blocked", .warning)
      if let reason = output.reason {
        status.add(" (", .warning)
        status.add(Sanitizer.clean(reason, limit: 80), .warning)
        status.add(")", .warning)
      }
    default:
      status.add(Sanitizer.clean("✗ " + output.status.rawValue), .error)
      if let reason = output.reason {
        lines.append(status)
        status = Segments()
        for part in wrap(Sanitizer.clean(reason, limit: 300), width: width - 2) {
          status.add("  ")
          status.add(part, .error)
          lines.append(status)
          status = Segments()
        }
      }
    }
    if !status.pieces.isEmpty { lines.append(status) }
    for (number, call) in output.calls.enumerated() {
      var method = Segments()
      method.add(Sanitizer.clean(call.method, limit: 60), Style(color: .cyan))
      if output.violations.contains(where: { $0.callIndex == number }) { method.add(" ✗", .error) }
      lines.append(method)
      if let name = call.name {
        for part in wrap(Sanitizer.clean(name, limit: 200), width: width).prefix(3) {
          var nameLine = Segments()
          nameLine.add(part, .bold)
          lines.append(nameLine)
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
          lines.append(parameter)
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
      var rule = Segments()
      rule.add("✗ ", .error)
      rule.add(Sanitizer.clean(violation.rule, limit: 100), .error)
      lines.append(rule)
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

/// Splits text into pieces of at most `width` columns, at spaces where possible.
func wrap(_ text: SafeText, width: Int) -> [SafeText] {
  guard width > 0, text.width > width else { return [text] }
  var pieces: [SafeText] = []
  var current = ""
  var currentWidth = 0
  var lastSpace: String.Index?
  for character in text.text {
    let characterWidth = DisplayWidth.of(character)
    if currentWidth + characterWidth > width {
      if let space = lastSpace, space > current.startIndex {
        let head = String(current[..<space])
        let tail = String(current[current.index(after: space)...])
        pieces.append(Sanitizer.clean(head))
        current = tail
        currentWidth = DisplayWidth.of(tail)
      } else {
        pieces.append(Sanitizer.clean(current))
        current = ""
        currentWidth = 0
      }
      lastSpace = nil
    }
    if character == " " { lastSpace = current.endIndex }
    current.append(character)
    currentWidth += characterWidth
  }
  if !current.isEmpty { pieces.append(Sanitizer.clean(current)) }
  return pieces
}
