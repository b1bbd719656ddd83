extension FrameView {
  /// The lines of the pair view: a heading row, then one row per field (`✗` and colour where the
  /// values differ), in three columns.
  func pairLines(_ view: RecordPairView, width: Int) -> [Segments] {
    guard let rows = view.rows else { return [segment("loading…", .dim)] }
    let shown = view.differencesOnly ? rows.filter(\.differs) : rows
    let differing = rows.filter(\.differs).count
    let field = min(max(12, width - 48), max(12, (shown.map(\.path.count).max() ?? 0) + 1))
    let column = max(8, (width - field - 4) / 2)
    var lines: [Segments] = []
    var summary = Segments()
    summary.add(
      Sanitizer.clean(
        "\(differing) of \(rows.count) fields differ · tab: "
          + (view.differencesOnly ? "all fields" : "only the differences")), .dim)
    lines.append(summary)
    var heading = Segments()
    heading.add(Sanitizer.clean("  " + pad("field", field)), .bold)
    heading.add(Sanitizer.clean(pad(view.leftTitle, column)), .bold)
    heading.add(Sanitizer.clean(view.rightTitle), .bold)
    lines.append(heading)
    for row in shown {
      var line = Segments()
      line.add(row.differs ? "✗ " : "  ", row.differs ? .error : .plain)
      line.add(Sanitizer.clean(pad(row.path, field), limit: 200), row.differs ? .bold : .dim)
      line.add(Sanitizer.clean(pad(row.left ?? "—", column), limit: 400), row.differs ? .warning : .plain)
      line.add(Sanitizer.clean(row.right ?? "—", limit: 400), row.differs ? .warning : .plain)
      lines.append(line)
    }
    return lines
  }

  func pairMaximumScroll(_ view: RecordPairView) -> Int {
    let box = overlayBox
    return max(0, pairLines(view, width: box.width - 4).count - (box.height - 2))
  }

  /// The pair view in the overlay box.
  func drawPair(_ view: RecordPairView, into grid: inout Grid) {
    let box = overlayBox
    var title = Segments()
    title.add(" Compare ", .focusedTitle)
    title.add(Sanitizer.clean(view.leftTitle + " · " + view.rightTitle, limit: 200), .bold)
    title.add(" ")
    drawScrolledBox(
      title: title, lines: pairLines(view, width: box.width - 4), scroll: view.scroll, into: &grid)
  }
}
