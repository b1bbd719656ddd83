import XCTest

@testable import TagscopeUI

/// `↑`/`↓` in the filter prompt walk the filters applied before, newest first; past the newest,
/// what was being typed comes back; a filter applied again moves to the newest place.
final class FilterHistoryTests: XCTestCase {
  private func apply(_ filter: String, _ state: inout UISession) {
    state.type("/")
    state.apply(.key(.control("u")))
    state.type(filter)
    state.apply(.key(.enter))
  }

  private func prompt(_ state: UISession) -> String? {
    guard case .filter(let text) = state.state.overlay else { return nil }
    return text
  }

  func testUpAndDownWalkTheFiltersAppliedBefore() {
    var state = Fixtures.state()
    apply("kind:screen", &state)
    apply("name:playPodcast", &state)
    apply("provider:braze", &state)
    apply("kind:screen", &state)
    XCTAssertEqual(state.state.filterHistory, ["name:playPodcast", "provider:braze", "kind:screen"])
    state.type("/")
    state.apply(.key(.control("u")))
    state.type("na")
    state.apply(.key(.up))
    XCTAssertEqual(prompt(state), "kind:screen")
    state.apply(.key(.up))
    XCTAssertEqual(prompt(state), "provider:braze")
    state.apply(.key(.up))
    state.apply(.key(.up))
    XCTAssertEqual(prompt(state), "name:playPodcast", "the oldest stays")
    state.apply(.key(.down))
    state.apply(.key(.down))
    XCTAssertEqual(prompt(state), "kind:screen")
    state.apply(.key(.down))
    XCTAssertEqual(prompt(state), "na", "past the newest: what was typed")
    state.apply(.key(.escape))
    XCTAssertNil(prompt(state))
    XCTAssertEqual(state.state.filterText, "kind:screen", "esc keeps the filter applied")
  }

  func testAnInvalidFilterIsNotKeptAndTheHistoryIsBounded() {
    var state = Fixtures.state()
    apply("kind:nope", &state)
    state.apply(.key(.escape))
    XCTAssertEqual(state.state.filterHistory, [])
    for number in 0..<(State.filterHistoryLimit + 5) { apply("name:n\(number)", &state) }
    XCTAssertEqual(state.state.filterHistory.count, State.filterHistoryLimit)
    XCTAssertEqual(state.state.filterHistory.last, "name:n\(State.filterHistoryLimit + 4)")
  }
}
