import AnalyticsHub
import AnalyticsProviders
import Foundation
import PodcastDemo
import TagscopeDiff
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// The podcast demo's hub recording, and the same Braze and Piano calls sent as their SDKs send
/// them (``BrazePianoWireSDK``) through a real `listen`, agree: every call with a message of its
/// own on the wire is recorded with the same method, name, parameters and rule violations, and
/// `tagscope diff` (TagscopeDiff) of the two, call by call, finds no change.
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
    var base = RecordingProfile()
    var new = RecordingProfile()
    for (index, call) in inApp.enumerated() { base.add(call.record(index + 1)) }
    for (index, call) in wire.enumerated() { new.add(call.record(index + 1)) }
    let diff = RecordingDiff(base: base, new: new)
    XCTAssertEqual(diff.findings.map(\.message), [])
    XCTAssertGreaterThan(diff.allTags.count, 5)
  }
}

/// Records a hub's observer collects, thread-safely.
private final class RecordBox: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [Record] = []

  func append(_ record: Record) { lock.withLock { stored.append(record) } }

  var records: [Record] { lock.withLock { stored } }
}
