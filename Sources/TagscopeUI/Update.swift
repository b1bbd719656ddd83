/// The reducer: a message in, the next state out. Pure apart from reading the append-only timeline.
public func update(_ state: State, _ msg: Msg) -> State {
  var next = state
  next.apply(msg)
  return next
}

extension State {
  /// Applies `msg` in place (what ``update(_:_:)`` does, without copying the state).
  public mutating func apply(_ msg: Msg) {
    switch msg {
    case .resize(let newSize):
      size = newSize
      ensureCursorVisible()
    case .tick(let time): tick(time)
    case .recordsArrived(let count): recordsArrived(count)
    case .mouse(let event): mouse(event)
    case .key(let key):
      notice = nil
      switch overlay {
      case .none: browseKey(key)
      case .help: helpKey(key)
      case .detail(let detail): detailKey(key, detail)
      case .filter(let text): filterKey(key, text)
      case .jump(let text): jumpKey(key, text)
      }
    }
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
      let gap = max(
        0, timeline.time(at: index(atPosition: cursor + 1)) - timeline.time(at: index(atPosition: cursor)))
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

  private mutating func recordsArrived(_ count: Int) {
    guard count > known else { return }
    let first = known
    known = count
    lastArrival = now
    if let filter, matches != nil {
      for index in first..<count where filter.matches(timeline.summary(at: index)) { matches?.append(index) }
    }
    if following {
      cursor = max(0, visibleCount - 1)
      selectionChanged()
    }
    ensureCursorVisible()
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

  private mutating func browseKey(_ key: Key) {
    switch key {
    case .character("q"): shouldQuit = true
    case .character("?"): overlay = .help
    case .character("/"): overlay = .filter(filterText)
    case .character(":"): overlay = .jump("")
    case .escape:
      if zoomed {
        zoomed = false
        ensureCursorVisible()
      } else if filter != nil {
        applyFilter("")
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
    case .character("s"): cycleSource()
    case .character("c"): openChecklist()
    case .character("j"), .down: move(by: 1)
    case .character("k"), .up: move(by: -1)
    case .pageDown: move(by: pageSize)
    case .pageUp: move(by: -pageSize)
    case .character("g"), .home:
      if focus == .events { select(0) } else { scroll[focus.rawValue] = 0 }
    case .character("G"), .end:
      if focus == .events { followTail() } else { scrollPane(focus, to: Int.max) }
    case .enter: openDetail()
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
    case .left: if mode == .replay { seek(by: -10) } else { scrollProviders(by: -1) }
    case .right: if mode == .replay { seek(by: 10) } else { scrollProviders(by: 1) }
    case .character("h"): scrollProviders(by: -1)
    case .character("l"): scrollProviders(by: 1)
    case .character("+"), .character("="): speed = min(64, speed * 2)
    case .character("-"), .character("_"): speed = max(0.25, speed / 2)
    case .character("]"): jumpToViolation(forward: true)
    case .character("["): jumpToViolation(forward: false)
    default: break
    }
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
  private mutating func seek(by seconds: Double) {
    guard let selected = selectedIndex else { return }
    let target = timeline.time(at: selected) + seconds
    select(position(atTime: target, roundingUp: seconds > 0))
  }

  /// The first visible position whose record is at or after `time` (or the last one before it).
  func position(atTime time: Double, roundingUp: Bool = true) -> Int {
    var low = 0
    var high = visibleCount
    while low < high {
      let mid = (low + high) / 2
      if timeline.time(at: index(atPosition: mid)) < time { low = mid + 1 } else { high = mid }
    }
    if !roundingUp && low < visibleCount && timeline.time(at: index(atPosition: low)) > time {
      return max(0, low - 1)
    }
    return min(low, max(0, visibleCount - 1))
  }

  private mutating func jumpToViolation(forward: Bool) {
    guard visibleCount > 0 else { return }
    var position = cursor + (forward ? 1 : -1)
    while position >= 0 && position < visibleCount {
      if timeline.summary(at: index(atPosition: position)).violations > 0 {
        if mode == .live { following = false }
        select(position)
        return
      }
      position += forward ? 1 : -1
    }
    notice = forward ? "no later record with violations" : "no earlier record with violations"
  }

  private mutating func openDetail() {
    guard let index = selectedIndex else { return }
    let record = timeline.record(at: index)
    let lines = RecordJSON.pretty(record).split(separator: "\n", omittingEmptySubsequences: false).map {
      Sanitizer.clean(String($0), limit: 100_000)
    }
    overlay = .detail(Detail(index: index, lines: lines, scroll: 0))
  }

  /// The plan's coverage checklist in the scrollable detail box (nothing without a plan).
  private mutating func openChecklist() {
    let items = timeline.planChecklist()
    guard !items.isEmpty else { return }
    let heading = Sanitizer.clean(" Coverage · \(timeline.planSummary ?? "tagging plan") ", limit: 200)
    overlay = .detail(
      Detail(
        index: selectedIndex ?? 0, lines: items.map { Sanitizer.clean($0, limit: 1_000) }, scroll: 0,
        heading: heading))
  }

  private mutating func helpKey(_ key: Key) {
    switch key {
    case .character("q"): shouldQuit = true
    default: overlay = .none
    }
  }

  private mutating func detailKey(_ key: Key, _ detail: Detail) {
    var detail = detail
    let page = max(1, size.height - 5)
    let last = max(0, detail.lines.count - 1)
    switch key {
    case .character("q"):
      shouldQuit = true
      return
    case .escape, .enter, .backspace:
      overlay = .none
      return
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
  }

  private mutating func filterKey(_ key: Key, _ text: String) {
    switch key {
    case .escape: overlay = .none
    case .enter:
      switch Filter.parse(text) {
      case .success:
        applyFilter(text)
        overlay = .none
      case .failure(let error):
        notice = Sanitizer.clean(error.message)
        overlay = .filter(text)
      }
    case .backspace, .delete: overlay = .filter(String(text.dropLast()))
    case .character(let character): overlay = .filter(text + String(character))
    default: overlay = .filter(text)
    }
  }

  /// Shows one source after the other, then all again (`tagscope listen` with several devices):
  /// replaces the `source:` term of the filter, keeping its other terms.
  mutating func cycleSource() {
    let sources = timeline.sources
    guard !sources.isEmpty else { return }
    let others = filterText.split(separator: " ").filter { !$0.lowercased().hasPrefix("source:") }
    // A term is one word: a source with spaces (`app@device #2`) is matched by its first word.
    func word(_ source: String) -> String { (source.split(separator: " ").first.map(String.init) ?? source) }
    let current = filter?.source
    let position = sources.firstIndex { word($0).lowercased() == current } ?? -1
    let next = position + 1 < sources.count ? sources[position + 1] : nil
    let term = next.map { "source:" + word($0) }
    applyFilter((others.map(String.init) + (term.map { [$0] } ?? [])).joined(separator: " "))
  }

  /// Applies filter text (empty removes the filter), keeping the selected record when it still
  /// matches, or the nearest later one.
  mutating func applyFilter(_ text: String) {
    let previous = selectedIndex
    guard case .success(let parsed) = Filter.parse(text), !parsed.isEmpty else {
      filter = nil
      filterText = ""
      matches = nil
      cursor = previous ?? 0
      if mode == .live && following { cursor = max(0, known - 1) }
      ensureCursorVisible()
      return
    }
    filter = parsed
    filterText = text
    var found: [Int] = []
    for index in 0..<known where parsed.matches(timeline.summary(at: index)) { found.append(index) }
    matches = found
    if mode == .live && following {
      cursor = max(0, found.count - 1)
    } else if let previous {
      var low = 0
      var high = found.count
      while low < high {
        let mid = (low + high) / 2
        if found[mid] < previous { low = mid + 1 } else { high = mid }
      }
      cursor = min(low, max(0, found.count - 1))
    } else {
      cursor = 0
    }
    selectionChanged()
    top = 0
    ensureCursorVisible()
  }

  private mutating func jumpKey(_ key: Key, _ text: String) {
    switch key {
    case .escape: overlay = .none
    case .enter:
      overlay = .none
      jump(to: text)
    case .backspace, .delete: overlay = .jump(String(text.dropLast()))
    case .character(let character) where character.isNumber || character == ":" || character == ".":
      overlay = .jump(text + String(character))
    default: overlay = .jump(text)
    }
  }

  /// Jumps to a record number (`42`, 1-based in the timeline) or an elapsed time from the first
  /// record (`3:12`, `00:03:12`, `75.5`s written `0:75.5`).
  private mutating func jump(to text: String) {
    guard known > 0 else { return }
    if text.contains(":") {
      var seconds = 0.0
      for part in text.split(separator: ":", omittingEmptySubsequences: false) {
        guard let value = Double(part), value >= 0 else {
          notice = Sanitizer.clean("not a time: \(text) (use h:mm:ss or m:ss)")
          return
        }
        seconds = seconds * 60 + value
      }
      if mode == .live { following = false }
      playing = false
      select(position(atTime: timeline.time(at: 0) + seconds))
    } else if let number = Int(text), number >= 1 {
      let index = min(number, known) - 1
      if mode == .live { following = false }
      playing = false
      if let matches {
        var low = 0
        var high = matches.count
        while low < high {
          let mid = (low + high) / 2
          if matches[mid] < index { low = mid + 1 } else { high = mid }
        }
        select(low)
      } else {
        select(index)
      }
    } else {
      notice = Sanitizer.clean("not a record number or time: \(text)")
    }
  }

  // MARK: Mouse

  private mutating func mouse(_ event: MouseEvent) {
    guard case .none = overlay else {
      if case .detail(var detail) = overlay {
        if event.action == .wheelDown {
          detail.scroll = min(detail.scroll + 3, max(0, detail.lines.count - 1))
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
