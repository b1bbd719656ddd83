import TagscopeRecording
import TagscopeTimeline

extension FrameView {
  /// The glyph of a tag kind in the event list.
  static func glyph(_ kind: RecordKind) -> SafeText {
    switch kind.rawValue {
    case "screen": return "▣"
    case "userAction": return "◆"
    case "event": return "◎"
    case "state": return "◇"
    case "timedStart": return "◔"
    case "timedStop": return "◕"
    case "sessionStart", "sessionUpdate", "sessionEnd": return "§"
    case "identify": return "@"
    case "reset": return "↺"
    case "consent": return "⚑"
    default: return "·"
    }
  }

  static func statusMark(_ status: OutputStatus) -> (SafeText, Style) {
    switch status.rawValue {
    case "sent": return ("●", .success)
    case "dropped": return ("·", .dim)
    case "blocked": return ("⊘", .warning)
    default: return ("▲", .error)
    }
  }

  /// The most providers with a status mark in the Events list.
  static let maximumStatusMarks = 12

  /// One letter per provider for the status-mark column's heading: each provider's first letter
  /// not already taken (`firebase amplitude piano braze fpti` → `F A P B T`), upper case.
  static func initials(_ providers: [String]) -> [Character] {
    var taken: Set<Character> = []
    return providers.map { provider in
      let letters = provider.uppercased().filter { $0.isLetter || $0.isNumber }
      let pick = letters.first { !taken.contains($0) } ?? "?"
      taken.insert(pick)
      return pick
    }
  }

  /// The event list: record number (``Format/number(_:)``), time, kind glyph, name, violation and issue marks, and one status
  /// mark per provider (in the order of ``SourceInfo/providers``, headed by their initials) when
  /// there is room — the status marks before the time.
  func drawEvents(into grid: inout Grid) {
    var title = Segments()
    if state.visibleCount > 0 {
      title.add(
        Sanitizer.clean(" \(Format.grouped(state.cursor + 1))/\(Format.grouped(state.visibleCount))"), .dim)
    }
    drawTitle(.events, into: &grid, extra: title)
    let content = layout.content(.events)
    let providers = Array(state.info.providers.prefix(Self.maximumStatusMarks))
    // Status marks, then time, when the rows have room for them beside a 12-column name: which
    // provider broke is worth more than the clock (the detail view has the time).
    let base = 5 + 2 + 12 + 4
    let statusWidth = providers.isEmpty ? 0 : providers.count + 1
    let showStatus = !providers.isEmpty && content.width >= base + statusWidth
    let showTime = content.width >= base + 13 + (showStatus ? statusWidth : 0)
    if showStatus {
      // The heading of the status marks: provider initials over their column.
      let heading = Sanitizer.clean(String(Self.initials(providers)))
      let area = layout.area(.events)
      let x = content.x + content.width - heading.width
      if x > area.x + title.width + 8 { grid.put(heading, column: x, row: area.y, style: .dim) }
    }
    guard state.visibleCount > 0 else {
      drawNoRecords(into: &grid, content)
      return
    }
    let last = state.visibleCount - 1
    let seqWidth = String(Format.number(state.index(atPosition: last))).count
    let rows = min(content.height, state.visibleCount - state.top)
    for offset in 0..<max(0, rows) {
      let position = state.top + offset
      let row = content.y + offset
      // Rows arrive with the effects of the message that scrolled them in.
      guard let summary = state.rows[state.index(atPosition: position)] else { continue }
      let selected = position == state.cursor
      var left = Segments()
      let seq = String(Format.number(state.index(atPosition: position)))
      left.add(Sanitizer.clean(String(repeating: " ", count: max(0, seqWidth - seq.count)) + seq + " "), .dim)
      if showTime { left.add(Sanitizer.clean(Format.clock(summary.seconds) + " "), .dim) }
      if state.showsSourceLabels {
        // The record's device: a short label, stable in colour (the Sources view lists them).
        if let position = state.sourcePosition(summary.source) {
          let label = SourceLabels.label(position)
          left.add(Sanitizer.clean(label), SourceLabels.style(position))
          left.add(Sanitizer.clean(String(repeating: " ", count: state.sourceLabelWidth - label.count)))
        } else {
          left.add(Sanitizer.clean(String(repeating: " ", count: state.sourceLabelWidth)))
        }
      }
      left.add(Self.glyph(summary.kind), Style(color: .cyan))
      left.add(" ")
      var right = Segments()
      let violations = summary.violationCount
      if violations == 1 { right.add(" ✗", .error) }
      if violations > 1 { right.add(Sanitizer.clean(" ✗\(violations)"), .error) }
      if summary.hasIssues { right.add(" !", .warning) }
      if showStatus {
        right.add(" ")
        for provider in providers {
          if let output = summary.outputs.first(where: { $0.provider == provider }) {
            let (mark, style) = Self.statusMark(output.status)
            right.add(mark, style)
          } else {
            right.add(" ")
          }
        }
      }
      let nameStyle: Style = summary.kind == .screen ? .bold : .plain
      left.add(Sanitizer.clean(summary.name, limit: 200), nameStyle)
      let rightWidth = min(right.width, max(0, content.width - 12))
      let leftWidth = content.width - rightWidth - 1
      left.draw(into: &grid, column: content.x, row: row, width: leftWidth)
      right.draw(into: &grid, column: content.x + content.width - rightWidth, row: row, width: rightWidth)
      if selected {
        for x in content.x..<(content.x + content.width) {
          grid.restyle(row: row, from: x, width: 1, style: grid[x, row].style.reversed())
        }
      }
    }
  }

  /// The empty list: no match for the filter, or waiting for records — live, with how to connect
  /// (``ConnectHint``), wrapped between words.
  private func drawNoRecords(into grid: inout Grid, _ content: Rect) {
    var lines = ["waiting for records…"]
    if state.matches != nil {
      lines = ["no record matches the filter"]
    } else if state.mode == .live, !state.info.isLoading {
      let hint = ConnectHint.lines(label: state.info.sourceLabel)
      if !hint.isEmpty { lines = hint }
    }
    var row = content.y
    for line in lines {
      for part in WordWrap.lines(Sanitizer.clean(line, limit: 1_000), width: max(1, content.width - 1)) {
        guard row < content.y + content.height else { return }
        grid.putTruncated(part, column: content.x + 1, row: row, width: content.width - 1, style: .dim)
        row += 1
      }
    }
  }
}
