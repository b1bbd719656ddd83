import TagscopeTimeline

/// The reducer: a message in, the next state and the effects it asks for out. Pure: it reads
/// nothing but the state and the message; effects come back as messages.
public func update(_ state: State, _ msg: Msg) -> (State, [Effect]) {
  var next = state
  let effects = next.apply(msg)
  return (next, effects)
}

extension State {
  /// Applies `msg` in place (what ``update(_:_:)`` does, without copying the state) and returns
  /// the effects to run: those the message asks for, then whatever the screen needs that is not
  /// loaded yet (rows, the selected record, the rate, playback times).
  @discardableResult
  public mutating func apply(_ msg: Msg) -> [Effect] {
    var effects: [Effect] = []
    switch msg {
    case .resize(let newSize):
      size = newSize
      ensureCursorVisible()
    case .tick(let time): tick(time)
    case .recordsArrived(let count): effects = recordsArrived(count)
    case .mouse(let event): mouse(event)
    case .key(let key):
      notice = nil
      switch overlay {
      case .none: effects = browseKey(key)
      case .help(let scroll): helpKey(key, scroll: scroll)
      case .detail(let detail): effects = checklistKey(key, detail) ?? detailKey(key, detail)
      case .filter(let text): effects = filterKey(key, text)
      case .jump(let text): effects = jumpKey(key, text)
      case .export(let prompt): effects = exportKey(key, prompt)
      case .sources(let view): effects = sourcesKey(key, view)
      case .comparison(let view): comparisonKey(key, view)
      case .pair(let view): pairKey(key, view)
      case .planEntry(let view): effects = planEntryKey(key, view)
      }
    case .info(let info): effects = infoChanged(info)
    case .rowsLoaded(let summaries):
      for summary in summaries {
        rows[summary.index] = summary
        widestName = max(widestName, min(DisplayWidth.of(summary.name), Self.nameColumns))
      }
      let wanted = Set(wantedRows())
      rows = rows.filter { wanted.contains($0.key) }
    case .selectionLoaded(let loaded):
      if loaded.index == selectedIndex { selection = loaded }
    case .detailLoaded(let index, let seq, let name, let lines):
      if case .detail(var detail) = overlay, detail.heading == nil, detail.index == index {
        detail.lines = lines
        detail.seq = seq
        detail.name = name
        overlay = .detail(detail)
      }
    case .checklistLoaded(let items): checklistLoaded(items)
    case .filtered(let text, let found, let range): effects = filtered(text: text, found: found, range: range)
    case .violationFound(let position, let forward, let turned):
      violationFound(position, forward: forward, turned: turned)
    case .timeFound(let position): select(position)
    case .timesLoaded(let from, let values): times = (from, values)
    case .activityLoaded(let loaded): activity = loaded
    case .exported(let path, let count, let error, let redacted):
      exported(path: path, count: count, error: error, redacted: redacted)
    case .planEntryDrafted(let index, let result): planEntryDrafted(index: index, result)
    case .planEntryAdded(let result): planEntryAdded(result)
    case .copyReady(let seq, let json, let route): effects = copyReady(seq: seq, json: json, route: route)
    case .clipboardWritten: clipboard = nil
    case .tmuxBufferLoaded(let seq, let bytes, let setting, let error):
      tmuxBufferLoaded(seq: seq, bytes: bytes, setting: setting, error: error)
    case .pairLoaded(let left, let right, let titles, let rows):
      pairLoaded(left: left, right: right, titles: (titles.first ?? "", titles.last ?? ""), rows: rows)
    case .sourcesLoaded(let rows, let count): sourcesLoaded(rows, at: count)
    case .comparisonsLoaded(let index, let seq, let name, let items):
      if case .comparison(var view) = overlay, view.index == index {
        view.seq = seq
        view.name = name
        view.items = items
        overlay = .comparison(view)
      }
    }
    return effects + needs()
  }

  // MARK: What the screen needs

  /// Timeline indices whose summaries a frame reads: the rows on screen, the last visible row (the
  /// width of the sequence column) and the first record (elapsed time in the header).
  func wantedRows() -> [Int] {
    guard visibleCount > 0 else { return [] }
    var wanted: [Int] = []
    let end = min(visibleCount, top + eventRows)
    if top < end { for position in top..<end { wanted.append(index(atPosition: position)) } }
    wanted.append(index(atPosition: visibleCount - 1))
    if known > 0 { wanted.append(0) }
    return wanted
  }

  /// What the rate and sparkline are computed for: up to the newest record (live, decaying with
  /// wall time when nothing arrives, by whole seconds) or to the selected one.
  ///
  /// The decay is counted in whole seconds, the finest step the rate over 10 s and the 5-second
  /// buckets show: every effect result moves the clock on, so a request to the exact clock
  /// differed after each result and asked again — an idle live debugger with records ran its
  /// effects in a loop at 100% CPU.
  public var activityRequest: ActivityRequest? {
    guard known > 0 else { return nil }
    if mode == .live && following {
      return ActivityRequest(end: known, extraSeconds: max(0, now - lastArrival).rounded(.down))
    }
    return ActivityRequest(end: (selectedIndex ?? (known - 1)) + 1, extraSeconds: 0)
  }

  /// The loads the screen is waiting for.
  func needs() -> [Effect] {
    var effects: [Effect] = []
    var missing: [Int] = []
    for index in wantedRows() where rows[index] == nil && !missing.contains(index) { missing.append(index) }
    if !missing.isEmpty { effects.append(.loadRows(missing.sorted())) }
    if let index = selectedIndex, selection?.index != index { effects.append(.loadSelection(index)) }
    if let request = activityRequest, activity?.request != request { effects.append(.loadActivity(request)) }
    if case .sources(let view) = overlay, view.loadedAt >= 0, view.loadedAt != known {
      effects.append(.loadSources)
    }
    if mode == .replay && playing && cursor + 1 < visibleCount && time(atPosition: cursor + 1) == nil {
      effects.append(.loadTimes(from: cursor, within: matches))
    }
    return effects
  }

  /// The time of the visible record at `position`, when loaded (rows on screen, playback times).
  func time(atPosition position: Int) -> Double? {
    if let times, position >= times.from, position - times.from < times.values.count {
      return times.values[position - times.from]
    }
    guard position >= 0, position < visibleCount else { return nil }
    return rows[index(atPosition: position)]?.seconds
  }

  private mutating func infoChanged(_ next: SourceInfo) -> [Effect] {
    let planChanged = next.planSummary != info.planSummary
    let deliveryChanged = next.deliveryFingerprint != info.deliveryFingerprint
    if let ended = next.ended, ended != info.ended { notice = Sanitizer.clean(ended, limit: 300) }
    info = next
    var effects: [Effect] = []
    if deliveryChanged {
      // A call's delivery changed (a queued call delivered): the Providers pane shows it, and a
      // `delivery:` filter runs again on the whole timeline, the selected record kept if it passes.
      if let filter, !filter.deliveryStates.isEmpty {
        filterAnchor = selectedIndex
        effects.append(.filter(text: filterText, filter, range: 0..<known))
      }
      if !planChanged, let index = selectedIndex { effects.append(.loadSelection(index)) }
    }
    guard planChanged else { return effects }
    // Plan results changed: the ✗ marks and the selected record's findings may have too.
    effects.append(.loadRows(wantedRows()))
    if let index = selectedIndex { effects.append(.loadSelection(index)) }
    if case .detail(let detail) = overlay, detail.heading != nil { effects.append(.loadChecklist) }
    if case .comparison(let view) = overlay { effects.append(.loadComparisons(view.index)) }
    return effects
  }

  // MARK: Time and records

  private mutating func tick(_ time: Double) {
    let elapsed = lastTick.map { max(0, time - $0) } ?? 0
    lastTick = time
    now = time
    guard mode == .replay && playing else { return }
    playBudget += elapsed * speed
    var steps = 0
    while cursor + 1 < visibleCount && steps < 100_000 {
      // Times come from `times` (loaded ahead while playing); past them, the next tick goes on.
      guard let current = self.time(atPosition: cursor), let next = self.time(atPosition: cursor + 1) else {
        break
      }
      let gap = max(0, next - current)
      if gap > playBudget { break }
      playBudget -= gap
      cursor += 1
      steps += 1
    }
    if steps > 0 { selectionChanged() }
    if cursor + 1 >= visibleCount {
      playing = false
      playBudget = 0
      notice = "end of recording"
    }
  }

  private mutating func recordsArrived(_ count: Int) -> [Effect] {
    guard count > known else { return [] }
    known = count
    lastArrival = now
    if let filter {
      // The new records are filtered by the timeline; the list grows when the result comes.
      return [.filter(text: filterText, filter, range: filteredThrough..<count)]
    }
    if following {
      cursor = max(0, visibleCount - 1)
      selectionChanged()
    }
    ensureCursorVisible()
    return []
  }

  // MARK: Selection

  /// Moves the selection to `position` (clamped); moving up in live mode stops following.
  mutating func select(_ position: Int) {
    let target = max(0, min(position, visibleCount - 1))
    if mode == .live && target < cursor { following = false }
    if target != cursor {
      cursor = target
      selectionChanged()
    }
    ensureCursorVisible()
  }

  private mutating func selectionChanged() {
    scroll[Pane.providers.rawValue] = 0
    scroll[Pane.screens.rawValue] = 0
    scroll[Pane.session.rawValue] = 0
  }

  mutating func ensureCursorVisible() {
    let rows = eventRows
    if cursor < top { top = cursor }
    if cursor >= top + rows { top = cursor - rows + 1 }
    top = max(0, min(top, max(0, visibleCount - rows)))
  }

  private mutating func followTail() {
    cursor = max(0, visibleCount - 1)
    selectionChanged()
    if mode == .live { following = true }
    ensureCursorVisible()
  }

  // MARK: Keys

  private mutating func browseKey(_ key: Key) -> [Effect] {
    switch key {
    case .character("q"): shouldQuit = true
    case .character("?"): overlay = .help(scroll: 0)
    case .character("/"):
      filterHistoryPosition = nil
      overlay = .filter(filterText)
    case .character(":"): overlay = .jump("")
    case .character("e"): startExport(all: false)
    case .character("E"): startExport(all: true)
    case .escape:
      if zoomed {
        zoomed = false
        ensureCursorVisible()
      } else if filter != nil {
        return applyFilter("")
      }
    case .tab: focus = Pane(rawValue: (focus.rawValue + 1) % 4)!
    case .backTab: focus = Pane(rawValue: (focus.rawValue + 3) % 4)!
    case .character("1"), .character("2"), .character("3"), .character("4"):
      if case .character(let digit) = key, let number = digit.wholeNumberValue {
        focus = Pane(rawValue: number - 1)!
      }
    case .character("z"):
      zoomed.toggle()
      ensureCursorVisible()
    case .character("s"): return cycleSource()
    case .character("S"): return openSources()
    case .character("c"): return openChecklist()
    case .character("v"): return openComparisons()
    case .character("a"): return startPlanEntry()
    case .character("m"): markSelected()
    case .character("d"): return openPairComparison()
    case .character("y"):
      guard let index = selectedIndex else { return [] }
      return [.copyRecord(index)]
    case .character("j"), .down: move(by: 1)
    case .character("k"), .up: move(by: -1)
    case .pageDown: move(by: pageSize)
    case .pageUp: move(by: -pageSize)
    case .character("g"), .home:
      if focus == .events { select(0) } else { scroll[focus.rawValue] = 0 }
    case .character("G"), .end:
      if focus == .events { followTail() } else { scrollPane(focus, to: Int.max) }
    case .enter: return openDetail()
    case .character(" "):
      switch mode {
      case .live:
        if following { following = false } else { followTail() }
      case .replay:
        playing.toggle()
        playBudget = 0
        if playing && cursor + 1 >= visibleCount { select(0) }
      }
    case .character("."): step(1)
    case .character(","): step(-1)
    case .left: if mode == .replay { return seek(by: -10) } else { scrollProviders(by: -1) }
    case .right: if mode == .replay { return seek(by: 10) } else { scrollProviders(by: 1) }
    case .character("h"): scrollProviders(by: -1)
    case .character("l"): scrollProviders(by: 1)
    case .character("+"), .character("="): speed = min(64, speed * 2)
    case .character("-"), .character("_"): speed = max(0.25, speed / 2)
    case .character("]"): return jumpToViolation(forward: true)
    case .character("["): return jumpToViolation(forward: false)
    default: break
    }
    return []
  }

  private var pageSize: Int {
    focus == .events ? max(1, eventRows - 1) : max(1, layout.content(focus).height - 1)
  }

  private mutating func move(by delta: Int) {
    if focus == .events || !layout.isVisible(focus) {
      guard visibleCount > 0 else { return }
      select(cursor + delta)
    } else {
      scrollPane(focus, to: scroll[focus.rawValue] + delta)
    }
  }

  /// Scrolls a context pane, kept between the top and its last line.
  private mutating func scrollPane(_ pane: Pane, to offset: Int) {
    let maximum = FrameView(state: self, layout: layout).maximumScroll(pane)
    scroll[pane.rawValue] = max(0, min(offset, maximum))
  }

  private mutating func step(_ delta: Int) {
    guard visibleCount > 0 else { return }
    if mode == .live { following = false }
    playing = false
    select(cursor + delta)
  }

  private mutating func scrollProviders(by delta: Int) {
    let maximum = FrameView(state: self, layout: layout).maximumProviderOffset()
    providerOffset = max(0, min(providerOffset + delta, maximum))
  }

  /// Moves by `seconds` of recorded time from the selected record.
  private mutating func seek(by seconds: Double) -> [Effect] {
    guard visibleCount > 0, let current = time(atPosition: min(cursor, visibleCount - 1)) else { return [] }
    let from = min(cursor, visibleCount - 1)
    return [.findTime(current + seconds, roundingUp: seconds > 0, from: from, within: matches)]
  }

  private mutating func jumpToViolation(forward: Bool) -> [Effect] {
    guard let index = selectedIndex else { return [] }
    return [.findViolation(from: index, forward: forward, within: matches)]
  }

  private mutating func violationFound(_ position: Int?, forward: Bool, turned: Bool) {
    let none = forward ? "no later record with violations" : "no earlier record with violations"
    guard let position else {
      show(notice: none)
      return
    }
    if turned { show(notice: none + (forward ? ": the newest one" : ": the oldest one")) }
    if mode == .live { following = false }
    select(position)
  }

  private mutating func openDetail() -> [Effect] {
    guard let index = selectedIndex else { return [] }
    overlay = .detail(Detail(index: index, lines: [], scroll: 0))
    return [.loadDetail(index)]
  }

  /// The plan's coverage checklist in the scrollable detail box (nothing without a plan).
  private mutating func openChecklist() -> [Effect] {
    guard info.planSummary != nil else { return [] }
    overlay = .detail(Detail(index: selectedIndex ?? 0, lines: [], scroll: 0, heading: "Coverage"))
    return [.loadChecklist]
  }

  private mutating func checklistLoaded(_ items: [ChecklistItem]) {
    guard case .detail(var detail) = overlay, detail.heading != nil else { return }
    guard !items.isEmpty else {
      overlay = .none
      return
    }
    detail.lines = items.map { Sanitizer.clean($0.text, limit: 1_000) }
    detail.filters = items.map(\.filter)
    // The cursor starts on the first item with a filter and stays on its line as results change.
    let first = detail.filters.firstIndex { $0 != nil }
    detail.cursor = detail.cursor.map { min($0, items.count - 1) } ?? first
    detail.scroll = min(detail.scroll, max(0, detail.lines.count - 1))
    overlay = .detail(detail)
  }

  /// The checklist's keys: `j`/`k` move the cursor, `enter` lists the records covering its item.
  private mutating func checklistKey(_ key: Key, _ detail: Detail) -> [Effect]? {
    guard detail.heading != nil, var cursor = detail.cursor else { return nil }
    var detail = detail
    let page = max(1, size.height - 5)
    switch key {
    case .character("j"), .down: cursor += 1
    case .character("k"), .up: cursor -= 1
    case .pageDown, .character(" "): cursor += page
    case .pageUp: cursor -= page
    case .character("g"), .home: cursor = 0
    case .character("G"), .end: cursor = detail.lines.count - 1
    case .enter:
      guard cursor < detail.filters.count, let filter = detail.filters[cursor] else { return [] }
      overlay = .none
      if mode == .live { following = false }
      return applyFilter(filter)
    default: return nil
    }
    cursor = max(0, min(cursor, detail.lines.count - 1))
    detail.cursor = cursor
    let height = max(1, size.height - 4)
    if cursor < detail.scroll { detail.scroll = cursor }
    if cursor >= detail.scroll + height { detail.scroll = cursor - height + 1 }
    overlay = .detail(detail)
    return []
  }

  /// `j`/`k`, arrows and pages scroll the help when it is taller than the box; any other key closes it.
  private mutating func helpKey(_ key: Key, scroll: Int) {
    let view = FrameView(state: self, layout: layout)
    let last = view.helpMaximumScroll()
    let page = max(1, size.height - 5)
    switch key {
    case .character("q"): shouldQuit = true
    case .character("j"), .down: overlay = .help(scroll: min(scroll + 1, last))
    case .character("k"), .up: overlay = .help(scroll: max(scroll - 1, 0))
    case .pageDown, .character(" "): overlay = .help(scroll: min(scroll + page, last))
    case .pageUp: overlay = .help(scroll: max(scroll - page, 0))
    default: overlay = .none
    }
  }

  @discardableResult
  private mutating func detailKey(_ key: Key, _ detail: Detail) -> [Effect] {
    var detail = detail
    let page = max(1, size.height - 5)
    // The last page is a full box: `G` shows the end, not one line of it.
    let last = FrameView(state: self, layout: layout).detailMaximumScroll(detail)
    switch key {
    case .character("q"):
      shouldQuit = true
      return []
    case .escape, .enter, .backspace:
      overlay = .none
      return []
    case .character("j"), .down: detail.scroll += 1
    case .character("k"), .up: detail.scroll -= 1
    case .pageDown, .character(" "): detail.scroll += page
    case .pageUp: detail.scroll -= page
    case .character("g"), .home: detail.scroll = 0
    case .character("G"), .end: detail.scroll = last
    default: break
    }
    detail.scroll = max(0, min(detail.scroll, last))
    overlay = .detail(detail)
    return []
  }

  private mutating func filterKey(_ key: Key, _ text: String) -> [Effect] {
    switch key {
    case .escape:
      overlay = .none
      filterHistoryPosition = nil
    case .up, .down:
      overlay = .filter(walkFilterHistory(up: key == .up, from: text))
    case .enter:
      switch Filter.parse(text) {
      case .success:
        overlay = .none
        remember(filter: text)
        return applyFilter(text)
      case .failure(let error):
        notice = Sanitizer.clean(error.message)
        overlay = .filter(text)
      }
    case .backspace, .delete, .control: overlay = .filter(TextInput.edit(text, key))
    case .character(let character): overlay = .filter(text + String(character))
    default: overlay = .filter(text)
    }
    return []
  }

  /// `↑` (older) or `↓` (newer) in the filter history from the prompt's `text`; past the newest,
  /// what was typed before walking.
  private mutating func walkFilterHistory(up: Bool, from text: String) -> String {
    guard !filterHistory.isEmpty else { return text }
    if filterHistoryPosition == nil { filterDraft = text }
    let newest = filterHistory.count - 1
    let current = filterHistoryPosition ?? filterHistory.count
    let next = up ? max(0, current - 1) : current + 1
    guard next <= newest else {
      filterHistoryPosition = nil
      return filterDraft
    }
    filterHistoryPosition = next
    return filterHistory[next]
  }

  /// Keeps `text` as the newest filter of the history (once; empty text is not kept).
  private mutating func remember(filter text: String) {
    filterHistoryPosition = nil
    let trimmed = String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    guard !trimmed.isEmpty else { return }
    filterHistory.removeAll { $0 == trimmed }
    filterHistory.append(trimmed)
    if filterHistory.count > Self.filterHistoryLimit { filterHistory.removeFirst() }
  }

  /// Shows one source after the other, then all again (`tagscope listen` with several devices):
  /// replaces the `source` term of the filter, keeping its other terms.
  mutating func cycleSource() -> [Effect] {
    let sources = info.sources
    guard !sources.isEmpty else { return [] }
    let terms = (try? FilterTerms.split(filterText).get()) ?? []
    let others = terms.filter {
      !$0.lowercased().hasPrefix("source:") && !$0.lowercased().hasPrefix("source~")
    }
    let current = filter?.source
    let position = sources.firstIndex { $0.lowercased() == current } ?? -1
    let next = position + 1 < sources.count ? sources[position + 1] : nil
    let term = next.map { "source:" + FilterTerms.quotedValue($0) }
    return applyFilter((others.map(FilterTerms.quoted) + (term.map { [$0] } ?? [])).joined(separator: " "))
  }

  /// Applies filter text (empty removes the filter); the timeline filters, and the list changes
  /// when the result arrives (keeping the selected record when it still matches, or the nearest
  /// later one).
  mutating func applyFilter(_ text: String) -> [Effect] {
    let previous = selectedIndex
    times = nil
    guard case .success(let parsed) = Filter.parse(text), !parsed.isEmpty else {
      filter = nil
      filterText = ""
      matches = nil
      filteredThrough = 0
      cursor = previous ?? 0
      if mode == .live && following { cursor = max(0, known - 1) }
      ensureCursorVisible()
      return []
    }
    filter = parsed
    filterText = text
    filterAnchor = previous
    return [.filter(text: text, parsed, range: 0..<known)]
  }

  /// A filter result: the whole list (from record 0) or the records that arrived since.
  private mutating func filtered(text: String, found: [Int], range: Range<Int>) -> [Effect] {
    guard filter != nil, text == filterText else { return [] }  // a filter since replaced
    if range.lowerBound == 0 {
      matches = found
      filteredThrough = range.upperBound
      times = nil
      if mode == .live && following {
        cursor = max(0, found.count - 1)
      } else if let anchor = filterAnchor {
        cursor = min(Positions.lowerBound(of: anchor, in: found), max(0, found.count - 1))
      } else {
        cursor = 0
      }
      selectionChanged()
      top = 0
      ensureCursorVisible()
    } else {
      guard range.lowerBound == filteredThrough, matches != nil else { return [] }
      matches?.append(contentsOf: found)
      filteredThrough = range.upperBound
      if following {
        cursor = max(0, visibleCount - 1)
        selectionChanged()
      }
      ensureCursorVisible()
    }
    guard let filter, filteredThrough < known else { return [] }
    return [.filter(text: filterText, filter, range: filteredThrough..<known)]
  }

  private mutating func jumpKey(_ key: Key, _ text: String) -> [Effect] {
    switch key {
    case .escape: overlay = .none
    case .enter:
      overlay = .none
      return jump(to: text)
    case .backspace, .delete, .control: overlay = .jump(TextInput.edit(text, key))
    case .character(let character) where character.isNumber || character == ":" || character == ".":
      overlay = .jump(text + String(character))
    default: overlay = .jump(text)
    }
    return []
  }

  /// Jumps to a record number (`42`, 1-based in the timeline) or an elapsed time from the first
  /// record (`3:12`, `00:03:12`, `75.5`s written `0:75.5`).
  private mutating func jump(to text: String) -> [Effect] {
    guard known > 0 else { return [] }
    if text.contains(":") {
      var seconds = 0.0
      for part in text.split(separator: ":", omittingEmptySubsequences: false) {
        guard let value = Double(part), value >= 0 else {
          notice = Sanitizer.clean("not a time: \(text) (use h:mm:ss or m:ss)")
          return []
        }
        seconds = seconds * 60 + value
      }
      guard let first = rows[0]?.seconds else { return [] }
      if mode == .live { following = false }
      playing = false
      return [.findTime(first + seconds, roundingUp: true, within: matches)]
    } else if let number = Int(text), number >= 1 {
      let index = min(number, known) - 1
      if mode == .live { following = false }
      playing = false
      select(matches.map { Positions.lowerBound(of: index, in: $0) } ?? index)
    } else {
      notice = Sanitizer.clean("not a record number or time: \(text)")
    }
    return []
  }

  // MARK: Mouse

  private mutating func mouse(_ event: MouseEvent) {
    guard case .none = overlay else {
      if case .detail(var detail) = overlay {
        if event.action == .wheelDown {
          let last = FrameView(state: self, layout: layout).detailMaximumScroll(detail)
          detail.scroll = min(detail.scroll + 3, last)
        }
        if event.action == .wheelUp { detail.scroll = max(0, detail.scroll - 3) }
        overlay = .detail(detail)
      }
      return
    }
    let layout = self.layout
    guard !layout.isTooSmall, let pane = layout.pane(atColumn: event.column, row: event.row) else { return }
    switch event.action {
    case .press:
      focus = pane
      let content = layout.content(pane)
      if pane == .events && content.contains(column: event.column, row: event.row) {
        let position = top + event.row - content.y
        if position < visibleCount {
          if mode == .live && position != cursor { following = false }
          select(position)
        }
      }
    case .wheelUp, .wheelDown:
      let delta = event.action == .wheelUp ? -3 : 3
      if pane == .events {
        if visibleCount > 0 { select(cursor + delta) }
      } else {
        scrollPane(pane, to: scroll[pane.rawValue] + delta)
      }
    }
  }
}
