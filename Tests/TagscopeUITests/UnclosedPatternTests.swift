import TagscopeUI
import XCTest

/// Issue 49: `/^play` without the closing slash is a regular expression to the end of the term, as
/// `less` and vim take a search, not a name part that silently matches nothing.
final class UnclosedPatternTests: XCTestCase {
  private func matches(_ text: String) -> [Int] {
    var state = Fixtures.state(Fixtures.store())
    state.applyFilterForTest(text)
    XCTAssertNil(state.notice, text)
    return state.matches ?? []
  }

  func testAnUnclosedPatternRunsToTheEndOfTheTerm() {
    XCTAssertEqual(matches("/^play"), [3, 8], "a bare word")
    XCTAssertEqual(matches("^play"), [3, 8], "typed after the / prompt, as in less and vim")
    XCTAssertEqual(matches("Podcast$"), matches("/Podcast$/"), "anchored at the end")
    XCTAssertEqual(matches("/^play"), matches("/^play/"))
    XCTAssertEqual(matches("name~/^play"), [3, 8], "after ~")
    XCTAssertEqual(matches("/Podcast$ kind:action"), matches("/Podcast$/ kind:action"), "with other terms")
    XCTAssertEqual(matches("provider~/^(amplitude|braze)$ status:sent"), [3, 7], "a key's value")
  }

  /// An exact value keeps its slash (`screen:/home` is a web path), and a lone `/` is a part.
  func testAnExactValueKeepsItsSlash() {
    XCTAssertEqual(matches("name:/^play"), [])
    XCTAssertEqual(matches("/"), [])
  }
}
