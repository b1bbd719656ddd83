import Foundation
import TagscopeLive
import TagscopeRecording
import TagscopeServer
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

/// Issue 46: the vendor's answers to the requests the proxy forwards are written to the recording
/// (an answer line behind each), so `tagscope validate` over it gives the states the live ledger
/// gave, `refused` included, instead of taking every wire record as delivered.
final class DeliveryAnswerRecordingTests: XCTestCase {
  private var scratch: URL!

  override func setUpWithError() throws {
    scratch = FileManager.default.temporaryDirectory.appendingPathComponent("answers-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: scratch) }

  func testValidateReadsTheVendorsAnswersTheLiveLedgerHad() throws {
    let (recording, timeline, session) = try liveSession(calling: "Accepted", "Refused")
    let (accepted, refused) = (WireExchange(), WireExchange())
    session.deliver([try wire(seq: 2, "Accepted")], forwardedIn: accepted)
    session.deliver([try wire(seq: 3, "Refused")], forwardedIn: refused)
    // A record stored between a request and its answer: the answer line still names its own.
    session.receive([SinkItem(try wire(seq: 4, "Own"))])
    session.flush()
    refused.answered(status: 400)
    accepted.answered(status: 202)
    session.flush()
    let live = try XCTUnwrap(session.delivery).snapshot()
    XCTAssertEqual(live.entries.map(\.state), [.delivered, .refused])
    session.close()
    timeline.release()

    let lines = try String(contentsOf: recording, encoding: .utf8)
    XCTAssertTrue(lines.contains(#""by":"answer""#), lines)
    let output = try validate(recording, plan: try emptyPlan())
    XCTAssertTrue(output.contains("delivery: 2 calls · 1 delivered · 1 refused"), output)
    XCTAssertTrue(output.contains("segment Refused refused"), output)
  }

  /// A request the proxy forwarded that no answer came for is lost live when the session ends;
  /// validate over its recording says the same (it said delivered). Without the forward marks (a
  /// recording from before them) every wire record is taken as answered by listen, and it says so.
  func testAForwardedRequestWithoutAnAnswerIsLostOfflineAsLive() throws {
    let (recording, timeline, session) = try liveSession(calling: "Answered", "Unanswered")
    let answered = WireExchange()
    session.deliver([try wire(seq: 2, "Answered")], forwardedIn: answered)
    session.deliver([try wire(seq: 3, "Unanswered")], forwardedIn: WireExchange())
    session.flush()
    answered.answered(status: 200)
    session.flush()
    session.close()
    timeline.release()
    let live = try XCTUnwrap(session.delivery).snapshot()
    XCTAssertEqual(live.entries.map(\.state), [.delivered, .lost])

    let plan = try emptyPlan()
    let output = try validate(recording, plan: plan)
    XCTAssertTrue(output.contains("delivery: 2 calls · 1 delivered · 1 lost"), output)
    XCTAssertTrue(
      output.contains("segment Unanswered lost: the session ended before the vendor answered it"), output)
    XCTAssertTrue(output.contains("answers: as recorded"), output)

    let lines = try String(contentsOf: recording, encoding: .utf8).split(separator: "\n")
    XCTAssertEqual(lines.filter { $0.contains(#""by":"forwarded""#) }.count, 2)
    let unmarked = scratch.appendingPathComponent("before-marks.jsonl")
    try (lines.filter { !$0.contains(#""by":"forwarded""#) }.joined(separator: "\n") + "\n")
      .write(to: unmarked, atomically: true, encoding: .utf8)
    let before = try validate(unmarked, plan: plan)
    XCTAssertTrue(before.contains("delivery: 2 calls · 2 delivered"), before)
    XCTAssertTrue(before.contains("answers: every wire record taken as answered by listen"), before)
  }

  func testAForwardMarkIsReadBackAndOthersAreNot() {
    let mark = DeliveryForwardMarker(records: 3, time: Date())
    XCTAssertEqual(DeliveryForwardMarker(mark.dropMarker), mark)
    var broken = mark.dropMarker
    broken.extra["records"] = .int(0)
    XCTAssertNil(DeliveryForwardMarker(broken))
    XCTAssertNil(
      DeliveryForwardMarker(DeliveryAnswerMarker(status: 200, records: 1, back: 1, time: Date()).dropMarker))
  }

  func testAnAnswerLineIsReadBackAndOthersAreNot() {
    let answer = DeliveryAnswerMarker(status: 503, records: 2, back: 5, time: Date())
    XCTAssertEqual(DeliveryAnswerMarker(answer.dropMarker), answer)
    XCTAssertEqual(answer.wirePositions(before: 10), 5..<7)
    var broken = answer.dropMarker
    broken.extra["back"] = .int(1)
    XCTAssertNil(DeliveryAnswerMarker(broken), "its records cannot be after it")
    XCTAssertNil(DeliveryAnswerMarker(DropMarker(count: 0, time: Date(), origin: "reset")))
  }

  /// A live session recording to `listen.jsonl` in the test's folder, holding one in-app record
  /// of the device `phone` whose Segment output made two `track` calls, `first` and `second`.
  private func liveSession(calling first: String, _ second: String) throws -> (URL, Timeline, LiveSession) {
    let recording = scratch.appendingPathComponent("listen.jsonl")
    let timeline = try Timeline.live(recordingTo: recording, header: RecordingHeader(app: "tagscope listen"))
    let session = LiveSession(store: timeline)
    let calls = [first, second].map {
      "{\"method\":\"track\",\"name\":" + JSONText.quoted($0) + ",\"parameters\":{}}"
    }
    session.receive([
      SinkItem(
        try record(
          #"{"seq":1,"time":"2026-11-21T10:00:01.000Z","kind":"event","name":"tap","#
            + #""source":"phone","run":"r1","outputs":[{"provider":"segment","status":"sent","calls":["#
            + calls.joined(separator: ",") + "]}]}"))
    ])
    return (recording, timeline, session)
  }

  /// A plan with no entries, in the test's folder: validate reports the delivery ledger alone.
  private func emptyPlan() throws -> URL {
    let plan = scratch.appendingPathComponent("plan.yaml")
    try "plan: Shop\nversion: 1\n".write(to: plan, atomically: true, encoding: .utf8)
    return plan
  }

  /// `tagscope validate`'s output over `recording`.
  private func validate(_ recording: URL, plan: URL) throws -> String {
    let process = Process()
    process.executableURL = packageRoot.appendingPathComponent(".build/debug/tagscope")
    process.arguments = ["validate", "--plan", plan.path, recording.path]
    return try runToEnd(process).output
  }

  private func record(_ line: String) throws -> Record { try RecordLineDecoder.decodeRecord(line) }

  /// Segment's `track` of `name` as its SDK sent it through the proxy.
  private func wire(seq: Int, _ name: String) throws -> Record {
    try record(
      #"{"seq":\#(seq),"time":"2026-11-21T10:00:0\#(seq).000Z","kind":"event","name":"\#(name)","#
        + #""source":"segment@127.0.0.1","raw":"","outputs":[{"provider":"segment","status":"sent","#
        + #""calls":[{"method":"track","name":"\#(name)","parameters":{"type":"track","event":"\#(name)","#
        + #""properties":{}}}]}]}"#)
  }
}
