import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TagscopeUI

/// `tagscope export --html`: the session page is self-contained, keeps every hostile value text,
/// and in headless Chromium steps, filters and shows the providers side by side with the
/// debugger's keys.
final class SessionPageTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "session-page-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  /// The debugger's hostile text (terminal escapes, a newline, a bidi override, a zero-width space,
  /// a C1 CSI) with markup that would end the page's script or add an element, and line separators.
  static let hostile =
    "evil\u{1B}]0;pwned\u{07}\u{1B}[2J\nnext\u{202E}txt.exe\u{200B}\u{9B}31m</script><script>alert(1)</script>"
    + "<!--<img src=x onerror=alert(2)>&amp;\u{2028}\u{2029}\u{0}"

  /// The podcast records, record 4 hostile everywhere a value is shown, record 6 with a plan
  /// violation and its expected vs got, record 11 with firebase's own rule violation.
  private func store() -> FixtureStore {
    var records = Fixtures.podcastRecords()
    records[3].name = Self.hostile
    records[3].properties["podcast_title"] = .string(Self.hostile)
    records[3].properties[Self.hostile] = 1
    records[3].outputs[0].calls[0].parameters["podcast_title"] = .string(Self.hostile)
    records[3].outputs[2].reason = Self.hostile
    records[3].context.session?.properties["note"] = .string(Self.hostile)
    records[3].context.history.append(Self.hostile)
    records[3].source = Self.hostile
    let store = Fixtures.store(records)
    store.plan.set(summary: "plan Podcasts v3: 5/9 covered, 1 error")
    store.plan.add(
      PlanFinding(
        provider: "firebase",
        violation: RecordViolation(
          rule: "plan.wrong-name", message: "firebase got screen_view for " + Self.hostile,
          consequence: "error")),
      at: 5)
    store.plan.set(
      [
        Comparison(
          rule: "plan.wrong-name", message: "podcastPlayer: firebase got screen_view",
          expectation: ExpectationComparison(
            planFile: "plan.yaml", planLine: 12, title: "screen podcastPlayer: firebase",
            rows: [
              ExpectationComparison.Row(
                field: "name", expected: "screen_view_player", actual: Self.hostile, differs: true),
              ExpectationComparison.Row(
                field: "screen_name", expected: "player", actual: "player", differs: false),
            ]))
      ], at: 5)
    store.timeline.setPlanViolations(1, at: 5)
    return store
  }

  /// The JSON the page embeds, parsed as a browser would read it.
  private func embeddedData(_ html: String) throws -> [String: Any] {
    let open = "<script type=\"application/json\" id=\"tagscope-data\">"
    let start = try XCTUnwrap(html.range(of: open))
    let end = try XCTUnwrap(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
    let json = try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8))
    return try XCTUnwrap(json as? [String: Any])
  }

  func testThePageIsSelfContainedAndNoHostileValueEscapesItsText() throws {
    let page = SessionPage.html(from: store().source, notes: ["line 9: " + Self.hostile + " (skipped)"])
    XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
    // Nothing from the network: no source, link, stylesheet import or URL in the page's markup,
    // styles and script; the data (values as text, hostile ones among them) holds no `<` or `>`.
    let open = "<script type=\"application/json\" id=\"tagscope-data\">"
    let dataStart = try XCTUnwrap(page.range(of: open)).upperBound
    let dataEnd = try XCTUnwrap(page.range(of: "</script>", range: dataStart..<page.endIndex)).lowerBound
    XCTAssertFalse(page[dataStart..<dataEnd].contains { $0 == "<" || $0 == ">" })
    let lower = (page[..<dataStart] + page[dataEnd...]).lowercased()
    for outside in ["src=", "href=", "url(", "@import", "http:", "https:", "<link", "<iframe", "<img"] {
      XCTAssertFalse(lower.contains(outside), outside)
    }
    XCTAssertTrue(page.contains("default-src 'none'"))
    // Two scripts, the data's and the page's: the hostile `</script><script>` ended none.
    XCTAssertEqual(page.lowercased().components(separatedBy: "<script").count - 1, 2)
    XCTAssertEqual(page.lowercased().components(separatedBy: "</script>").count - 1, 2)
    XCTAssertFalse(page.contains("<!--"))
    // No control, bidi, zero-width or line-separator character reaches the file as itself.
    for scalar in page.unicodeScalars where scalar != "\n" {
      XCTAssertFalse(Sanitizer.isUnsafe(scalar), "U+\(String(scalar.value, radix: 16)) in the page")
    }
    // The data reads back as the debugger shows the values: escapes made visible, markup as text.
    let data = try embeddedData(page)
    let strings = try XCTUnwrap(data["s"] as? [String])
    let visible = Sanitizer.clean(Self.hostile).text
    XCTAssertTrue(
      visible.hasPrefix("evil\\e]0;pwned\\x07\\e[2J\\nnext<U+202E>txt.exe<U+200B><U+009B>31m</script>"))
    XCTAssertTrue(strings.contains(visible), "the hostile name, as the debugger shows it")
    XCTAssertEqual(
      data["notes"] as? [String], [Sanitizer.clean("line 9: " + Self.hostile + " (skipped)").text])
    let rows = try XCTUnwrap(data["r"] as? [Int])
    XCTAssertEqual(rows.count, 12 * 8)
    // Marks: record 6's plan violation, record 9's hub issue, record 11's firebase rule.
    XCTAssertEqual((0..<12).map { rows[$0 * 8 + 4] }, [0, 0, 0, 0, 0, 2, 0, 0, 1, 0, 2, 0])
    // Each distinct state and detail once: the twelve records share their screens' states.
    XCTAssertLessThan((data["st"] as? [Any])?.count ?? 99, 12)
  }

  func testThePageWeighsLessThanTheRecording() throws {
    let store = Fixtures.many(3_000)
    let page = SessionPage.html(from: store.source)
    store.timeline.sync()
    let recording = try XCTUnwrap(
      FileManager.default.attributesOfItem(atPath: store.timeline.url.path)[.size] as? Int)
    XCTAssertLessThanOrEqual(Double(page.utf8.count), 1.5 * Double(recording), "page \(page.utf8.count) B")
  }

  func testWriteRefusesToReplaceAFileUnlessAsked() throws {
    let source = store().source
    let path = directory.appendingPathComponent("session.html").path
    XCTAssertEqual(try SessionPage.write(from: source, to: path, replacing: false), 12)
    try Data("mine".utf8).write(to: URL(fileURLWithPath: path))
    XCTAssertThrowsError(try SessionPage.write(from: source, to: path, replacing: false)) { error in
      XCTAssertTrue("\(error)".contains("--force"), "\(error)")
    }
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "mine")
    XCTAssertEqual(try SessionPage.write(from: source, positions: [3, 5], to: path, replacing: true), 2)
    let rows = try XCTUnwrap(try embeddedData(String(contentsOfFile: path, encoding: .utf8))["r"] as? [Int])
    XCTAssertEqual([rows[0], rows[8]], [4, 6], "the records asked for, numbered as in the debugger")
  }

  func testTheDebuggersExportOffersTheHTMLSessionOnTab() throws {
    let store = store()
    var state = Fixtures.state(store)
    state.type("...")
    state.type("E")
    guard case .export(let prompt) = state.overlay else { return XCTFail("no export prompt") }
    XCTAssertTrue(prompt.path.hasPrefix("tagscope-export-12-records-") && prompt.path.hasSuffix(".jsonl"))
    XCTAssertTrue(render(state).text.contains("a new recording file · tab HTML session"))
    state.apply(.key(.tab))
    guard case .export(let html) = state.overlay else { return XCTFail("no export prompt") }
    XCTAssertEqual(html.path, String(prompt.path.dropLast(6)) + ".html")
    XCTAssertTrue(render(state).text.contains("an HTML session anyone can open · tab recording"))
    state.apply(.key(.tab))
    guard case .export(let back) = state.overlay else { return XCTFail("no export prompt") }
    XCTAssertEqual(back.path, prompt.path)
    XCTAssertEqual(ExportPrompt.switched("my.dir/session"), "my.dir/session.html")

    let path = directory.appendingPathComponent("all.html").path
    for _ in 0..<200 { state.apply(.key(.backspace)) }
    state.type(path)
    state.apply(.key(.enter))
    XCTAssertEqual(
      state.notice?.text, "exported 12 records to \(path) (an HTML session: open it in a browser)")
    let data = try embeddedData(String(contentsOfFile: path, encoding: .utf8))
    XCTAssertEqual((data["r"] as? [Int])?.count, 12 * SessionData.rowWidth)
    XCTAssertEqual(data["plan"] as? String, "plan Podcasts v3: 5/9 covered, 1 error")
    // An existing file is not replaced.
    state.type("E")
    for _ in 0..<200 { state.apply(.key(.backspace)) }
    state.type(path)
    state.apply(.key(.enter))
    XCTAssertTrue(
      state.notice?.text.hasPrefix("export failed: \(path) exists") ?? false, "\(state.notice as Any)")
  }

  /// `tagscope export --html`: the plan's violations marked, a bad line named in the page and on
  /// standard error with its line, and an existing page replaced only with --force.
  func testTheCommandMarksThePlansViolationsAndNamesBadLines() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let binary = root.appendingPathComponent(".build/debug/tagscope")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      throw XCTSkip("\(binary.path) not built")
    }
    let plan = directory.appendingPathComponent("plan.yaml")
    try Data(
      """
      plan: Podcasts
      version: 1
      actions:
        playPodcast:
          providers:
            firebase: {name: play_podcast_from_favorites}

      """.utf8
    ).write(to: plan)
    var lines = [RecordLineEncoder.line(RecordingHeader(app: "Podcasts", device: "test"))]
    lines += Fixtures.podcastRecords().map(RecordLineEncoder.line)
    lines.insert("{bad", at: 5)
    let recording = directory.appendingPathComponent("session.jsonl")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: recording)
    let page = directory.appendingPathComponent("session.html")
    func export(_ extra: [String]) throws -> (status: Int32, err: String) {
      let process = Process()
      process.executableURL = binary
      process.arguments = ["export", "--html", page.path, "--plan", plan.path, recording.path] + extra
      let err = directory.appendingPathComponent("err-\(UUID().uuidString)")
      _ = FileManager.default.createFile(atPath: err.path, contents: nil)
      process.standardError = try FileHandle(forWritingTo: err)
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      return (process.terminationStatus, try String(contentsOf: err, encoding: .utf8))
    }
    let first = try export([])
    XCTAssertEqual(first.status, 0, first.err)
    XCTAssertTrue(first.err.contains("12 records exported to \(page.path)"), first.err)
    XCTAssertTrue(first.err.contains("\n\(recording.path):6: invalid JSON"), first.err)
    let html = try String(contentsOf: page, encoding: .utf8)
    let data = try embeddedData(html)
    XCTAssertTrue(
      (data["notes"] as? [String])?.first?.hasPrefix("\(recording.path):6: ") ?? false,
      "\(data["notes"] as Any)")
    XCTAssertTrue((data["plan"] as? String)?.hasPrefix("plan Podcasts v1") ?? false, "\(data["plan"] as Any)")
    let rows = try XCTUnwrap(data["r"] as? [Int])
    XCTAssertGreaterThanOrEqual(rows[3 * SessionData.rowWidth + 4] >> 1, 1, "playPodcast breaks the plan")
    XCTAssertTrue(html.contains("play_podcast_from_favorites"), "the plan's expectation, expected vs got")

    try Data("mine".utf8).write(to: page)
    XCTAssertEqual(try export([]).status, 2)
    XCTAssertEqual(try String(contentsOf: page, encoding: .utf8), "mine")
    XCTAssertEqual(try export(["--force"]).status, 0)
  }

  // MARK: In headless Chromium

  /// One step of the page's self-test: what the keys left on screen.
  private struct Step: Decodable {
    var key: String
    var selected: Int?
    var name: String?
    var matches: Int
    var rows: Int
    var filter: String
    var focus: String
    var screens: String
    var session: String
    var providers: [String]
    var columns: [[Double]]
    var comparisons: String
    var notice: String
  }

  func testInChromiumTheDebuggersKeysStepFilterAndJumpToViolations() throws {
    let binary = try chromium()
    let page = directory.appendingPathComponent("session.html")
    try Data(SessionPage.html(from: store().source).utf8).write(to: page)
    let keys = [
      "j", "j", "j", "ArrowDown", "k", "g", "]", "]", "]", "[", "G", "PageUp", "End", "Home", "/", "type:fav",
      "Escape", "j", "/", "type:+bogus:x",
    ]
    let (steps, dom) = try selfTest(binary, page: page, keys: keys)
    XCTAssertEqual(
      steps.map(\.selected), [2, 3, 4, 5, 4, 1, 6, 11, 11, 6, 12, 1, 12, 1, 1, 8, 8, 12, 12, 12])
    XCTAssertEqual(steps[17].name, "favorites")
    XCTAssertEqual(steps[8].notice, "no violation after this record")
    XCTAssertEqual(steps[14].focus, "filter")
    XCTAssertEqual(steps[15].matches, 2)
    XCTAssertEqual(steps[15].filter, "2 match")
    XCTAssertEqual(steps[16].focus, "list")
    XCTAssertEqual(steps[19].filter, "invalid: unknown term bogus:")
    // Only the rows in view are in the page.
    XCTAssertEqual(steps[0].rows, 12)
    // Record 4: its hostile values drawn as text, providers side by side (one row, left to right).
    let hostile = steps[2]
    XCTAssertEqual(hostile.name, Sanitizer.clean(Self.hostile).text)
    XCTAssertEqual(hostile.providers.count, 4)
    XCTAssertTrue(hostile.providers[0].contains("podcast_title: " + Sanitizer.clean(Self.hostile).text))
    XCTAssertTrue(hostile.providers[2].contains("dropped (evil\\e]0;"))
    XCTAssertEqual(Set(hostile.columns.map { $0[1] }).count, 1, "\(hostile.columns)")
    XCTAssertEqual(hostile.columns.map { $0[0] }, hostile.columns.map { $0[0] }.sorted())
    XCTAssertTrue(hostile.screens.hasPrefix("▶ evil\\e]0;pwned"), hostile.screens)
    XCTAssertTrue(hostile.session.contains("note: evil\\e]0;pwned"), hostile.session)
    // Screens and session as of the selected record: record 11 is after the login.
    XCTAssertTrue(steps[7].session.hasPrefix("authenticated · user u-42"), steps[7].session)
    XCTAssertTrue(steps[7].screens.hasPrefix("▶ favorites"), steps[7].screens)
    XCTAssertTrue(steps[7].providers[0].contains("✗ firebase.event-name-length"))
    // Record 6: the plan's finding under its provider, and expected vs got.
    XCTAssertTrue(steps[6].providers[0].contains("✗ plan.wrong-name: firebase got screen_view"))
    XCTAssertTrue(steps[6].comparisons.contains("screen_view_player"), steps[6].comparisons)
    XCTAssertTrue(steps[6].comparisons.contains("plan line 12"))
    // The table's heading says what its expected column holds, as the debugger's `v` does.
    XCTAssertTrue(steps[6].comparisons.contains("expected (plan)got (record)"), steps[6].comparisons)
    // The browser made no element of any value.
    XCTAssertFalse(dom.contains("<img"))
    XCTAssertFalse(dom.contains("alert(1)</script>"))
    XCTAssertEqual(dom.components(separatedBy: "<script").count - 1, 2)
  }

  func testInChromiumTheScreenshotShowsThePanes() throws {
    let binary = try chromium()
    let page = directory.appendingPathComponent("session.html")
    try Data(SessionPage.html(from: store().source).utf8).write(to: page)
    let empty = directory.appendingPathComponent("empty.html")
    try Data(SessionPage.html(from: FixtureStore().source).utf8).write(to: empty)
    let shots = try [page, empty].map { file in
      let png = directory.appendingPathComponent(file.lastPathComponent + ".png")
      let run = try runChromium(
        binary, ["--screenshot=\(png.path)", "--window-size=1280,800"], url: file.absoluteString)
      XCTAssertEqual(consoleErrors(run.err), [], run.err)
      return try Data(contentsOf: png)
    }
    for shot in shots { XCTAssertEqual(Array(shot.prefix(4)), [0x89, 0x50, 0x4E, 0x47]) }
    // The records draw something the empty session does not.
    XCTAssertGreaterThan(shots[0].count, shots[1].count + 5_000)
  }

  // MARK: Chromium

  private func chromium() throws -> String {
    for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
    where FileManager.default.isExecutableFile(atPath: path) {
      return path
    }
    throw XCTSkip("chromium is not installed: the session page was not opened in a browser")
  }

  /// Opens `page` with the self-test fragment pressing `keys`; returns its steps and the DOM.
  private func selfTest(_ binary: String, page: URL, keys: [String]) throws -> ([Step], String) {
    let fragment = try XCTUnwrap(
      keys.joined(separator: " ").addingPercentEncoding(withAllowedCharacters: .alphanumerics))
    let run = try runChromium(binary, ["--dump-dom"], url: page.absoluteString + "#selftest=" + fragment)
    XCTAssertEqual(consoleErrors(run.err), [], run.err)
    let open = "<pre id=\"selftest-result\">"
    let start = try XCTUnwrap(
      run.out.range(of: open), run.out.isEmpty ? run.err : String(run.out.suffix(2_000)))
    let end = try XCTUnwrap(run.out.range(of: "</pre>", range: start.upperBound..<run.out.endIndex))
    // The DOM has the result as element text: its markup characters as references.
    let text = String(run.out[start.upperBound..<end.lowerBound])
      .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    return (try JSONDecoder().decode([Step].self, from: Data(text.utf8)), run.out)
  }

  private func runChromium(_ binary: String, _ arguments: [String], url: String) throws -> (
    out: String, err: String
  ) {
    let profile = directory.appendingPathComponent("profile-\(UUID().uuidString)")
    let outFile = directory.appendingPathComponent("out-\(UUID().uuidString).txt")
    let errFile = directory.appendingPathComponent("err-\(UUID().uuidString).txt")
    _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments =
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--user-data-dir=\(profile.path)", "--enable-logging=stderr", "--v=0", "--hide-scrollbars",
      ] + arguments + [url]
    process.standardOutput = try FileHandle(forWritingTo: outFile)
    process.standardError = try FileHandle(forWritingTo: errFile)
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let out = String(decoding: (try? Data(contentsOf: outFile)) ?? Data(), as: UTF8.self)
    let err = String(decoding: (try? Data(contentsOf: errFile)) ?? Data(), as: UTF8.self)
    return (out, err)
  }

  /// Lines of Chromium's log that report a console message or an uncaught exception.
  private func consoleErrors(_ log: String) -> [String] {
    log.split(separator: "\n").map(String.init).filter { $0.contains("CONSOLE") || $0.contains("Uncaught") }
  }
}
