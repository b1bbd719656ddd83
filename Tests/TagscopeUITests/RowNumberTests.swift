import TagscopeRecording
import XCTest

@testable import TagscopeUI

/// Issue 49: with two sources (an app with the inspector and an SDK on the wire) each device's own
/// `seq` starts at 1, so rows numbered by it repeated. The debugger numbers a record by its
/// position in the merged stream, everywhere it names one: the rows, the Providers title, the
/// detail and expected-vs-got titles, `m`, `d` and `y`; the record's JSON keeps its `seq`.
final class RowNumberTests: XCTestCase {
  /// 8 records alternating between two sources, each source's `seq` running 1…4.
  static func store() -> FixtureStore {
    let sources = ["Podcasts@iPhone 15", "segment@127.0.0.1"]
    var records: [Record] = []
    for index in 0..<8 {
      var record = Fixtures.record(
        index / 2 + 1, Double(index), .userAction, "tap\(index)", [:], Fixtures.context(["home"]),
        [Fixtures.firebase("e", [:])])
      record.source = sources[index % 2]
      records.append(record)
    }
    return Fixtures.store(records)
  }

  func testRowsAreNumberedByTheirPlaceInTheMergedStream() {
    let state = Fixtures.state(Self.store())
    let grid = render(state)
    let content = state.state.layout.content(.events)
    var numbers: [String] = []
    for row in content.y..<(content.y + 8) {
      var line = ""
      for column in content.x..<(content.x + content.width) where grid[column, row].width != 0 {
        line.append(grid[column, row].glyph)
      }
      numbers.append(String(line.split(separator: " ").first ?? ""))
    }
    XCTAssertEqual(numbers, (1...8).map(String.init), grid.text)
  }

  func testEveryPlaceThatNamesARecordUsesTheSameNumber() throws {
    var state = Fixtures.state(Self.store())
    state.type(".....")  // the 6th record: the second source's seq 3
    XCTAssertEqual(state.state.selection?.record.seq, 3)
    XCTAssertTrue(render(state).text.contains("Providers · #6 tap5"), render(state).text)
    state.type("m")
    XCTAssertTrue(render(state).text.contains("marked #6"), render(state).text)
    state.type(",")
    state.type("d")
    guard case .pair(let view) = state.state.overlay else { return XCTFail("no pair view") }
    XCTAssertEqual(view.leftTitle, "#6 tap5")
    XCTAssertEqual(view.rightTitle, "#5 tap4")
    state.apply(.key(.escape))
    state.apply(.key(.enter))
    XCTAssertTrue(render(state).text.contains("Record #5"), render(state).text)
    state.apply(.key(.escape))
    state.type("y")
    XCTAssertTrue(render(state).text.contains("copied record #5"), render(state).text)
    XCTAssertTrue(try XCTUnwrap(state.state.clipboard).contains("\"seq\":3"), "the JSON keeps its seq")
  }
}
