extension FrameView {
  /// One part of the top border, with what may replace it when the border is too narrow: shorter
  /// forms, tried in order, then nothing unless it is ``essential``.
  struct HeaderPart {
    /// Forms from longest to shortest.
    var forms: [Segments]
    /// The mode, the position or count and the error counts are never dropped.
    var essential = false
    /// Lower gives way first.
    var rank: Int
    /// Whether it may be cut short with `…` (to at least ``shortestCut`` columns) before it shrinks.
    var elastic = false
  }

  /// The fewest columns an elastic part is cut to: shorter, its next form says more.
  static let shortestCut = 20

  /// The top border: mode, position, app and source, count, rate and sparkline, plan coverage.
  /// When it does not fit, the least important parts shrink or go first (sparkline, sources, app
  /// name, rate…); the mode, the position or count, drops and the plan's error count stay, and the
  /// plan's words give way by ``PlanHeaderWords`` (passed and not seen before failing and errors). Room
  /// left over is then given back, most important part first.
  func drawHeader(into grid: inout Grid) {
    let parts = headerParts()
    let available = layout.size.width - 3
    // Per part: the form shown (`nil`: left out) and the width it is cut to.
    var form: [Int?] = parts.map { _ in 0 }
    var limit: [Int?] = parts.map { _ in nil }
    func width(_ index: Int) -> Int {
      guard let chosen = form[index] else { return 0 }
      return min(parts[index].forms[chosen].width, limit[index] ?? .max)
    }
    func total() -> Int {
      parts.indices.reduce(9 + 1) { $0 + (form[$1] == nil ? 0 : width($1) + 3) }  // " tagscope", " ─ "
    }
    let byRank = parts.indices.sorted { parts[$0].rank < parts[$1].rank }
    for index in byRank where total() > available {
      // Give way: cut short (elastic), then shorter forms, then out (unless essential).
      while total() > available, let chosen = form[index] {
        let overflow = total() - available
        if parts[index].elastic && limit[index] == nil && width(index) - overflow >= Self.shortestCut {
          limit[index] = width(index) - overflow
        } else if chosen + 1 < parts[index].forms.count {
          form[index] = chosen + 1
          limit[index] = nil
        } else if !parts[index].essential {
          form[index] = nil
        } else {
          break
        }
      }
    }
    for index in byRank.reversed() {
      // Room left: the longest form that fits again (cut short if elastic).
      let current = form[index] ?? parts[index].forms.count
      for candidate in 0..<current {
        let previous = (form[index], limit[index])
        form[index] = candidate
        limit[index] = nil
        if total() <= available { break }
        let overflow = total() - available
        if parts[index].elastic && width(index) - overflow >= Self.shortestCut {
          limit[index] = width(index) - overflow
          break
        }
        (form[index], limit[index]) = previous
      }
    }
    var segments = Segments()
    segments.add(" tagscope", .bold)
    var column = 1 + segments.draw(into: &grid, column: 1, row: 0, width: available)
    for index in parts.indices {
      guard let chosen = form[index] else { continue }
      column += grid.put(" ─ ", column: column, row: 0, style: .border, maxWidth: available + 1 - column)
      column += parts[index].forms[chosen].draw(
        into: &grid, column: column, row: 0, width: min(width(index), available + 1 - column))
    }
    grid.put(" ", column: column, row: 0, maxWidth: available + 1 - column)
  }

  private func segments(_ text: String, _ style: Style = .plain, limit: Int = 200) -> Segments {
    var segments = Segments()
    segments.add(Sanitizer.clean(text, limit: limit), style)
    return segments
  }

  /// The header's parts in display order, with their ranks (higher is kept longer).
  private func headerParts() -> [HeaderPart] {
    var parts: [HeaderPart] = []
    switch state.mode {
    case .live:
      var mode = Segments()
      if state.following {
        mode.add("LIVE ●", Style(color: .green, bold: true))
      } else {
        mode.add("PAUSED ‖", Style(color: .yellow, bold: true))
      }
      parts.append(HeaderPart(forms: [mode], essential: true, rank: 100))
    case .replay:
      var mode = Segments()
      mode.add("REPLAY", Style(color: .magenta, bold: true))
      mode.add(state.playing ? " ▶ " : " ‖ ", .bold)
      mode.add(Sanitizer.clean(Format.speed(state.speed) + " "), .dim)
      let position = state.selectedIndex.map { $0 + 1 } ?? 0
      let record = "record \(Format.grouped(position))/\(Format.grouped(state.known))"
      var long = mode
      long.add(Sanitizer.clean(record), .bold)
      var forms = [long]
      if let selected = state.selectedIndex,
        let time = state.rows[selected]?.seconds ?? state.selected?.record.seconds,
        let first = state.rows[0]?.seconds
      {
        var timed = mode
        timed.add(Sanitizer.clean(record + " · " + Format.elapsed(time - first)), .bold)
        forms.insert(timed, at: 0)
      }
      parts.append(HeaderPart(forms: forms, essential: true, rank: 100))
    }
    var source = Segments()
    source.add(Sanitizer.clean(state.info.appName, limit: 40), .bold)
    var sourceForms = [source]
    if !state.info.sourceLabel.isEmpty {
      var labelled = source
      labelled.add(" · ", .dim)
      labelled.add(Sanitizer.clean(state.info.sourceLabel, limit: 80), .dim)
      sourceForms.insert(labelled, at: 0)
    }
    parts.append(HeaderPart(forms: sourceForms, rank: 20, elastic: true))
    let sources = state.info.sources
    if !sources.isEmpty {  // `tagscope listen`: the devices and SDKs seen, `s` shows one at a time
      if let shown = state.filter?.source {
        parts.append(
          HeaderPart(
            forms: [segments("source \(shown) of \(sources.count)", .dim, limit: 80)], essential: true,
            rank: 82,
            elastic: true))
      } else {
        parts.append(
          HeaderPart(
            forms: [
              segments("sources: " + sources.joined(separator: ", "), .dim, limit: 200),
              segments("\(sources.count) sources", .dim),
            ], rank: 30, elastic: true))
      }
    }
    if state.mode == .live {  // a replay's header already says `record n/total`
      var forms = [segments("\(Format.grouped(state.known)) events")]
      if let start = state.info.segmentStart {  // a test suite reset: counted from there
        let since = Format.grouped(max(0, state.known - start))
        forms = [
          segments("\(since) events since reset · \(Format.grouped(state.known)) in all"),
          segments("\(since) since reset"),
        ]
      }
      parts.append(HeaderPart(forms: forms, essential: true, rank: 90))
    }
    let dropped = state.info.dropped
    if dropped > 0 {
      parts.append(
        HeaderPart(forms: [segments("\(Format.grouped(dropped)) dropped", .error)], essential: true, rank: 95)
      )
    }
    if state.info.seqAnomalies > 0 {  // a recording whose seq repeats or goes backwards
      let count = Format.grouped(state.info.seqAnomalies)
      parts.append(
        HeaderPart(
          forms: [segments("\(count) seq out of order", .warning), segments("\(count) seq!", .warning)],
          rank: 60))
    }
    if let slowdown = state.info.slowdown {
      parts.append(
        HeaderPart(forms: [segments(slowdown, .warning, limit: 60), segments("slowed", .warning)], rank: 50))
    }
    if let matches = state.matches {
      let count = Format.grouped(matches.count)
      parts.append(
        HeaderPart(
          forms: [
            segments("filter \(state.filterText): \(count)", .warning),
            segments("filter: \(count)", .warning),
          ],
          essential: true, rank: 80))
    }
    if state.known > 0, let activity = state.activity {
      var rate = Segments()
      rate.add(Sanitizer.clean(Format.rate(activity.rate)))
      var sparkline = rate
      sparkline.add(" ")
      sparkline.add(Sanitizer.clean(Sparkline.bars(activity.buckets)), Style(color: .cyan))
      parts.append(HeaderPart(forms: [sparkline, rate], rank: 15))
    }
    if let plan = state.info.planSummary {
      var forms = [segments(plan, Style(color: .yellow), limit: 80)]
      if let colon = plan.firstIndex(of: ":"), plan.hasPrefix("plan ") {  // without the plan's title
        forms.append(segments("plan" + plan[colon...], Style(color: .yellow), limit: 80))
      }
      if let kept = PlanHeaderWords.essentials(of: plan) {  // what is failing and how many errors
        forms.append(segments(kept, Style(color: .yellow), limit: 80))
      }
      if let errors = state.info.planErrors {
        forms.append(segments("plan: " + errors, Style(color: .yellow)))
      }
      parts.append(HeaderPart(forms: forms, essential: true, rank: 85))
    }
    return parts
  }
}
