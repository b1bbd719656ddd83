import AnalyticsHub
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

final class LineKeyTests: XCTestCase {
  private func key(_ record: Record) -> (key: LineKey, seq: UInt64)? {
    var line = RecordLineEncoder.line(record)
    return line.withUTF8 { LineKey.scan($0) }
  }

  private func key(_ text: String) -> LineKey? {
    var line = text
    return line.withUTF8 { LineKey.scan($0) }?.key
  }

  func testSeqTimeHistoryAndSessionDoNotChangeTheKey() throws {
    let first = goodPlay(1)
    var second = goodPlay(99)
    second.time = Date(timeIntervalSince1970: 1_900_000_000)
    second.context.history = ["podcasts", "favorites"]
    second.context.session = RecordSession(id: "s-2", state: "authenticated", user: "user-9")
    let one = try XCTUnwrap(key(first))
    let two = try XCTUnwrap(key(second))
    XCTAssertEqual(one.key, two.key)
    XCTAssertEqual(one.seq, 1)
    XCTAssertEqual(two.seq, 99)
  }

  func testWhatValidationReadsChangesTheKey() throws {
    let base = try XCTUnwrap(key(goodPlay(1))).key
    var property = goodPlay(1)
    property.properties["podcast_duration"] = 1831
    var screen = goodPlay(1)
    screen.context.screen = "podcasts"
    var output = goodPlay(1)
    output.outputs[2] = ProviderOutput(provider: "piano", status: .blocked, reason: "consent")
    var name = goodPlay(1)
    name.name = "pausePodcast"
    var kind = goodPlay(1)
    kind.kind = .event
    let keys = try [property, screen, output, name, kind].map { try XCTUnwrap(key($0)).key }
    XCTAssertEqual(Set(keys + [base]).count, 6)
  }

  func testLinesOutsideTheFastPathHaveNoKey() {
    var listened = goodPlay(1)
    listened.source = "127.0.0.1:5000"
    XCTAssertNil(key(listened))
    XCTAssertNil(key(RecordLineEncoder.line(RecordingHeader(app: "A"))))
    XCTAssertNil(key("{\"seq\":1,\"time\":\"not a time\",\"kind\":\"screen\",\"name\":\"a\"}"))
    XCTAssertNil(key("{\"seq\":1,\"time\":\"2026-11-21T10:00:00.000Z\",\"kind\":\"screen\"}"))
    XCTAssertNil(
      key("{\"seq\":1,\"time\":\"2026-11-21T10:00:00.000Z\",\"kind\":\"screen\",\"name\":\"a\",\"x\":[1}"))
    XCTAssertNil(
      key("{\"seq\":1,\"time\":\"2026-11-21T10:00:00.000Z\",\"kind\":\"screen\",\"name\":\"a\"} trailing"))
    // Escapes are hashed as written: a key of its own, never another record's.
    XCTAssertNotEqual(
      key("{\"seq\":1,\"time\":\"2026-11-21T10:00:00.000Z\",\"kind\":\"scr\\u0065en\",\"name\":\"a\"}"),
      key("{\"seq\":1,\"time\":\"2026-11-21T10:00:00.000Z\",\"kind\":\"screen\",\"name\":\"a\"}"))
    XCTAssertNotNil(
      key(
        "{\"seq\":1,\"time\":\"2026-11-21T10:00:00.000Z\",\"kind\":\"screen\",\"name\":\"a\",\"x\":[1.5e3,-0,\"\\u00e9\"]}"
      ))
  }

  func testFastPathReportsTheSameProblemsAsTheReader() throws {
    let plan = try samplePlan()
    let text = [
      RecordLineEncoder.line(RecordingHeader(app: "A")), RecordLineEncoder.line(goodPlay(1)),
      RecordLineEncoder.line(goodPlay(2)),
      "{\"seq\":3,\"time\":\"2026-11-21T10:00:00.000Z\",\"kind\":\"screen\"}",
      RecordLineEncoder.line(goodPlay(4, screen: "downloads")),
      RecordLineEncoder.line(goodPlay(5, screen: "downloads")),
    ].joined(separator: "\n")
    var lines = LineValidator(plan: plan)
    var violations: [PlanViolation] = []
    var bytes = Array(text.utf8)
    let summary = bytes.withUnsafeMutableBufferPointer { buffer in
      RecordingScanner.validate(UnsafeBufferPointer(buffer), file: "r.jsonl", with: &lines, into: &violations)
    }
    XCTAssertEqual(summary.records, 4)
    XCTAssertEqual(lines.hits, 2)
    XCTAssertEqual(summary.problems.map(\.line), [4])
    XCTAssertEqual(violations.map(\.seq), [4, 5])
    XCTAssertEqual(violations.map(\.rule), [.wrongScreen, .wrongScreen])
    XCTAssertEqual(
      lines.validator.coverage.counts[plan.coverageItems.firstIndex { $0.id == "action playPodcast" }!], 4)
  }
}
