import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

/// The line cache's speed paths keep validate's results: the scanner reused from line to line
/// (its session strings kept while lines share them) reads every line as a fresh one would, and
/// the cache's admission past half its room remembers repeated contents, not one-off ones.
final class LineCacheTests: XCTestCase {
  /// A playPodcast line with `session` written as `sessionJSON` (the `context.session` value).
  private func line(_ seq: Int, sessionJSON: String) -> String {
    var text = RecordLineEncoder.line(goodPlay(UInt64(seq)))
    let context = try! XCTUnwrap(text.range(of: "\"context\":{"))
    text.insert(contentsOf: "\"session\":\(sessionJSON),", at: context.upperBound)
    return text
  }

  /// What a fresh scanner reads from `text`.
  private func fresh(_ text: String) -> LineSession?? {
    var scanner = LineKeyScanner(readsSession: true)
    var copy = text
    return copy.withUTF8 { scanner.scan($0) }.map(\.session)
  }

  func testAReusedScannerReadsEachLineAsAFreshOne() throws {
    let long = String(repeating: "s", count: 5_000) + "é"
    let sessions = [
      #"{"id":"3F2504E0-4F89-11D3-9A0C-0305E82C3301","state":"unauthenticated","user":"user-7"}"#,
      #"{"id":"3F2504E0-4F89-11D3-9A0C-0305E82C3301","state":"unauthenticated","user":"user-7"}"#,
      #"{"id":"3F2504E0-4F89-11D3-9A0C-0305E82C3301","state":"authenticated","user":"user-8"}"#,
      #"{"id":"3F2504E0-4F89-11D3-9A0C-0305E82C3302","state":"authenticated","user":null}"#,
      #"{"id":"s-\u00e9","state":"unauthenticated"}"#,
      #"{"id":"s-\u00e9","state":"unauthenticated","user":"é"}"#,
      #"{"id":"s-é","state":"unauthenticated","user":"é"}"#,
      "null",
      #"{"id":"","state":"unauthenticated","user":""}"#,
      #"{"id":"\#(long)","state":"unauthenticated","user":"\#(long)"}"#,
      #"{"id":"\#(long)","state":"unauthenticated","user":"\#(long)"}"#,
      #"{"id":"3F2504E0-4F89-11D3-9A0C-0305E82C3301","state":"unauthenticated","user":"user-7"}"#,
    ]
    var scanner = LineKeyScanner(readsSession: true)
    var read: [LineSession??] = []
    for (index, session) in sessions.enumerated() {
      var text = line(index + 1, sessionJSON: session)
      let scanned = text.withUTF8 { scanner.scan($0) }
      XCTAssertEqual(scanned?.seq, UInt64(index + 1))
      read.append(scanned.map(\.session))
    }
    XCTAssertEqual(read, sessions.enumerated().map { fresh(line($0.offset + 1, sessionJSON: $0.element)) })
    // Escapes are read as the decoder reads them.
    XCTAssertEqual(read[4], LineSession(id: "s-é", user: nil))
    XCTAssertEqual(read[5], LineSession(id: "s-é", user: "é"))
    XCTAssertEqual(read[6], LineSession(id: "s-é", user: "é"))
    XCTAssertEqual(read[7], LineSession(id: nil, user: nil))
    XCTAssertEqual(read[9], LineSession(id: long, user: long))
    XCTAssertEqual(read[11], read[0])
    // A bad line between good ones is no record, and leaves nothing to the next.
    var bad =
      #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a","context":{"session":{"id":"x"#
    XCTAssertNil(bad.withUTF8 { scanner.scan($0) })
  }

  func testSeenKeysAnswerSeenOnlyForKeysNotedBefore() {
    var seen = SeenKeys()
    let keys = (0..<1_000).map { LineKey(low: UInt64($0) &* 0x9E37_79B9_7F4A_7C15, high: UInt64($0)) }
    XCTAssertFalse(keys.contains { seen.insert($0) })
    XCTAssertTrue(keys.allSatisfy { seen.insert($0) })
    // Another key in a slot takes it over.
    let other = LineKey(low: keys[0].low, high: 12_345)
    XCTAssertFalse(seen.insert(other))
    XCTAssertFalse(seen.insert(keys[0]))
    seen.removeAll()
    XCTAssertFalse(seen.insert(keys[1]))
  }

  /// Past half its room the cache remembers a content on its second line: one-off records do not
  /// fill it, and a record repeated after them is still answered from it, with the same results
  /// as checking every record on its own.
  func testPastHalfItsRoomTheCacheRemembersRepeatedContents() throws {
    let plan = try samplePlan()
    var records: [Record] = []
    // One-off contents: the first four fill half of a cache of eight; the other 40 are not
    // remembered.
    for seq in 1...44 {
      var play = goodPlay(UInt64(seq))
      play.properties["podcast_duration"] = .int(seq)
      records.append(play)
    }
    // A repeated content: noted on its first line, remembered on its second, answered after.
    for seq in 45...54 { records.append(goodPlay(UInt64(seq), screen: "downloads")) }
    var expected = PlanValidator(plan: plan)
    let oneByOne = records.flatMap { expected.validate($0) }

    var lines = LineValidator(plan: plan, cacheLimit: 8)
    var violations: [PlanViolation] = []
    var bytes = Array(
      ([RecordLineEncoder.line(RecordingHeader(app: "A"))] + records.map { RecordLineEncoder.line($0) })
        .joined(separator: "\n").utf8)
    let summary = bytes.withUnsafeMutableBufferPointer { buffer in
      RecordingScanner.validate(UnsafeBufferPointer(buffer), file: "r.jsonl", with: &lines, into: &violations)
    }
    XCTAssertEqual(summary.records, 54)
    XCTAssertEqual(lines.remembered, 5)
    XCTAssertEqual(lines.hits, 8)
    XCTAssertEqual(violations.map(\.seq), oneByOne.map(\.seq))
    XCTAssertEqual(violations.map(\.message), oneByOne.map(\.message))
    XCTAssertEqual(lines.validator.coverage.counts, expected.coverage.counts)
  }

  /// Each repeated content is answered with its own remembered results: 24 contents, each with its
  /// own findings, coverage and (with the journey plan) digest and kept record, repeated in an order
  /// that puts different ones side by side, give what checking every record on its own gives.
  func testEachRepeatedContentIsAnsweredWithItsOwnEntry() throws {
    let journeys = try PlanLoader.load(
      yaml: """
        plan: J
        actions:
          tap: {duplicateWithin: 500ms, properties: {id: {type: string, enum: [p0, p1]}}}
          pay: {after: [tap]}
          open: {once: session}
        funnels:
          buy: {steps: [open, tap, pay], maxGap: 2s}
        """, file: "j.yaml")
    let names = ["open", "tap", "pay", "other"]
    let contents: [(plan: Plan, make: (UInt64, Int) -> Record)] = [
      (
        try samplePlan(),
        { seq, content in
          var play = goodPlay(seq, screen: content % 2 == 0 ? "favorites" : "screen-\(content)")
          play.properties["podcast_duration"] = content % 3 == 0 ? .string("long-\(content)") : .int(content)
          return play
        }
      ),
      (
        journeys,
        { seq, content in
          var tap = record(
            seq, .userAction, names[content % names.count],
            ["id": .string("p\(content % 3)"), "n": .int(content)])
          tap.time = Date(timeIntervalSince1970: 1_800_000_000 + Double(seq) * 0.3)
          tap.context.session = RecordSession(
            id: "s-\(seq / 40)", state: "unauthenticated", user: nil, properties: [:])
          return tap
        }
      ),
    ]
    for (plan, make) in contents {
      // Content c on line n: n * 7 mod 24 walks every content before one repeats.
      let records = (1...240).map { make(UInt64($0), $0 * 7 % 24) }
      var expected = PlanValidator(plan: plan, rules: .allProviders)
      let oneByOne = records.flatMap { expected.validate($0) }
      XCTAssertGreaterThan(Set(oneByOne.map(\.message)).count, 4, "contents must differ in their findings")

      var lines = LineValidator(plan: plan)
      var violations: [PlanViolation] = []
      var bytes = Array(
        ([RecordLineEncoder.line(RecordingHeader(app: "A"))] + records.map { RecordLineEncoder.line($0) })
          .joined(separator: "\n").utf8)
      let summary = bytes.withUnsafeMutableBufferPointer { buffer in
        RecordingScanner.validate(
          UnsafeBufferPointer(buffer), file: "r.jsonl", with: &lines, into: &violations)
      }
      XCTAssertEqual(summary.records, 240)
      XCTAssertEqual(lines.remembered, 24)
      XCTAssertGreaterThan(lines.hits, 150, "repeated lines are answered from the cache")
      XCTAssertEqual(violations.map(\.seq), oneByOne.map(\.seq))
      XCTAssertEqual(violations.map(\.message), oneByOne.map(\.message))
      XCTAssertEqual(lines.validator.coverage.counts, expected.coverage.counts)
      XCTAssertEqual(
        lines.validator.coverage.items.indices.map { lines.validator.coverage.state(at: $0) },
        expected.coverage.items.indices.map { expected.coverage.state(at: $0) })
    }
  }
}
