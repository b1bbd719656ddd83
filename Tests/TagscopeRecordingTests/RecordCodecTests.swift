import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

final class RecordCodecTests: XCTestCase {
  static let designExample = """
    {"seq":7,"time":"2026-11-21T10:00:04.210Z","kind":"userAction","name":"playPodcast",\
    "properties":{"podcast_title":"Swift by Sundell","podcast_duration":1830},\
    "context":{"screen":"favorites","history":["podcasts","podcastPlayer","favorites"],\
    "session":{"id":"s-1","state":"authenticated","user":"u-42","properties":{"voiceOver":true}}},\
    "outputs":[{"provider":"firebase","status":"sent","calls":[{"method":"logEvent",\
    "name":"play_podcast_from_favorites","parameters":{"podcast_title":"Swift by Sundell","podcast_duration":1830}}]},\
    {"provider":"piano","status":"dropped"},{"provider":"braze","status":"blocked","reason":"consent"}]}
    """

  func testDecodesTheDesignExample() throws {
    let record = try RecordLineDecoder.decodeRecord(Self.designExample)
    XCTAssertEqual(record.seq, 7)
    XCTAssertEqual(record.kind, .userAction)
    XCTAssertEqual(record.name, "playPodcast")
    XCTAssertEqual(record.properties["podcast_duration"], .int(1830))
    XCTAssertEqual(record.properties.keys, ["podcast_title", "podcast_duration"])
    XCTAssertEqual(record.context.screen, "favorites")
    XCTAssertEqual(record.context.history, ["podcasts", "podcastPlayer", "favorites"])
    XCTAssertEqual(record.context.session?.user, "u-42")
    XCTAssertEqual(record.context.session?.properties["voiceOver"], .bool(true))
    XCTAssertEqual(record.outputs.map(\.provider), ["firebase", "piano", "braze"])
    XCTAssertEqual(record.outputs.map(\.status), [.sent, .dropped, .blocked])
    XCTAssertEqual(record.outputs[2].reason, "consent")
    XCTAssertEqual(record.outputs[0].calls.first?.name, "play_podcast_from_favorites")
    XCTAssertEqual(RecordTimestampProbe.string(record.time), "2026-11-21T10:00:04.210Z")
    // Encoding and decoding again gives the same record.
    XCTAssertEqual(try RecordLineDecoder.decodeRecord(RecordLineEncoder.line(record)), record)
  }

  func testUnknownFieldsAndWordsAreKeptAndWrittenBack() throws {
    let line = """
      {"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"hologram","name":"x","eventType":"zz",\
      "future":{"a":[1,2]},"context":{"history":[],"mood":"calm","session":{"id":"s","state":"weird","tz":"CET"}},\
      "outputs":[{"provider":"p","status":"queued","retries":3}]}
      """
    let record = try RecordLineDecoder.decodeRecord(line)
    XCTAssertEqual(record.kind.rawValue, "hologram")
    XCTAssertFalse(record.kind.isKnown)
    XCTAssertNil(record.eventType)
    XCTAssertEqual(record.extra["future"], ["a": [1, 2]])
    XCTAssertEqual(record.extra["eventType"], "zz")
    XCTAssertEqual(record.context.extra["mood"], "calm")
    XCTAssertEqual(record.context.session?.extra["tz"], "CET")
    XCTAssertEqual(record.outputs[0].status.rawValue, "queued")
    XCTAssertEqual(record.outputs[0].extra["retries"], 3)
    let again = try RecordLineDecoder.decodeRecord(RecordLineEncoder.line(record))
    XCTAssertEqual(again, record)
  }

  func testRecordFromDispatchRoundTrips() throws {
    let when = Date(timeIntervalSince1970: 1_795_000_000.123_456)
    let dispatch = Dispatch(
      seq: 3, time: when, kind: .userAction, name: "play\"Podcast\"\n",
      properties: [
        "title": "Swift ✓ \u{1F600}", "n": .double(.nan), "d": .date(when),
        "nested": ["a": [1, 2.5, nil, true]],
      ],
      context: ContextSnapshot(
        screen: "favorites", history: ["podcasts", "favorites"],
        session: Session(
          id: "s-1", user: AnalyticsUser(id: "u-42"), properties: ["voiceOver": true], startedAt: when),
        timedEvents: ["listening"]),
      outcomes: [
        ProviderOutcome(
          provider: "firebase", status: .sent,
          calls: [CallDescription(method: "logEvent", name: "play", parameters: ["x": 1])],
          violations: [
            RuleViolation(
              rule: "firebase.event-name-length", message: "too long", consequence: .dropped, callIndex: 0)
          ]),
        ProviderOutcome(provider: "piano", status: .dropped),
        ProviderOutcome(provider: "braze", status: .blocked(.consent)),
        ProviderOutcome(provider: "batch", status: .failed("boom")),
      ],
      issues: [HubIssue(code: .unrepresentableValue, message: "n is NaN")])
    let record = Record(dispatch: dispatch)
    XCTAssertEqual(record.timeMilliseconds, 1_795_000_000_123)
    XCTAssertEqual(record.properties["n"], .null)
    XCTAssertEqual(record.properties["d"], .string(ISO8601Timestamp.string(from: when)))
    XCTAssertEqual(record.outputs[2].reason, "consent")
    XCTAssertEqual(record.outputs[3].status, .failed)
    XCTAssertEqual(record.outputs[3].reason, "boom")
    XCTAssertTrue(record.hasViolations)
    let line = RecordLineEncoder.line(record)
    XCTAssertFalse(line.contains("\n"))
    XCTAssertEqual(try RecordLineDecoder.decodeRecord(line), record)
  }

  func testHeaderAndDropMarkerRoundTrip() throws {
    let header = RecordingHeader(
      app: "Podcasts", device: "iPhone 15 (sim)", started: Date(timeIntervalSince1970: 1))
    XCTAssertEqual(
      RecordLineEncoder.line(header),
      #"{"format":"tagscope-recording","version":1,"app":"Podcasts","device":"iPhone 15 (sim)","started":"1970-01-01T00:00:01.000Z"}"#
    )
    XCTAssertEqual(try RecordLineDecoder.decode(RecordLineEncoder.line(header)), .header(header))
    let marker = DropMarker(count: 12, time: Date(timeIntervalSince1970: 2), afterSeq: 40, origin: "recorder")
    XCTAssertEqual(try RecordLineDecoder.decode(RecordLineEncoder.line(marker)), .dropped(marker))
  }

  func testErrorsNameTheField() {
    func reason(_ line: String) -> String {
      do {
        _ = try RecordLineDecoder.decode(line)
        return "no error"
      } catch { return error.description }
    }
    XCTAssertEqual(
      reason(#"{"seq":1,"time":"x","kind":"screen","name":"a"}"#),
      #"field 'time': expected an ISO 8601 timestamp, found "x""#)
    XCTAssertEqual(reason(#"{"seq":1,"kind":"screen","name":"a","time":"2026-11-21T10:00:00Z"}"#), "no error")
    XCTAssertEqual(
      reason(#"{"seq":1,"kind":"screen","time":"2026-11-21T10:00:00Z"}"#), "field 'name': missing")
    XCTAssertEqual(
      reason(
        #"{"seq":1,"kind":"screen","name":"a","time":"2026-11-21T10:00:00Z","outputs":[{"provider":"p","status":3}]}"#
      ),
      "field 'outputs[0].status': expected a string, found the integer 3")
    XCTAssertEqual(reason(#"{"seq":1,"#), "invalid JSON: unexpected end of line inside an object at byte 10")
    XCTAssertEqual(reason("[1]"), "a line must be a JSON object, found array")
    XCTAssertEqual(
      reason(#"{"hello":1}"#), "not a recording line: no 'seq' (record), 'format' (header) or 'dropped' field"
    )
    XCTAssertEqual(
      reason(#"{"format":"other","version":1}"#),
      #"field 'format': expected "tagscope-recording", found "other""#)
  }
}

/// The timestamp text of a date, through the public encoder.
enum RecordTimestampProbe {
  static func string(_ date: Date) -> String {
    let line = RecordLineEncoder.line(Record(seq: 0, time: date, kind: .screen, name: ""))
    let start = line.range(of: #""time":""#)!.upperBound
    return String(line[start...].prefix(24))
  }
}
