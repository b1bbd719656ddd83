import Foundation
import TagscopeTimeline
import XCTest

@testable import TagscopeUI

/// Issue 49: at 80 and 100 columns every line of the help (`?`) and every filter error is shown
/// whole, wrapped between words, never cut short with `…`.
final class NothingCutTests: XCTestCase {
  /// One input for each error the filter language can give.
  static let badFilters = [
    "kind:", "status:x", "has:x", "nokey:x", "kind:nope", "kind~/(/", "/(", "name~/[a-", "\"abc", "prop.",
    "prop.sku", "prop.:x", "prop.sku:", "prop.price>abc", "param.value>ten", "rule~/(/", "screen~/(/",
  ]

  private static func text(_ grid: Grid, row: Int, from: Int, to end: Int) -> String {
    var line = ""
    for column in from..<end where grid[column, row].width != 0 { line.append(grid[column, row].glyph) }
    return line
  }

  private static func words(_ text: String) -> String {
    text.split(whereSeparator: { $0 == " " }).joined(separator: " ")
  }

  private static func session(_ size: Size) -> UISession {
    let store = Fixtures.store()
    store.plan.set(summary: "plan Podcasts v3: 30 passed, 4 failing, 7 not seen, 3 errors")
    return UISession(source: store.source, mode: .live, size: size, now: 1000)
  }

  /// Every entry of the help, read from the frames as `j` scrolls through it, is there whole.
  func testEveryHelpLineIsWholeAt80And100Columns() {
    for size in [Size(width: 80, height: 24), Size(width: 100, height: 30)] {
      var state = Self.session(size)
      state.type("?")
      let box = FrameView(state: state.state, layout: state.state.layout).overlayBox
      let maximum = FrameView(state: state.state, layout: state.state.layout).helpMaximumScroll()
      var keys: [String] = []
      var texts: [String] = []
      for scroll in 0...maximum {
        let grid = render(state)
        let rows = scroll == maximum ? Array((box.y + 1)..<(box.y + box.height - 1)) : [box.y + 1]
        for row in rows {
          let line = Self.text(grid, row: row, from: box.x + 2, to: box.x + box.width - 1)
          XCTAssertFalse(line.contains("…"), "cut at \(size.width): \(line)")
          keys.append(Self.text(grid, row: row, from: box.x + 2, to: box.x + 13))
          texts.append(Self.text(grid, row: row, from: box.x + 14, to: box.x + box.width - 1))
        }
        state.apply(.key(.down))
      }
      let all = Self.words(texts.joined(separator: " "))
      let entries =
        DebuggerReference.keys.map(\.action) + DebuggerReference.filterTerms.map(\.meaning)
        + DebuggerReference.legend.map(\.meaning) + PlanHeaderWords.words.map(\.meaning)
        + ["status columns: F firebase · P piano · A amplitude · B braze"]
      for entry in entries {
        XCTAssertTrue(
          all.contains(Self.words(entry)), "\(size.width) columns: \(entry) is not whole in\n\(all)")
      }
      for key in DebuggerReference.keys.map(\.key) {
        XCTAssertTrue(keys.contains { $0.hasPrefix(key + " ") }, "\(size.width) columns: key \(key)")
      }
    }
  }

  /// The legend of the header's words is on the help's first page: the provider letters and what
  /// the plan's words count.
  func testTheHeaderLegendIsOnTheFirstPage() {
    var state = Self.session(Size(width: 80, height: 24))
    state.type("?")
    let text = render(state).text
    XCTAssertTrue(text.contains("FPAB        status columns: F firebase · P piano · A amplitude"), text)
    XCTAssertTrue(text.contains("plan        failing: planned items a record broke"), text)
    assertGolden(text, "help-with-plan-80x24")
  }

  func testEveryFilterErrorIsWholeAt80And100Columns() {
    for size in [Size(width: 80, height: 24), Size(width: 100, height: 30)] {
      for input in Self.badFilters {
        guard case .failure(let error) = Filter.parse(input) else {
          XCTFail("\(input) parses")
          continue
        }
        var state = Self.session(size)
        state.type("/")
        state.type(input)
        let grid = render(state)
        var shown: [String] = []
        for row in max(0, size.height - 12)..<size.height {
          shown.append(Self.text(grid, row: row, from: 1, to: size.width - 1))
        }
        // From the error's first line to the footer, nothing is cut.
        let start = "✗ " + error.message.prefix { $0 != " " }
        let first = shown.firstIndex { $0.contains(start) } ?? shown.count
        for line in shown[first...] {
          XCTAssertFalse(line.contains("…"), "\(input) at \(size.width): \(line)")
        }
        shown = shown[first...].map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " ─│")) }
        let all = Self.words(shown.joined(separator: " "))
        XCTAssertTrue(
          all.contains(Self.words("✗ " + error.message)), "\(input) at \(size.width):\n\(grid.text)")
      }
    }
  }
}
