import Foundation
import TagscopeTimeline

extension FrameView {
  /// The Sources view: one row per device with its label, name, what it announced, its connection
  /// (and the latest gap in its stream), records, rate, records with violations and when last seen.
  func drawSources(_ view: SourcesView, into grid: inout Grid) {
    let box = overlayBox
    var title = Segments()
    title.add(Sanitizer.clean(" Sources · \(view.rows.count) "), .focusedTitle)
    title.add(" enter shows one, or all · esc back ", .dim)
    grid.fill(box)
    grid.box(box)
    grid.resolveLines(style: Style(color: .cyan))
    title.draw(into: &grid, column: box.x + 2, row: box.y, width: box.width - 4)
    let width = box.width - 4
    let heading = Sanitizer.clean(
      Self.sourceColumns(["", "source", "records", "rate", "✗ records", "last seen", "connection"]))
    grid.put(heading, column: box.x + 2, row: box.y + 1, style: .bold, maxWidth: width)
    let rows = box.height - 3
    let first = max(0, view.cursor - rows + 1)
    for (offset, number) in (first...view.rows.count).prefix(rows).enumerated() {
      let row = box.y + 2 + offset
      var line = Segments()
      if number == 0 {
        let total = view.rows.reduce(0) { $0 + $1.statistics.records }
        line.add(Sanitizer.clean(Self.sourceColumns(["*", "all sources", Format.grouped(total)])))
      } else {
        let source = view.rows[number - 1]
        let statistics = source.statistics
        let position = state.info.sources.firstIndex(of: statistics.name) ?? (number - 1)
        let label = SourceLabels.label(position)
        let cells = [
          "", statistics.name, Format.grouped(statistics.records), Format.rate(statistics.rate),
          Format.grouped(statistics.withViolations),
          Format.clock(Double(statistics.lastTimeMilliseconds) / 1000),
          connectionText(source.connection),
        ]
        line.add(Sanitizer.clean(label), SourceLabels.style(position))
        line.add(Sanitizer.clean(String(Self.sourceColumns(cells).dropFirst(label.count))))
      }
      line.draw(into: &grid, column: box.x + 2, row: row, width: width)
      if number == view.cursor {
        grid.restyle(row: row, from: box.x + 1, width: box.width - 2, style: Style(reverse: true))
      }
    }
  }

  /// Fixed-width columns of the Sources view.
  static func sourceColumns(_ cells: [String]) -> String {
    let widths = [4, 34, 10, 9, 11, 14]
    var text = ""
    for (index, cell) in cells.enumerated() {
      guard index < widths.count else {
        text += cell
        continue
      }
      let clipped = cell.count > widths[index] - 1 ? String(cell.prefix(widths[index] - 2)) + "…" : cell
      text += clipped.padding(toLength: widths[index], withPad: " ", startingAt: 0)
    }
    return text
  }

  /// `connected · Podcasts on iPhone 15 · 2 gaps, last 12 s at 10:01:02`, `disconnected since 10:03:00`.
  private func connectionText(_ connection: SourceConnection?) -> String {
    guard let connection else { return "" }
    var text =
      connection.connected
      ? "connected"
      : "disconnected since \(Format.clock(connection.since.timeIntervalSince1970))"
    let announced = [connection.app, connection.device].compactMap { $0 }.joined(separator: " on ")
    if !announced.isEmpty { text += " · " + announced }
    if let gap = connection.lastGap {
      let seconds = gap.upperBound.timeIntervalSince(gap.lowerBound)
      text +=
        " · \(connection.reconnections) gap\(connection.reconnections == 1 ? "" : "s"), last "
        + "\(Int(seconds.rounded())) s at \(Format.clock(gap.lowerBound.timeIntervalSince1970))"
    }
    return text
  }
}
