import AnalyticsHub
import AnalyticsProviders
import Foundation
import PodcastDemo
import TaggingPlan
import TaggingPlanReports
import TagscopeDiff
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// The podcast demo's hub recording, and the same Braze and Piano calls sent as their SDKs send
/// them (``BrazePianoWireSDK``) through a real `listen`, agree: every call with a message of its
/// own on the wire is recorded with the same method, name, parameters and rule violations, and
/// `tagscope diff` (TagscopeDiff) of the two, call by call, finds no change; one plan's call
/// catalogues find the same violations in both.
final class BrazePianoAgreementTests: XCTestCase {
  /// One call of a recording, as the two recordings are compared.
  private struct Call: Hashable, Comparable {
    let provider: String
    let call: CallDescription
    let rules: [String]

    var text: String {
      let parameters = JSONText.value(
        (try? JSONParser.parse(JSONText.string(call.parameters))) ?? .object(call.parameters))
      return "\(provider) \(call.method) \(call.name ?? "-") \(parameters) \(rules)"
    }

    static func < (lhs: Call, rhs: Call) -> Bool { lhs.text < rhs.text }

    /// A record of this call alone, for the diff: tagged by provider, method and name.
    func record(_ seq: Int) -> Record {
      Record(
        seq: UInt64(seq), time: DemoHub.seededEpoch, kind: .event,
        name: "\(provider) \(call.method) \(call.name ?? "")",
        outputs: [ProviderOutput(provider: provider, status: .sent, calls: [call])])
    }
  }

  private func demoRecords(count: Int) -> [Record] {
    let collected = RecordBox()
    let observer = ClosureObserver { collected.append(Record(dispatch: $0)) }
    let clock = ManualClock(start: DemoHub.seededEpoch)
    guard let hub = try? DemoHub.make(providers: PodcastMappings.providers(), clock: clock, seed: 11) else {
      XCTFail("the demo hub")
      return []
    }
    HeadlessRun.run(hub: hub, clock: clock, seed: 11, count: count, rate: nil, observers: [observer])
    return collected.records
  }

  /// The in-app calls to Braze and Piano that have a message of their own on the wire, each with
  /// the rules it breaks.
  private func inAppCalls(_ records: [Record]) -> [Call] {
    records.flatMap { record in
      record.outputs.filter { $0.status == .sent }.flatMap { output in
        output.calls.enumerated().compactMap { index, call -> Call? in
          guard BrazePianoWireSDK.wireMethods[output.provider]?.contains(call.method) ?? false else {
            return nil
          }
          let rules = output.violations.filter { ($0.callIndex ?? 0) == index }.map(\.rule).sorted()
          return Call(provider: output.provider, call: call, rules: rules)
        }
      }
    }
  }

  func testTheDemosBrazeAndPianoCallsOnTheWireAgreeWithTheHubs() async throws {
    let records = demoRecords(count: 800)
    var sdk = BrazePianoWireSDK()
    for record in records {
      for output in record.outputs where output.status == .sent {
        for call in output.calls {
          sdk.add(
            call, provider: output.provider, time: record.time,
            session: record.context.session?.id ?? "no-session")
        }
      }
    }
    let inApp = inAppCalls(records).sorted()
    let methods = Set(inApp.map { "\($0.provider) \($0.call.method)" })
    for expected in ["braze logCustomEvent", "braze setCustomAttribute", "piano sendEvent"] {
      XCTAssertTrue(methods.contains(expected), "the demo makes \(expected) calls: \(methods)")
    }
    XCTAssertTrue(inApp.contains { !$0.rules.isEmpty }, "the demo's deliberate Braze bug is among them")

    let (server, collector) = try await startServer()
    for body in sdk.brazeBodies {
      let reply = try httpRequest(port: server.port, path: "/api/v3/data", body: body)
      XCTAssertEqual(reply?.status, 200, reply?.body ?? "")
    }
    for body in sdk.pianoBodies {
      let reply = try httpRequest(
        port: server.port, path: "/event?s=447850&idclient=\(sdk.deviceID)", body: body)
      XCTAssertEqual(reply?.status, 200, reply?.body ?? "")
    }
    let wireRecords = collector.waitForRecords(inApp.count)
    try await server.shutdown()
    let wire = wireRecords.compactMap { record -> Call? in
      guard let output = record.outputs.first, let call = output.calls.first else { return nil }
      return Call(provider: output.provider, call: call, rules: output.violations.map(\.rule).sorted())
    }.sorted()

    XCTAssertEqual(wire.count, inApp.count)
    for (hub, sent) in zip(inApp, wire) where hub != sent {
      XCTFail("in-app \(hub.text)\non the wire \(sent.text)")
      break
    }
    // `tagscope diff BASE NEW` of the two recordings, call by call.
    let directory = try TemporaryDirectory()
    let header = RecordingHeader(app: "Podcasts", device: "agreement", started: DemoHub.seededEpoch)
    for (name, calls) in [("hub.jsonl", inApp), ("wire.jsonl", wire)] {
      let lines =
        [RecordLineEncoder.line(header)]
        + calls.enumerated().map { RecordLineEncoder.line($1.record($0 + 1)) }
      try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: directory.file(name))
    }
    let diffed = DiffRunner.run(
      base: directory.file("hub.jsonl").path, new: directory.file("wire.jsonl").path, format: .text,
      failOn: Set(DiffChange.allCases))
    XCTAssertEqual(diffed.exitCode, 0, diffed.output + diffed.diagnostics)
    XCTAssertEqual(diffed.report?.diff.findings.map(\.message), [])
    XCTAssertGreaterThan(diffed.report?.diff.allTags.count ?? 0, 5)
    XCTAssertGreaterThan(inApp.count, 100)

    // One plan's call catalogues judge both alike: the same violations, call by call.
    let judged = (try judgements(records), try judgements(wireRecords))
    XCTAssertFalse(judged.0.isEmpty, "the plan flags some of the demo's calls")
    XCTAssertEqual(judged.0, judged.1)
  }

  /// A plan of Braze's and Piano's calls, strict enough to flag some of the demo's.
  private static let plan = """
    plan: Wire agreement
    catalogues:
      braze:
        unplanned: allowed
        calls:
          podcast_downloaded:
            method: logCustomEvent
            params:
              podcast_title: {type: string, required: true, maxLength: 12}
              podcast_duration: {type: integer, maximum: 1800}
          favorites_count: {method: setCustomAttribute, params: {value: {type: integer, maximum: 2}}}
      piano:
        unplanned: allowed
        calls:
          page.display:
            params:
              page: {type: string, required: true, enum: [podcasts, favorites]}
              page_chapter1: {type: string, required: true}
          click.action: {params: {click: {type: string, required: true}, podcast_title: {type: string, maxLength: 12}}}
    """

  /// The Braze and Piano violations the plan finds in `records`, each without the record's place
  /// (a tag on one side, an SDK message on the other), sorted.
  private func judgements(_ records: [Record]) throws -> [String] {
    var validator = PlanValidator(plan: try PlanLoader.load(yaml: Self.plan, file: "agreement.yaml"))
    return records.flatMap { validator.validate($0) }.filter {
      ["braze", "piano"].contains($0.provider ?? "")
    }
    .map { violation in
      let message = violation.message
      let said = message.range(of: ": ").map { String(message[$0.upperBound...]) } ?? message
      return "\(violation.provider ?? "-") \(violation.rule.rawValue) \(said)"
    }.sorted()
  }
}

/// Records a hub's observer collects, thread-safely.
private final class RecordBox: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [Record] = []

  func append(_ record: Record) { lock.withLock { stored.append(record) } }

  var records: [Record] { lock.withLock { stored } }
}
