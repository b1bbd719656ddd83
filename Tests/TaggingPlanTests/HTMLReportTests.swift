import AnalyticsHub
import Foundation
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

final class HTMLReportTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "html-report-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  /// A two-file run with every coverage state, a hostile tag name, a source and a hostile source.
  private func sampleRun() throws -> ValidateRunner.Outcome {
    let plan = directory.appendingPathComponent("plan.yaml")
    try Data(samplePlanYAML.utf8).write(to: plan)
    var wrong = goodPlay(2, screen: "podcasts")
    wrong.outputs[0] = sent("firebase", "play_podcast_from_favorites", ["podcast_title": "<b>T</b>"])
    wrong.outputs[1] = ProviderOutput(provider: "amplitude", status: .blocked, reason: "consent")
    var blocked = goodPlay(3, screen: "favorites")
    blocked.outputs[1] = ProviderOutput(provider: "amplitude", status: .blocked, reason: "consent")
    var hostile = record(4, .userAction, "</td><script>alert(1)</script>&amp;\u{202E}", screen: "podcasts")
    hostile.source = "phone \"<img src=x onerror=alert(2)>\""
    let fail = record(5, .event, "playerDidFail", ["error": "timeout"], screen: "podcastPlayer")
    let header = RecordLineEncoder.line(RecordingHeader(app: "Podcasts", device: "test"))
    let first = directory.appendingPathComponent("first.jsonl")
    try Data(
      ([header] + [goodPlay(1), wrong, blocked].map(RecordLineEncoder.line)).joined(separator: "\n").utf8
    )
    .write(to: first)
    let second = directory.appendingPathComponent("second.jsonl")
    try Data(
      (([header] + [hostile, fail].map(RecordLineEncoder.line)).joined(separator: "\n") + "\n{bad\n").utf8
    )
    .write(to: second)
    return ValidateRunner.run(
      planPath: plan.path, recordings: [first.path, second.path], format: .html, failOn: .error)
  }

  func testThePageIsSelfContainedAndEscapesEveryValue() throws {
    let outcome = try sampleRun()
    XCTAssertEqual(outcome.exitCode, 1)
    let html = outcome.output
    XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
    XCTAssertTrue(html.hasSuffix("</html>\n"))
    // No script, no external resource, nothing unescaped from the recordings.
    XCTAssertFalse(html.lowercased().contains("<script"))
    XCTAssertFalse(html.contains("<img"))
    XCTAssertFalse(html.contains("src=\""))
    XCTAssertFalse(html.contains("href=\""))
    XCTAssertFalse(html.contains("url("))
    XCTAssertFalse(html.contains("<b>T</b>"))
    XCTAssertFalse(html.contains("\u{202E}"))
    XCTAssertTrue(html.contains("&lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;"))
    XCTAssertTrue(html.contains("phone &quot;&lt;img src=x onerror=alert(2)&gt;&quot;"))
    // The matrix: a cell per state, coloured by class.
    XCTAssertTrue(html.contains("<td class=\"passed\""))
    XCTAssertTrue(html.contains("<td class=\"failing\""))
    XCTAssertTrue(html.contains("<td class=\"blocked\""))
    XCTAssertTrue(html.contains("<td class=\"not-seen\""))
    XCTAssertTrue(html.contains("⊘ blocked (consent)"))
    // Violations by rule with expected vs got, and where each is.
    XCTAssertTrue(html.contains("<h3>wrong-name <span class=\"muted\">(1)</span></h3>"))
    XCTAssertTrue(html.contains("<td class=\"mono\">play_podcast_from_podcasts</td>"))
    XCTAssertTrue(html.contains("first.jsonl:3"))
    XCTAssertTrue(html.contains("second.jsonl:2"))
    // Per-source totals.
    XCTAssertTrue(
      html.contains("recorded in the app</span></td><td class=\"num\">4</td><td class=\"num\">2</td>"))
    XCTAssertTrue(html.contains("&gt;&quot;</td><td class=\"num\">1</td><td class=\"num\">1</td>"))
    XCTAssertTrue(html.contains("Unreadable lines (skipped)"))
    // A problem's place breaks at spaces, inside a word only when it cannot fit a line.
    XCTAssertTrue(html.contains("<li><code class=\"where\">" + MarkupText.escape(directory.path)), html)
    XCTAssertTrue(html.contains("code.where{word-break:normal;overflow-wrap:anywhere}"))
  }

  func testAnEmptyRunStillRenders() throws {
    let plan = try samplePlan()
    let html = HTMLReport.render(
      ValidationReport(plan: plan, violations: [], coverage: Coverage(items: plan.coverageItems), records: 0),
      failOn: .error)
    XCTAssertTrue(html.contains("<p>None.</p>"))
    XCTAssertTrue(html.contains("PASSED"))
  }

  // MARK: In a real browser

  /// Chromium from the OS packages (`scripts/test` installs it), or `nil`.
  private func chromium() -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") + ["/usr/bin", "/usr/local/bin"] {
      for name in ["chromium", "chromium-browser"] {
        let candidate = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      }
    }
    return nil
  }

  /// Runs chromium headless on `page` with `arguments`; returns standard output and error.
  private func runChromium(_ binary: String, _ arguments: [String], page: URL) throws -> (
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
        "--user-data-dir=\(profile.path)", "--enable-logging=stderr", "--v=0",
      ] + arguments + [page.absoluteString]
    process.standardOutput = try FileHandle(forWritingTo: outFile)
    process.standardError = try FileHandle(forWritingTo: errFile)
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(90)
    while process.isRunning && Date() < deadline { usleep(50_000) }
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
      XCTFail("chromium did not finish within 90 s")
    }
    let out = String(decoding: (try? Data(contentsOf: outFile)) ?? Data(), as: UTF8.self)
    let err = String(decoding: (try? Data(contentsOf: errFile)) ?? Data(), as: UTF8.self)
    return (out, err)
  }

  /// Lines of chromium's log that report a page console error or an uncaught exception.
  private func consoleErrors(_ log: String) -> [String] {
    log.split(separator: "\n").map(String.init).filter {
      $0.contains("CONSOLE") || $0.contains("Uncaught")
    }
  }

  func testTheReportRendersInHeadlessChromiumWithoutConsoleErrors() throws {
    guard let binary = chromium() else {
      throw XCTSkip(
        "chromium is not installed: the HTML report was not rendered in a browser (scripts/test installs it "
          + "with apt-get install chromium)")
    }
    let page = directory.appendingPathComponent("report.html")
    try Data(try sampleRun().output.utf8).write(to: page)

    // The check sees console errors: a page that throws is caught.
    let broken = directory.appendingPathComponent("broken.html")
    try Data(
      "<!DOCTYPE html><html><body><p>x</p><script>throw new Error('tagscope-probe')</script></body></html>"
        .utf8
    )
    .write(to: broken)
    let probe = try runChromium(binary, ["--dump-dom"], page: broken)
    XCTAssertTrue(
      consoleErrors(probe.err).contains { $0.contains("tagscope-probe") },
      "chromium's log shows no console error for a page that throws:\n\(probe.err)")

    let dump = try runChromium(binary, ["--dump-dom"], page: page)
    XCTAssertEqual(consoleErrors(dump.err), [], dump.err)
    let dom = dump.out
    XCTAssertTrue(dom.contains("<h2>Coverage</h2>"), dom.isEmpty ? dump.err : dom)
    XCTAssertTrue(dom.contains("<h2>Violations</h2>"))
    XCTAssertTrue(dom.contains("<h2>Sources</h2>"))
    XCTAssertTrue(dom.contains("FAILED"))
    XCTAssertTrue(dom.contains("✗ failing"))
    XCTAssertTrue(dom.contains("⊘ blocked (consent)"))
    // The hostile values stayed text: the browser parsed no element out of them.
    XCTAssertFalse(dom.contains("<script"))
    XCTAssertFalse(dom.contains("<img"))
    XCTAssertTrue(dom.contains("&lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
    // The matrix has as many cells with a state as there are coverage items.
    let states = ["\"passed\"", "\"failing\"", "\"blocked\"", "\"not-seen\""].reduce(0) {
      $0 + dom.components(separatedBy: "<td class=\($1)").count - 1
    }
    XCTAssertEqual(states, try samplePlan().coverageItems.count)

    let screenshot = directory.appendingPathComponent("report.png")
    let shot = try runChromium(
      binary, ["--screenshot=\(screenshot.path)", "--window-size=1280,1600", "--hide-scrollbars"], page: page)
    XCTAssertEqual(consoleErrors(shot.err), [], shot.err)
    let png = try Data(contentsOf: screenshot)
    XCTAssertGreaterThan(png.count, 10_000, "a blank screenshot")
    XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
  }

  func testInChromiumTheMatrixCellOfASometimesBrokenItemIsFailing() throws {
    guard let binary = chromium() else {
      throw XCTSkip(
        "chromium is not installed: the HTML report was not rendered in a browser (scripts/test installs it "
          + "with apt-get install chromium)")
    }
    let page = directory.appendingPathComponent("sometimes.html")
    try Data(HTMLReport.render(try SometimesBrokenTests.run(), failOn: .error).utf8).write(to: page)
    let dump = try runChromium(binary, ["--dump-dom"], page: page)
    XCTAssertEqual(consoleErrors(dump.err), [], dump.err)
    // The favorites row: its screen cell, the tag's own cell, then firebase's and amplitude's.
    let row = try XCTUnwrap(
      dump.out.components(separatedBy: "<tr>").first { $0.contains("<td>favorites</td>") },
      dump.out.isEmpty ? dump.err : dump.out)
    let cells = row.components(separatedBy: "<td class=\"").dropFirst().map { $0.prefix { $0 != "<" } }
    XCTAssertTrue(
      cells.contains {
        $0.hasPrefix(
          "failing\" title=\"action playPodcast on favorites: firebase · plan line 21\">✗ failing · 3 of 5 broke it (wrong-name)"
        )
      },
      row)
    XCTAssertTrue(
      cells.contains { $0.hasPrefix("passed\" title=\"action playPodcast on favorites: amplitude") }, row)
  }

  /// Laid out by Chromium in a narrow window, with a probe script added to the page (the report
  /// itself has none): every place in a "where" cell (`first.jsonl:3`) stays on one line, and no
  /// expected-vs-got table has more than one "call" row. The same page with the cell as it was
  /// (breakable anywhere) breaks a place, so the probe sees a break when there is one.
  func testInChromiumNoPlaceBreaksInsideAndEachTableHasOneCallRow() throws {
    guard let binary = chromium() else {
      throw XCTSkip(
        "chromium is not installed: the HTML report was not rendered in a browser (scripts/test installs it "
          + "with apt-get install chromium)")
    }
    // The page at a phone's width, where a column gets little room.
    let probe = """
      <style>body{max-width:220px}</style>
      <script>
      const places = [...document.querySelectorAll('table.occurrences td:first-child > span')].map(place => {
        const lines = new Set([...place.getClientRects()].map(rect => Math.round(rect.top)));
        return place.textContent + ' lines=' + lines.size;
      });
      const calls = [...document.querySelectorAll('table.comparison')].map(table =>
        [...table.querySelectorAll('tr')].filter(row => row.cells[0] && row.cells[0].textContent === 'call').length);
      const out = document.createElement('pre');
      out.id = 'probe';
      out.textContent = JSON.stringify({places, calls});
      document.body.appendChild(out);
      </script>
      """
    func probed(_ html: String) throws -> (places: [String], calls: [Int]) {
      let page = directory.appendingPathComponent("narrow-\(UUID().uuidString).html")
      try Data(html.replacingOccurrences(of: "</body>", with: probe + "</body>").utf8).write(to: page)
      let dump = try runChromium(binary, ["--dump-dom", "--window-size=360,2000"], page: page)
      XCTAssertEqual(consoleErrors(dump.err), [], dump.err)
      let json = try XCTUnwrap(
        dump.out.components(separatedBy: "<pre id=\"probe\">").last?.components(separatedBy: "</pre>").first,
        dump.err)
      struct Probe: Decodable {
        var places: [String]
        var calls: [Int]
      }
      let decoded = try JSONDecoder().decode(Probe.self, from: Data(json.utf8))
      return (decoded.places, decoded.calls)
    }
    let html = try sampleRun().output
    let report = try probed(html)
    XCTAssertGreaterThanOrEqual(report.places.count, 2, "the sample's places")
    XCTAssertEqual(report.places.filter { !$0.hasSuffix(" lines=1") }, [], "a file:line broken over lines")
    // As the cell was before (issue 49: `r.jsonl:1` over `49`): monospace text breakable anywhere.
    let broken = try probed(
      html.replacingOccurrences(of: "<span class=\"nowrap\">", with: "<span>")
        .replacingOccurrences(of: "class=\"mono where\"", with: "class=\"mono\""))
    XCTAssertFalse(
      broken.places.allSatisfy { $0.hasSuffix(" lines=1") },
      "the narrow window breaks an unprotected place: \(broken)")
    XCTAssertTrue(report.calls.contains(1), "the sample has a call's expected-vs-got table: \(report.calls)")
    XCTAssertEqual(report.calls.filter { $0 > 1 }, [], "one call row per table: \(report.calls)")
  }
}
