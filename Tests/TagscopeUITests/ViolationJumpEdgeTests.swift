import TagscopeUI
import XCTest

/// `]` with nothing later (the live tail) goes to the newest record with violations, and `[` with
/// nothing earlier to the oldest one, saying so; at that record itself they only say so.
final class ViolationJumpEdgeTests: XCTestCase {
  func testCloseBracketAtTheLiveTailGoesToTheNewestViolation() {
    let store = Fixtures.many(130)  // violations at 49 and 99
    var state = Fixtures.state(store, mode: .live)
    XCTAssertEqual(state.selectedIndex, 129)
    state.apply(.key(.character("]")))
    XCTAssertEqual(state.selectedIndex, 99, "the newest record with violations")
    XCTAssertEqual(state.modeWord, "PAUSED")
    XCTAssertEqual(state.notice, "no later record with violations: the newest one")
    state.apply(.key(.character("]")))
    XCTAssertEqual(state.selectedIndex, 99, "already the newest: it stays")
    XCTAssertEqual(state.notice, "no later record with violations")
  }

  func testOpenBracketAtTheHeadGoesToTheOldestViolation() {
    var state = Fixtures.state(Fixtures.many(130))
    XCTAssertEqual(state.selectedIndex, 0)
    state.apply(.key(.character("[")))
    XCTAssertEqual(state.selectedIndex, 49, "the oldest record with violations")
    XCTAssertEqual(state.notice, "no earlier record with violations: the oldest one")
    state.apply(.key(.character("[")))
    XCTAssertEqual(state.selectedIndex, 49)
    XCTAssertEqual(state.notice, "no earlier record with violations")
  }

  /// Under a filter the turn stays among its matches.
  func testTheTurnStaysWithinTheFilter() {
    var state = Fixtures.state(Fixtures.many(130), mode: .live)
    state.applyFilterForTest("kind:action")
    state.apply(.key(.character("G")))
    state.apply(.key(.character("]")))
    XCTAssertEqual(state.selectedIndex, 49, "99 is a screen, outside the filter")
  }

  func testWithoutViolationsBothSayThereIsNone() {
    var state = Fixtures.state(Fixtures.many(20), mode: .live)
    state.apply(.key(.character("]")))
    XCTAssertEqual(state.selectedIndex, 19)
    XCTAssertEqual(state.notice, "no later record with violations")
  }
}
