extension FrameView {
  /// The expected-vs-got lines: per violated expectation its rule, the plan's place and sentence,
  /// then a table of fields (expected beside got), the differing ones marked `✗`.
  func comparisonLines(_ view: ComparisonView, width: Int) -> [Segments] {
    guard let items = view.items else { return [segment("loading…", .dim)] }
    guard !items.isEmpty else { return [segment("no violation found on this record", .dim)] }
    // Wide enough for a parameter path (`param properties.products[1].price`) where the screen
    // allows; a longer field wraps.
    let longest = items.flatMap(\.expectation.rows).map { $0.field.count }.max() ?? 8
    let fieldWidth = min(max(24, width / 3), max(8, longest) + 1)
    let valueWidth = max(10, (width - 2 - fieldWidth - 2) / 2)
    var lines: [Segments] = []
    for (number, item) in items.enumerated() {
      if number > 0 { lines.append(Segments()) }
      var title = Segments()
      title.add("✗ ", .error)
      title.add(Sanitizer.clean(item.expectation.title, limit: 200), .bold)
      title.add(" · ", .dim)
      var rules: [String] = []
      for rule in [item.rule] + item.others.map(\.rule) where !rules.contains(rule) { rules.append(rule) }
      title.add(Sanitizer.clean(rules.joined(separator: ", "), limit: 200), .error)
      let expectation = item.expectation
      if let line = expectation.planLine {
        title.add(" · plan ", .dim)
        title.add(Sanitizer.clean("\(expectation.planFile):\(line)", limit: 200), .key)
      }
      lines.append(title)
      // One table per call: each violation's sentence, then the rows of all of them.
      for message in [item.message] + item.others.map(\.message) {
        for part in wrap(Sanitizer.clean(message, limit: 600), width: width - 2) {
          var line = Segments()
          line.add("  ")
          line.add(part, Style(color: .red))
          lines.append(line)
        }
      }
      var heading = Segments()
      heading.add("  ")
      heading.add(
        Sanitizer.clean(
          pad("field", fieldWidth)
            + pad(expectation.expectedHeading, valueWidth + 2) + "got (record)"), .dim)
      lines.append(heading)
      for row in expectation.rows {
        let expected = wrap(Sanitizer.clean(row.expected, limit: 400), width: valueWidth)
        let actual = wrap(Sanitizer.clean(row.actual, limit: 400), width: valueWidth)
        let field = wrap(Sanitizer.clean(row.field, limit: 400), width: fieldWidth - 1)
        for line in 0..<max(expected.count, actual.count, field.count) {
          var segments = Segments()
          segments.add(line == 0 && row.differs ? "✗ " : "  ", .error)
          segments.add(
            Sanitizer.clean(pad(line < field.count ? field[line].text : "", fieldWidth)),
            row.differs ? .bold : .dim)
          let left = line < expected.count ? expected[line] : ""
          let right = line < actual.count ? actual[line] : ""
          segments.add(left, row.differs ? Style(color: .green) : .plain)
          segments.add(Sanitizer.clean(String(repeating: " ", count: max(0, valueWidth + 2 - left.width))))
          segments.add(right, row.differs ? Style(color: .red, bold: true) : .plain)
          lines.append(segments)
        }
      }
    }
    return lines
  }

  /// The first line shown when the view is scrolled to its end (a full last page).
  func comparisonMaximumScroll(_ view: ComparisonView) -> Int {
    let box = overlayBox
    return max(0, comparisonLines(view, width: box.width - 4).count - (box.height - 2))
  }

  /// The view in the overlay box.
  func drawComparison(_ view: ComparisonView, into grid: inout Grid) {
    let box = overlayBox
    var title = Segments()
    title.add(Sanitizer.clean(" Expected vs got · #\(view.seq) "), .focusedTitle)
    title.add(" ")
    title.add(Sanitizer.clean(view.name, limit: 200), .bold)
    title.add(" ")
    drawScrolledBox(
      title: title, lines: comparisonLines(view, width: box.width - 4), scroll: view.scroll, into: &grid)
  }

  /// The overlay box with `title` and `lines` from `scroll` (kept so the last page is full).
  func drawScrolledBox(title: Segments, lines: [Segments], scroll: Int, into grid: inout Grid) {
    let box = overlayBox
    grid.fill(box)
    grid.box(box)
    grid.resolveLines(style: Style(color: .cyan))
    title.draw(into: &grid, column: box.x + 2, row: box.y, width: box.width - 4)
    let first = min(scroll, max(0, lines.count - (box.height - 2)))
    for (offset, line) in lines.dropFirst(first).prefix(box.height - 2).enumerated() {
      line.draw(into: &grid, column: box.x + 2, row: box.y + 1 + offset, width: box.width - 4)
    }
  }

  func segment(_ text: String, _ style: Style) -> Segments {
    var segments = Segments()
    segments.add(Sanitizer.clean(text), style)
    return segments
  }

  func pad(_ text: String, _ width: Int) -> String {
    text.count >= width
      ? String(text.prefix(width - 1)) + " " : text + String(repeating: " ", count: width - text.count)
  }
}
