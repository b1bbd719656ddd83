import XCTest

@testable import TagscopeUI

/// `m` marks a record, `d` shows it beside the selected one: every field by path, the differing
/// ones marked; `tab` lists only the differences; `esc` closes.
final class RecordPairTests: XCTestCase {
  func testMarkAndCompareTwoRecordsSideBySide() throws {
    var state = Fixtures.state()
    state.type("d")
    XCTAssertTrue(render(state).text.contains("mark a record with m first"), render(state).text)
    state.type("jjj")
    state.type("m")
    XCTAssertTrue(render(state).text.contains("marked #4"), render(state).text)
    state.type("jjjjjjj")
    state.type("d")
    guard case .pair(let view) = state.state.overlay else { return XCTFail("no pair view") }
    let rows = try XCTUnwrap(view.rows)
    XCTAssertEqual(view.leftTitle, "#4 playPodcast")
    XCTAssertTrue(view.rightTitle.hasPrefix("#11 "), view.rightTitle)
    let name = try XCTUnwrap(rows.first { $0.path == "name" })
    XCTAssertTrue(name.differs)
    XCTAssertEqual(name.left, "\"playPodcast\"")
    XCTAssertFalse(try XCTUnwrap(rows.first { $0.path == "context.session.id" }).differs, "same session")
    let text = render(state).text
    XCTAssertTrue(text.contains("Compare #4 playPodcast · #11"), text)
    XCTAssertTrue(text.contains("✗ name"), text)
    assertGolden(text, "pair-140x40")
    state.apply(.key(.tab))
    guard case .pair(let differences) = state.state.overlay else { return XCTFail("closed") }
    XCTAssertTrue(differences.differencesOnly)
    XCTAssertFalse(render(state).text.contains("  context.session.id"), "only the differences")
    state.apply(.key(.escape))
    XCTAssertEqual(state.state.overlay, Overlay.none)
    state.type("jjjjjjj")
    state.type("m")
    state.type("m")
    XCTAssertNil(state.state.markedIndex, "m again removes the mark")
  }
}
