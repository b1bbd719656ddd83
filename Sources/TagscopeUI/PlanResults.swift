import TaggingPlan
import TagscopeRecording

/// One line of the coverage checklist: its text and, for a planned expectation, the filter that
/// lists the records covering it (`enter` applies it).
public struct ChecklistItem: Sendable, Hashable {
  /// `✗ failing · 3 of 5 broke it (wrong-name) · action playPodcast on favorites: firebase · plan
  /// line 71`.
  public var text: String
  /// `kind:action name:playPodcast screen:favorites provider:firebase`; `nil` for a heading.
  public var filter: String?

  /// An item.
  public init(text: String, filter: String? = nil) {
    self.text = text
    self.filter = filter
  }
}

/// One violated expectation of a record, as QA puts it in a ticket: its rule and sentence, and the
/// plan's expectation beside what the record carried.
public struct Comparison: Sendable, Hashable {
  /// The rule broken (`plan.wrong-name`, `firebase.event-name-length`) and the violation's sentence.
  public var rule: String
  public var message: String
  /// The fields compared; its plan line is `nil` for a provider's own documented rule.
  public var expectation: ExpectationComparison
  /// The record's other violations about the same call (or properties), shown with the same
  /// table: their rules and sentences.
  public var others: [Other]

  /// Another violation of a comparison's call.
  public struct Other: Sendable, Hashable {
    public var rule: String
    public var message: String

    /// Another violation.
    public init(rule: String, message: String) {
      self.rule = rule
      self.message = message
    }
  }

  /// A comparison.
  public init(rule: String, message: String, expectation: ExpectationComparison, others: [Other] = []) {
    self.rule = rule
    self.message = message
    self.expectation = expectation
    self.others = others
  }

  /// Whether it shows a violation of `rule`.
  public func shows(rule: String) -> Bool {
    self.rule == rule || others.contains { $0.rule == rule }
  }
}

/// The expected-vs-got view (`v`) of one record.
public struct ComparisonView: Sendable, Hashable {
  /// The record's timeline index, number (its position in the merged stream) and name.
  public var index: Int
  public var seq: UInt64 = 0
  public var name = ""
  /// Its violated expectations; `nil` until loaded.
  public var items: [Comparison]?
  /// First line shown.
  public var scroll = 0
}

extension State {
  /// Opens the expected-vs-got view of the selected record (`v`), when it has violations.
  mutating func openComparisons() -> [Effect] {
    guard let index = selectedIndex else { return [] }
    guard
      rows[index]?.hasViolations ?? (selected?.record.outputs.contains { !$0.violations.isEmpty } ?? false)
    else {
      notice = "this record breaks no rule and no plan expectation ([ ] find one that does)"
      return []
    }
    overlay = .comparison(ComparisonView(index: index))
    return [.loadComparisons(index)]
  }

  /// `j`/`k` and pages scroll the view; `esc` or `v` closes it.
  mutating func comparisonKey(_ key: Key, _ view: ComparisonView) {
    var view = view
    let last = FrameView(state: self, layout: layout).comparisonMaximumScroll(view)
    let page = max(1, size.height - 5)
    switch key {
    case .character("q"):
      shouldQuit = true
      return
    case .escape, .enter, .backspace, .character("v"):
      overlay = .none
      return
    default: view.scroll = Self.scrolled(view.scroll, by: key, page: page, last: last)
    }
    overlay = .comparison(view)
  }

  /// Where a scrolling box's first line goes for `key` (`j`/`k`, arrows, pages, `g`/`G`), kept
  /// between the top and `last`; other keys leave it.
  static func scrolled(_ scroll: Int, by key: Key, page: Int, last: Int) -> Int {
    var scroll = scroll
    switch key {
    case .character("j"), .down: scroll += 1
    case .character("k"), .up: scroll -= 1
    case .pageDown, .character(" "): scroll += page
    case .pageUp: scroll -= page
    case .character("g"), .home: scroll = 0
    case .character("G"), .end: scroll = last
    default: break
    }
    return max(0, min(scroll, last))
  }
}
