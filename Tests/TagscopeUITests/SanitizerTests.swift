import AnalyticsHub
import Foundation
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TagscopeUI

final class SanitizerTests: XCTestCase {
  func testControlCharactersBecomeVisibleEscapes() {
    XCTAssertEqual(Sanitizer.clean("a\u{1B}[31mred").text, "a\\e[31mred")
    XCTAssertEqual(Sanitizer.clean("one\ntwo\r\tthree").text, "one\\ntwo\\r\\tthree")
    XCTAssertEqual(Sanitizer.clean("bell\u{07}del\u{7F}nul\u{0}").text, "bell\\x07del\\x7Fnul\\x00")
    XCTAssertEqual(Sanitizer.clean("c1\u{9B}2J").text, "c1<U+009B>2J")
  }

  func testBidiAndInvisibleCharactersBecomeVisible() {
    XCTAssertEqual(Sanitizer.clean("abc\u{202E}exe.txt").text, "abc<U+202E>exe.txt")
    XCTAssertEqual(Sanitizer.clean("\u{2066}x\u{2069}").text, "<U+2066>x<U+2069>")
    XCTAssertEqual(Sanitizer.clean("zero\u{200B}width\u{FEFF}").text, "zero<U+200B>width<U+FEFF>")
    XCTAssertEqual(Sanitizer.clean("line\u{2028}sep").text, "line<U+2028>sep")
    XCTAssertEqual(Sanitizer.clean("tag\u{E0041}").text, "tag<U+E0041>")
  }

  func testSafeTextIsKeptAndMeasuredByDisplayWidth() {
    let plain = Sanitizer.clean("play_podcast")
    XCTAssertEqual(plain.text, "play_podcast")
    XCTAssertEqual(plain.width, 12)
    XCTAssertEqual(Sanitizer.clean("播客").width, 4)
    XCTAssertEqual(Sanitizer.clean("🎧x").width, 3)
    XCTAssertEqual(Sanitizer.clean("café").width, 4)
    XCTAssertEqual(Sanitizer.clean("e\u{301}").width, 1, "a combining accent takes no column")
  }

  func testLongValuesAreCut() {
    let long = String(repeating: "x", count: 10_000)
    let text = Sanitizer.clean(long, limit: 100)
    XCTAssertEqual(text.text.count, 101)
    XCTAssertTrue(text.text.hasSuffix("…"))
  }

  func testGridClipsWideCharactersAndRepairsHalves() {
    var grid = Grid(size: Size(width: 6, height: 1))
    XCTAssertEqual(grid.put("日本語", column: 0, row: 0, maxWidth: 5), 5)
    XCTAssertEqual(grid.text, "日本")
    XCTAssertEqual(grid[4, 0].glyph, " ", "a wide glyph that does not fit leaves a space")
    grid.put("x", column: 1, row: 0)
    XCTAssertEqual(grid.text, " x本", "overwriting half of a wide glyph blanks the other half")
    grid.putTruncated("abcdefgh", column: 0, row: 0, width: 6)
    XCTAssertEqual(grid.text, "abcde…")
  }

  func testDetailJSONEscapesRawValues() {
    var record = Record(
      seq: 1, time: Date(timeIntervalSince1970: 0), kind: .event, name: "n\u{1B}]52;c;x\u{07}")
    record.properties["quote"] = "say \"hi\" \\ \u{202E}"
    let json = detailLines(record).joined(separator: "\n")
    XCTAssertTrue(json.contains(#""name": "n\u001b]52;c;x\u0007""#), json)
    XCTAssertTrue(json.contains(#""quote": "say \"hi\" \\ \u202e""#), json)
    XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(json.utf8)), "the detail is valid JSON")
    XCTAssertFalse(json.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
  }

  func testTheUIRefusesToStartWithoutATerminal() throws {
    try XCTSkipIf(isatty(STDOUT_FILENO) == 1, "standard output is a terminal here")
    let store = Fixtures.store()
    XCTAssertThrowsError(try TerminalUI.run(timeline: store.source, mode: .replay)) { error in
      XCTAssertEqual(error as? TerminalError, .notATerminal)
      XCTAssertTrue("\(error)".contains("needs a terminal"))
    }
  }

  func testPlanFindingsJoinTheirProviderColumnOrTheIssues() {
    let store = Fixtures.store()
    store.plan.set(summary: "plan Podcasts v3: 1/2 covered")
    store.plan.add(
      PlanFinding(
        provider: "firebase",
        violation: RecordViolation(
          rule: "plan.wrong-name", message: "expected play_podcast", consequence: "error")),
      at: 3)
    store.plan.add(
      PlanFinding(
        provider: nil,
        violation: RecordViolation(rule: "plan.unplanned-tag", message: "not planned", consequence: "warning")
      ),
      at: 3)
    var state = Fixtures.state(store)
    state.type("...")
    let record = try? XCTUnwrap(state.selected?.record)
    XCTAssertEqual(record?.output(for: "firebase")?.violations.map(\.rule), ["plan.wrong-name"])
    XCTAssertEqual(record?.issues.map(\.message), ["plan: not planned"])
    let text = render(state).text
    XCTAssertTrue(text.contains("✗ plan.wrong-name"), text)
    // A plan violation of no provider is a violation (`✗`), not a hub issue (`!`).
    XCTAssertTrue(text.contains("✗ plan: not planned"), text)
    XCTAssertFalse(text.contains("! plan:"), text)
  }

  func testAKeyOnAMillionRecordsOnlyReadsVisibleRows() {
    let store = CountingTimeline(count: 1_000_000)
    var state = UISession(source: store, mode: .replay, size: Size(width: 200, height: 60))
    store.reads = 0
    state.apply(.key(.character("G")))
    _ = render(state)
    XCTAssertLessThan(
      store.reads, 2_000, "a key reads the visible rows, the selection and a few binary searches")
    XCTAssertEqual(state.selected?.record.seq, 1_000_000)
    store.reads = 0
    _ = render(state)
    XCTAssertEqual(store.reads, 0, "rendering reads nothing")
  }
}

/// A synthetic timeline of any size that counts reads.
final class CountingTimeline: TimelineSource, @unchecked Sendable {
  let count: Int
  var reads = 0
  let info = SourceInfo(appName: "Synthetic", sourceLabel: "generated")

  init(count: Int) { self.count = count }

  private func make(_ index: Int) -> Record {
    Fixtures.record(
      index + 1, Double(index) / 100, .userAction, "action\(index % 97)", [:], Fixtures.context(["podcasts"]),
      [
        Fixtures.firebase("action_\(index % 97)", ["index": .int(index)]),
        ProviderOutput(provider: "piano", status: .dropped),
      ])
  }

  func summaries(in range: Range<Int>) -> [RecordSummary] {
    range.clamped(to: 0..<count).map { index in
      reads += 1
      let record = make(index)
      return RecordSummary(
        index: index, seq: record.seq, timeMilliseconds: record.timeMilliseconds, kind: record.kind,
        name: record.name, source: nil,
        outputs: record.outputs.map { OutputSummary(provider: $0.provider, status: $0.status) },
        hasRuleViolations: false, hasIssues: false, planViolations: 0)
    }
  }

  func time(at index: Int) -> Double? {
    reads += 1
    return index < count ? Fixtures.start + Double(index) / 100 : nil
  }

  func record(at index: Int) -> Result<Record, TimelineError> {
    reads += 1
    return .success(make(index))
  }

  func state(at index: Int) -> TimelineState? {
    reads += 1
    return TimelineState(index: index, screen: "podcasts", history: ["podcasts"])
  }

  func filter(_ filter: TimelineFilter, in range: Range<Int>) -> [Int] { [] }
  func nextViolation(after index: Int) -> Int? { nil }
  func previousViolation(before index: Int) -> Int? { nil }
  func findings(at index: Int) -> [PlanFinding] { [] }
  func planChecklist() -> [ChecklistItem] { [] }
  func comparisons(at index: Int) -> [Comparison] { [] }
  func export(_ indices: [Int], to path: String) -> Result<Int, TimelineError> { .success(indices.count) }
  func export(_ indices: [Int], to path: String, redactingWith salt: String) -> Result<Int, TimelineError> {
    .success(indices.count)
  }
  func sourceOverview() -> [SourceOverview] { [] }
}

final class GridDiffTests: XCTestCase {
  func testOnlyChangedCellsAreRedrawn() {
    let state = Fixtures.state()
    let first = render(state)
    XCTAssertEqual(first.changedCells(since: nil).count, 140 * 40, "the first frame is drawn in full")
    XCTAssertEqual(first.changedCells(since: first), [], "an unchanged frame draws nothing")
    var stepped = state
    stepped.apply(.key(.character(".")))
    let next = render(stepped)
    let changed = next.changedCells(since: first)
    XCTAssertFalse(changed.isEmpty)
    XCTAssertLessThan(changed.count, 140 * 40 / 2, "a step redraws the selection and the panes that changed")
    var smaller = state
    smaller.apply(.resize(Size(width: 100, height: 30)))
    let resized = render(smaller)
    XCTAssertEqual(resized.changedCells(since: first).count, 100 * 30, "a resize redraws everything")
  }

  func testAWideGlyphIsRedrawnWhenItsRightHalfChanged() {
    var before = Grid(size: Size(width: 4, height: 1))
    before.put("日", column: 0, row: 0)
    var after = before
    after.put("本", column: 0, row: 0)
    XCTAssertEqual(after.changedCells(since: before), [0])
  }
}
