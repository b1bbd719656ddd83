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
      if let selected = state.selectedIndex {
        text += " · " + Format.elapsed(timeline.time(at: selected) - timeline.time(at: 0))
      }
      segments.add(Sanitizer.clean(text), .bold)
    }
    segments.add(separator, .border)
    segments.add(Sanitizer.clean(timeline.appName, limit: 40), .bold)
    segments.add(" · ", .dim)
    segments.add(Sanitizer.clean(timeline.sourceLabel, limit: 60), .dim)
    let sources = timeline.sources
    if !sources.isEmpty {  // `tagscope listen`: the devices and SDKs seen, `s` shows one at a time
      let shown = state.filter?.source.map { "source \($0) of \(sources.count): " } ?? "sources: "
      segments.add(" · ", .dim)
      segments.add(Sanitizer.clean(shown + sources.joined(separator: ", "), limit: 60), .dim)
    }
    if state.mode == .live {  // a replay's header already says `record n/total`
      segments.add(separator, .border)
      segments.add(Sanitizer.clean("\(Format.grouped(state.known)) events"))
    }
    let dropped = timeline.dropped
    if dropped > 0 {
      segments.add(separator, .border)
      segments.add(Sanitizer.clean("\(Format.grouped(dropped)) dropped"), .error)
    }
    if let matches = state.matches {
      segments.add(separator, .border)
      segments.add(Sanitizer.clean("filter \(state.filterText): \(Format.grouped(matches.count))"), .warning)
    }
    if state.known > 0 {
      let (rate, buckets) = rateAndBuckets()
      segments.add(separator, .border)
      segments.add(Sanitizer.clean(Format.rate(rate) + " "))
      segments.add(Sanitizer.clean(Sparkline.bars(buckets)), Style(color: .cyan))
    }
    if let plan = timeline.planSummary {
      segments.add(separator, .border)
      segments.add(Sanitizer.clean(plan, limit: 80), Style(color: .yellow))
    }
    segments.add(" ")
    segments.draw(into: &grid, column: 1, row: 0, width: layout.size.width - 3)
  }

  /// The rate over the last 10 s (or less at the start) and 12 five-second buckets of the last minute, ending at the newest
  /// record (live, decaying with wall time when nothing arrives) or at the selected one (replay).
  private func rateAndBuckets() -> (Double, [Int]) {
    let anchor: Double
    let end: Int
    if state.mode == .live && state.following {
      end = state.known
      anchor = timeline.time(at: end - 1) + max(0, state.now - state.lastArrival)
    } else {
      let selected = state.selectedIndex ?? (state.known - 1)
      end = selected + 1
      anchor = timeline.time(at: selected)
    }
    func firstIndex(after time: Double) -> Int {
      var low = 0
      var high = end
      while low < high {
        let mid = (low + high) / 2
        if timeline.time(at: mid) <= time { low = mid + 1 } else { high = mid }
      }
      return low
    }
    var buckets: [Int] = []
    var previous = firstIndex(after: anchor - 60)
    for bucket in 1...12 {
      let next = firstIndex(after: anchor - 60 + Double(bucket) * 5)
      buckets.append(next - previous)
      previous = next
    }
    // Over the last 10 s, or since the first record when there is less history.
    let window = max(1, min(10, anchor - timeline.time(at: 0)))
    let recent = end - firstIndex(after: anchor - window)
    return (Double(recent) / window, buckets)
  }
}
