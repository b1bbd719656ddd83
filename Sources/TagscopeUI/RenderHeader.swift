extension FrameView {
  /// The top border: mode, position, app and source, count, rate and sparkline, plan coverage.
  func drawHeader(into grid: inout Grid) {
    let separator: SafeText = " ─ "
    var segments = Segments()
    segments.add(" tagscope", .bold)
    segments.add(separator, .border)
    switch state.mode {
    case .live:
      if state.following {
        segments.add("LIVE ●", Style(color: .green, bold: true))
      } else {
        segments.add("PAUSED ‖", Style(color: .yellow, bold: true))
      }
    case .replay:
      segments.add("REPLAY", Style(color: .magenta, bold: true))
      segments.add(state.playing ? " ▶ " : " ‖ ", .bold)
      segments.add(Sanitizer.clean(Format.speed(state.speed) + " "), .dim)
      let position = state.selectedIndex.map { $0 + 1 } ?? 0
      var text = "record \(Format.grouped(position))/\(Format.grouped(state.known))"
      if let selected = state.selectedIndex,
        let time = state.rows[selected]?.seconds ?? state.selected?.record.seconds,
        let first = state.rows[0]?.seconds
      {
        text += " · " + Format.elapsed(time - first)
      }
      segments.add(Sanitizer.clean(text), .bold)
    }
    segments.add(separator, .border)
    segments.add(Sanitizer.clean(state.info.appName, limit: 40), .bold)
    segments.add(" · ", .dim)
    segments.add(Sanitizer.clean(state.info.sourceLabel, limit: 60), .dim)
    let sources = state.info.sources
    if !sources.isEmpty {  // `tagscope listen`: the devices and SDKs seen, `s` shows one at a time
      let shown = state.filter?.source.map { "source \($0) of \(sources.count): " } ?? "sources: "
      segments.add(" · ", .dim)
      segments.add(Sanitizer.clean(shown + sources.joined(separator: ", "), limit: 60), .dim)
    }
    if state.mode == .live {  // a replay's header already says `record n/total`
      segments.add(separator, .border)
      segments.add(Sanitizer.clean("\(Format.grouped(state.known)) events"))
    }
    let dropped = state.info.dropped
    if dropped > 0 {
      segments.add(separator, .border)
      segments.add(Sanitizer.clean("\(Format.grouped(dropped)) dropped"), .error)
    }
    if state.info.seqAnomalies > 0 {  // a recording whose seq repeats or goes backwards
      segments.add(separator, .border)
      segments.add(Sanitizer.clean("\(Format.grouped(state.info.seqAnomalies)) seq out of order"), .warning)
    }
    if let slowdown = state.info.slowdown {
      segments.add(separator, .border)
      segments.add(Sanitizer.clean(slowdown, limit: 60), .warning)
    }
    if let matches = state.matches {
      segments.add(separator, .border)
      segments.add(Sanitizer.clean("filter \(state.filterText): \(Format.grouped(matches.count))"), .warning)
    }
    if state.known > 0, let activity = state.activity {
      segments.add(separator, .border)
      segments.add(Sanitizer.clean(Format.rate(activity.rate) + " "))
      segments.add(Sanitizer.clean(Sparkline.bars(activity.buckets)), Style(color: .cyan))
    }
    if let plan = state.info.planSummary {
      segments.add(separator, .border)
      segments.add(Sanitizer.clean(plan, limit: 80), Style(color: .yellow))
    }
    segments.add(" ")
    segments.draw(into: &grid, column: 1, row: 0, width: layout.size.width - 3)
  }
}
