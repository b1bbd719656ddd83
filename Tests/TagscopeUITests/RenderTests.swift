import AnalyticsHub
import TagscopeUI
import XCTest

final class RenderTests: XCTestCase {
  func testNormalFrame140x40() {
    var state = Fixtures.state()
    state.type("...")
    assertGolden(render(state).text, "normal-140x40")
  }

  func testLiveFrameWithViolationSelected() {
    var state = Fixtures.state(mode: .live)
    state.apply(.key(.character("[")))
    let text = render(state).text
    XCTAssertTrue(text.contains("PAUSED"))
    assertGolden(text, "live-violation-140x40")
  }

  func testTheHeaderSaysWhenTheSimulatorIsSlowed() {
    var state = Fixtures.state(mode: .live)
    var info = state.info
    let before = headerLine(state)
    XCTAssertFalse(before.contains("slowed"))
    info.slowdown = "simulator slowed: the recording is behind"
    state.apply(.info(info))
    XCTAssertTrue(headerLine(state).contains("simulator slowed: the recording is behind"))
    info.slowdown = nil
    state.apply(.info(info))
    XCTAssertEqual(headerLine(state), before)
  }

  func testTheHeaderCountsRecordsWhoseSeqIsOutOfOrder() {
    var state = Fixtures.state()
    var info = state.info
    XCTAssertFalse(headerLine(state).contains("seq out of order"))
    info.seqAnomalies = 1234
    state.apply(.info(info))
    XCTAssertTrue(headerLine(state).contains("─ 1,234 seq out of order ─"), headerLine(state))
  }

  func testNarrowTerminal() {
    var state = Fixtures.state(size: Size(width: 80, height: 24))
    state.type("........")
    assertGolden(render(state).text, "narrow-80x24")
  }

  func testTooSmallTerminal() {
    let state = Fixtures.state(size: Size(width: 40, height: 10))
    let text = render(state).text
    XCTAssertTrue(text.contains("Terminal too small"))
    XCTAssertTrue(text.contains("q quits"))
    assertGolden(text, "too-small-40x10")
  }

  func testWideCharactersKeepColumnsAligned() {
    var records = Fixtures.podcastRecords()
    records[2].name = "播客列表"
    records[3].name = "play🎧podcast"
    records[3].outputs[0].calls[0].parameters["podcast_title"] = "東京の夜 🌃 ラジオ"
    records[5].name = "한국어화면"
    var state = Fixtures.state(Fixtures.store(records), size: Size(width: 120, height: 30))
    state.type("...")
    let grid = render(state)
    let text = grid.text
    assertGolden(text, "wide-120x30")
    // Every row is exactly as wide as the terminal in display columns.
    for row in 0..<grid.size.height {
      var columns = 0
      for column in 0..<grid.size.width where grid[column, row].width != 0 {
        columns += Int(grid[column, row].width)
      }
      XCTAssertEqual(columns, 120, "row \(row)")
    }
    // The divider after the Events pane is in the same column on every row.
    let divider = state.layout.area(.screens).x - 1
    for row in 1..<(grid.size.height - 1) {
      XCTAssertTrue("│┼├┤".contains(grid[divider, row].glyph), "row \(row): \(grid[divider, row].glyph)")
    }
  }

  func testHostileValuesCannotReachTheTerminal() {
    var records = Fixtures.podcastRecords()
    let hostile = "evil\u{1B}]0;pwned\u{07}\u{1B}[2J\nnext\u{202E}txt.exe\u{200B}\u{9B}31m"
    records[3].name = hostile
    records[3].properties["podcast_title"] = .string(hostile)
    records[3].outputs[0].calls[0].parameters["podcast_title"] = .string(hostile)
    records[3].context.session?.properties["note"] = .string(hostile)
    var state = Fixtures.state(Fixtures.store(records))
    state.type("...")
    let grid = render(state)
    for cell in grid.cells {
      for scalar in cell.glyph.unicodeScalars {
        XCTAssertFalse(Sanitizer.isUnsafe(scalar), "unsafe U+\(String(scalar.value, radix: 16)) on screen")
      }
    }
    let text = grid.text
    XCTAssertTrue(text.contains("evil\\e]0;pwned\\x07\\e[2J\\nnext<U+202E>txt.exe<U+200B><U+009B>31m"))
    assertGolden(text, "hostile-140x40")
    state.apply(.key(.enter))
    let detail = render(state).text
    XCTAssertTrue(
      detail.contains(#""name": "evil\u001b]0;pwned\u0007\u001b[2J\nnext\u202etxt.exe\u200b\u009b31m""#),
      detail)
    assertGolden(detail, "hostile-detail-140x40")
  }

  func testHelpFilterAndZoom() {
    var state = Fixtures.state()
    state.type("?")
    assertGolden(render(state).text, "help-100x30-from-140x40")
    state.apply(.key(.escape))
    state.type("/kind:nope")
    let filtering = render(state).text
    // Too long for the bottom border: wrapped whole above it.
    XCTAssertTrue(filtering.contains("/kind:nope▏  ✗ see above"), filtering)
    XCTAssertTrue(filtering.contains("✗ unknown kind \"nope\""), filtering)
    state.apply(.key(.escape))
    state.type("...4z")
    assertGolden(render(state).text, "zoom-providers-140x40")
  }

  func testEmptyTimeline() {
    let state = Fixtures.state(Fixtures.store([]), mode: .live, size: Size(width: 100, height: 20))
    let text = render(state).text
    XCTAssertTrue(text.contains("waiting for records"))
    for title in ["Events", "Screens", "Session", "Providers"] { XCTAssertTrue(text.contains(title)) }
  }
}

final class RenderSizeTests: XCTestCase {
  /// Every size from 0×0 to 130×45, with each overlay and zoom: nothing crashes, every frame has
  /// the asked size, and the panes show whenever the terminal is big enough.
  func testEverySizeRenders() {
    var states: [UISession] = []
    var base = Fixtures.state()
    base.type("...")
    states.append(base)
    var detail = base
    detail.apply(.key(.enter))
    states.append(detail)
    var help = base
    help.type("?")
    states.append(help)
    var filter = base
    filter.type("/kind:nope")
    states.append(filter)
    var zoomed = base
    zoomed.type("4z")
    states.append(zoomed)
    for width in stride(from: 0, through: 130, by: 5) {
      for height in stride(from: 0, through: 45, by: 3) {
        for state in states {
          let size = Size(width: width, height: height)
          var resized = state
          resized.apply(.resize(size))
          let grid = render(resized)
          XCTAssertEqual(grid.size, size)
          if width >= Layout.minimum.width && height >= Layout.minimum.height && state.overlay == .none {
            XCTAssertTrue(grid.text.contains(state.zoomed ? "Providers" : "Events"), "\(width)×\(height)")
          }
        }
      }
    }
  }
}

/// The header row of a frame.
private func headerLine(_ state: UISession) -> String {
  String(render(state).text.split(separator: "\n", omittingEmptySubsequences: false)[0])
}
