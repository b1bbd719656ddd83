import Foundation
import TaggingPlan
import TaggingPlanReports
import TagscopeDiff
import TagscopeLive
import TagscopeRecording
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

@testable import TagscopeServer

/// What `listen` accepts can be read back: records at each of its limits — a native line of
/// exactly ``ListenConfiguration/maximumLineBytes`` (its name or one value filling it), names past
/// YAML's 1,024-character simple-key limit, names with the scalars YAML does not allow unescaped
/// (U+FFFE, U+FFFF), control and line-separator characters, an empty name, 1,000 properties, a
/// Segment message at Segment's 32 KB limit — go through the real server into a real recording,
/// which `validate`, `diff` and `plan infer` read whole, and `plan infer`'s draft loads as a plan
/// that plans every one of them.
final class IngestLimitsReadBackTests: XCTestCase {
  func testRecordsAtEveryIngestLimitReadBackWithValidateDiffAndInfer() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("limits-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("listen.jsonl").path
    let timeline = try Timeline.live(
      recordingTo: URL(fileURLWithPath: path), header: RecordingHeader(app: "tagscope listen"))
    let session = LiveSession(store: timeline, checker: nil)
    let configuration = ListenConfiguration(port: 0)
    let server = try await ListenServer.start(configuration: configuration, ingest: session)

    let limit = configuration.maximumLineBytes
    let long = String(repeating: "n", count: 1_100)
    var lines: [String] = []
    var names: [String] = []
    func add(_ name: String, _ properties: String = "{}") {
      let seq = lines.count + 1
      names.append(name)
      lines.append(
        #"{"seq":\#(seq),"time":"2026-11-21T10:00:00.000Z","kind":"event","name":\#(JSONText.quoted(name)),"properties":\#(properties)}"#
      )
    }
    add(long, #"{\#(JSONText.quoted(long)):1}"#)
    add(
      "odd\u{FFFE}\u{FFFF}\u{85}\u{2028}\u{1}\u{1B}[2J",
      "{\(JSONText.quoted("k\u{FFFE}")):\(JSONText.quoted("v\u{FFFF}"))}")
    add("")
    add("wide", "{" + (0..<1_000).map { #""p\#($0)":\#($0)"# }.joined(separator: ",") + "}")
    // One line exactly at the limit, filled by a value; one filled by the name.
    add("fullValue", #"{"v":""}"#)
    lines[lines.count - 1] = lines[lines.count - 1].replacingOccurrences(
      of: #""v":"""#,
      with: #""v":""# + String(repeating: "v", count: limit - lines[lines.count - 1].utf8.count) + "\"")
    let skeleton = #"{"seq":6,"time":"2026-11-21T10:00:00.000Z","kind":"event","name":"","properties":{}}"#
    add(String(repeating: "N", count: limit - skeleton.utf8.count))
    XCTAssertEqual(lines.suffix(2).map(\.utf8.count), [limit, limit], "both lines exactly at the limit")

    let socket = try FuzzSocket(port: server.port, hangGuard: 120)
    let header = #"{"format":"tagscope-recording","version":1,"app":"Limits","device":"d","ack":true}"#
    socket.send(Array(([header] + lines).joined(separator: "\n").utf8) + [10])
    var received: [UInt8] = []
    let acknowledged = Array(#"{"ack":\#(lines.count)}"#.utf8)
    XCTAssertNil(socket.read(into: &received) { NativeFuzzState.lines($0).contains(acknowledged) })
    socket.end(.halfClose)

    // Segment's message limit, its event name filling the body.
    let segment = #"{"type":"track","userId":"u","event":""}"#
    let segmentName = String(repeating: "S", count: SegmentEndpoint.messageLimit - segment.utf8.count)
    let body = #"{"type":"track","userId":"u","event":"\#(segmentName)"}"#
    XCTAssertEqual(body.utf8.count, SegmentEndpoint.messageLimit)
    XCTAssertEqual(try httpRequest(port: server.port, path: "/v1/track", body: body)?.status, 200)
    names.append(segmentName)

    try await server.shutdown()
    session.close()
    timeline.release()

    // validate reads every record, no line skipped.
    let minimal = try PlanLoader.load(yaml: "plan: Limits\nevents: {}\n", file: "limits.yaml")
    let validated = ValidateRunner.run(plan: minimal, recordings: [path], format: .text, failOn: .error)
    let report = try XCTUnwrap(validated.report, validated.diagnostics)
    XCTAssertEqual(report.records, names.count, validated.diagnostics)
    XCTAssertEqual(report.problems.map(\.description), [])

    // diff reads every record of both sides.
    let diffed = DiffRunner.run(base: path, new: path, format: .text, failOn: [])
    XCTAssertEqual(diffed.exitCode, 0, diffed.diagnostics)
    XCTAssertTrue(diffed.diagnostics.isEmpty, diffed.diagnostics)
    XCTAssertTrue(diffed.output.contains("\(names.count) records"), diffed.output)

    // plan infer reads every record, and its draft loads and plans every name.
    var inference = PlanInference()
    try inference.read(path: path)
    XCTAssertEqual(inference.records, names.count)
    XCTAssertEqual(inference.problems, [])
    let draft = inference.yaml(name: "Limits")
    let plan = try PlanLoader.load(yaml: draft, file: "inferred.yaml")
    // Every name but the empty one, which a plan cannot name (counted apart by the draft).
    XCTAssertEqual(Set(plan.entries.map(\.name)), Set(names).subtracting([""]))
    XCTAssertEqual(inference.otherKinds, 1)
    let checked = ValidateRunner.run(plan: plan, recordings: [path], format: .text, failOn: .error)
    XCTAssertEqual(checked.report?.records, names.count, checked.diagnostics)
    XCTAssertEqual(
      checked.report?.violations.filter { $0.rule == .unplannedTag }.map(\.seq), [3],
      "only the unnamed record")
  }
}
