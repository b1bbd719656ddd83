import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TagscopeUI

/// The debugger's export prompt offers the redacted form (`ctrl-r`): a recording or an HTML
/// session with every piece of personal data replaced by a salted hash, still loadable, every
/// other line as recorded.
final class RedactedExportTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "redacted-export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  /// The personal values the fixture carries, as they appear in a record's line.
  static let personal = [
    "jo.smith@example.com", "+33 6 12 34 56 78", "203.0.113.7", "4111111111111111", "48.85661", "2.35222",
    "612345678",
  ]

  /// The podcast records, records 4 and 6 carrying personal data: in properties, a provider's
  /// parameters (a geolocation pair of two keys, a bare number under a phone key) and the session.
  static func store() -> FixtureStore {
    var records = Fixtures.podcastRecords()
    records[3].properties["email"] = "jo.smith@example.com"
    records[3].outputs[0].calls[0].parameters["contact"] = "call +33 6 12 34 56 78 or jo.smith@example.com"
    records[3].outputs[0].calls[0].parameters["where"] = .object(["lat": 48.85661, "lng": 2.35222])
    records[3].context.session?.properties["last_ip"] = "203.0.113.7"
    records[5].properties["card"] = "4111111111111111"
    records[5].properties["phone"] = 612_345_678
    return Fixtures.store(records)
  }

  /// Types `path` in the open export prompt (after clearing it) and presses enter.
  private func write(_ path: String, in state: inout UISession) {
    for _ in 0..<200 { state.apply(.key(.backspace)) }
    state.type(path)
    state.apply(.key(.enter))
  }

  /// How many values a redactor still finds in `text` (one line of JSON).
  private func detected(in text: String) -> Int {
    var redactor = Redactor(salt: "check")
    var out: [UInt8] = []
    var text = text
    return text.withUTF8 { redactor.redact(line: $0, into: &out) }
  }

  func testCtrlRTogglesTheRedactedFormAndTheEffectCarriesIt() {
    var state = Fixtures.state(Self.store(), size: Size(width: 220, height: 40))
    state.type("E")
    guard case .export(let prompt) = state.overlay else { return XCTFail("no export prompt") }
    XCTAssertFalse(prompt.redacted)
    XCTAssertTrue(render(state).text.contains("export 12 records to "), render(state).text)
    XCTAssertTrue(render(state).text.contains("ctrl-r redact personal data"), render(state).text)
    state.apply(.key(.control("r")))
    guard case .export(let redacted) = state.overlay else { return XCTFail("no export prompt") }
    XCTAssertTrue(redacted.redacted)
    XCTAssertEqual(redacted.path, prompt.path, "ctrl-r types nothing")
    XCTAssertTrue(render(state).text.contains("export 12 records, redacted, to "), render(state).text)
    XCTAssertTrue(render(state).text.contains("ctrl-r as recorded"), render(state).text)
    // tab keeps the choice; ctrl-r again turns it off.
    state.apply(.key(.tab))
    guard case .export(let html) = state.overlay else { return XCTFail("no export prompt") }
    XCTAssertTrue(html.redacted)
    XCTAssertTrue(render(state).text.contains("an HTML session anyone can open"), render(state).text)
    state.apply(.key(.control("r")))
    guard case .export(let plain) = state.overlay else { return XCTFail("no export prompt") }
    XCTAssertFalse(plain.redacted)
    // enter hands the choice to the effect.
    var session = State(mode: .replay, size: Size(width: 140, height: 40))
    XCTAssertEqual(
      session.exportKey(.enter, ExportPrompt(scope: .record(2), path: "x.jsonl", redacted: true)),
      [.export(.record(2), path: "x.jsonl", redacted: true)])
  }

  func testTheRedactedRecordingHasNoDetectedValueLeftAndStillLoads() throws {
    let store = Self.store()
    var state = Fixtures.state(store)
    state.type("E")
    state.apply(.key(.control("r")))
    let path = directory.appendingPathComponent("shared.jsonl").path
    write(path, in: &state)
    XCTAssertEqual(
      state.notice?.text,
      "exported 12 records, personal data redacted, to \(path) (tagscope replay / validate read it)")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    for value in Self.personal { XCTAssertFalse(text.contains(value), "\(value) left in\n\(text)") }
    let lines = text.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 13)
    for line in lines { XCTAssertEqual(detected(in: line), 0, line) }
    // The same value gives the same hash: the email of record 4's properties and its call.
    let hashes = lines[4].matches(of: /pii:email:[0-9a-f]{16}/).map(\.output)
    XCTAssertEqual(hashes.count, 2, lines[4])
    XCTAssertEqual(Set(hashes).count, 1, lines[4])

    let exported = try Timeline.open(path: path)
    exported.waitUntilIndexed()
    XCTAssertEqual(exported.count, 12)
    XCTAssertEqual(exported.problemCount, 0)
    for position in 0..<12 {
      let record = try exported.record(at: position)
      XCTAssertEqual(record.name, try store.timeline.record(at: position).name)
      if position != 3 && position != 5 {
        XCTAssertEqual(
          try exported.line(at: position), try store.timeline.line(at: position), "line \(position)")
      }
    }
    guard case .object(let geo)? = try exported.record(at: 3).outputs[0].calls[0].parameters["where"] else {
      return XCTFail("the pair is still an object")
    }
    XCTAssertEqual(geo["lat"]?.stringValue?.hasPrefix("pii:geo:"), true, "\(geo)")
    XCTAssertEqual(geo["lng"]?.stringValue?.hasPrefix("pii:geo:"), true, "\(geo)")
    XCTAssertEqual(
      try exported.record(at: 5).properties["phone"]?.stringValue?.hasPrefix("pii:phone:"), true)
  }

  func testTheRedactedHTMLSessionHoldsNoDetectedValue() throws {
    let store = Self.store()
    store.plan.add(
      PlanFinding(
        provider: "firebase",
        violation: RecordViolation(
          rule: "plan.invalid-value", message: "email is \"jo.smith@example.com\", plan line 3 expects ...",
          consequence: "error")),
      at: 3)
    store.timeline.setPlanViolations(1, at: 3)
    var state = Fixtures.state(store)
    state.type("E")
    state.apply(.key(.tab))
    state.apply(.key(.control("r")))
    let path = directory.appendingPathComponent("shared.html").path
    write(path, in: &state)
    XCTAssertEqual(
      state.notice?.text,
      "exported 12 records, personal data redacted, to \(path) (an HTML session: open it in a browser)")
    let html = try String(contentsOfFile: path, encoding: .utf8)
    for value in Self.personal { XCTAssertFalse(html.contains(value), "\(value) left in the page") }
    let open = "<script type=\"application/json\" id=\"tagscope-data\">"
    let start = try XCTUnwrap(html.range(of: open))
    let end = try XCTUnwrap(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
    let blob = String(html[start.upperBound..<end.lowerBound])
    XCTAssertEqual(detected(in: blob), 0)
    let data = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(blob.utf8)) as? [String: Any])
    XCTAssertEqual((data["r"] as? [Int])?.count, 12 * SessionData.rowWidth)
    XCTAssertTrue(blob.contains("pii:email:"), "the finding's message and the record's values are hashed")

    // Without ctrl-r the page is as recorded.
    let plain = SessionPage.html(from: store.source)
    XCTAssertTrue(plain.contains("jo.smith@example.com"))
  }

  /// `tagscope export --html --redact`: the same redacted page from the command line.
  func testTheCommandWritesTheRedactedHTMLSession() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let binary = root.appendingPathComponent(".build/debug/tagscope")
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      throw XCTSkip("\(binary.path) not built")
    }
    let store = Self.store()
    var lines = [RecordLineEncoder.line(RecordingHeader(app: "Podcasts", device: "test"))]
    lines += try (0..<store.count).map { try store.timeline.line(at: $0) }
    let recording = directory.appendingPathComponent("session.jsonl")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: recording)
    let page = directory.appendingPathComponent("session.html")
    let process = Process()
    process.executableURL = binary
    process.arguments = ["export", "--html", page.path, "--redact", recording.path]
    let err = directory.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    process.standardError = try FileHandle(forWritingTo: err)
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let said = try String(contentsOf: err, encoding: .utf8)
    XCTAssertEqual(process.terminationStatus, 0, said)
    XCTAssertTrue(
      said.contains("12 records exported to \(page.path) (an HTML session, personal data redacted)"), said)
    let html = try String(contentsOf: page, encoding: .utf8)
    for value in Self.personal { XCTAssertFalse(html.contains(value), "\(value) left in the page") }
    XCTAssertTrue(html.contains("pii:email:"))
  }
}
