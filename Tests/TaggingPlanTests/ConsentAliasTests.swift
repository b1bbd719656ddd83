import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanReports
import TagscopeRecording
import XCTest

/// Issue 47's consent check when a decision and a call name one provider differently: by its
/// vendor's id (`braze`) or by an alias the vendor registry declares (Braze's old name `appboy`,
/// `google-analytics` for Firebase…), on the device, on the wire and on lines validate answers
/// from its cache. A decision applies to the provider whichever name each side uses.
final class ConsentAliasTests: XCTestCase {
  static let start: Int64 = 1_800_000_000_000

  /// Each registry vendor with an alias: its id and one alias (TagscopeVendors' descriptors).
  static let aliases = [
    ("braze", "appboy"), ("firebase", "google-analytics"), ("piano", "at-internet"), ("fpti", "paypal"),
    ("adobe", "adobe-analytics"),
  ]

  /// A plan listing `providers` under `analytics` (granted by default).
  private func plan(_ providers: [String]) throws -> Plan {
    let yaml = """
      plan: A
      consent:
        default: granted
        categories:
          analytics: [\(providers.joined(separator: ", "))]
      actions:
        play:
      """
    return try PlanLoader.load(yaml: yaml, file: "a.yaml")
  }

  /// A `play` call sent to `provider`.
  private func call(_ seq: UInt64, _ provider: String, source: String? = nil, wire: Bool = false) -> Record {
    record(
      seq, name: "play", kind: .userAction, properties: [:],
      outputs: [
        ProviderOutput(
          provider: provider, status: .sent, calls: [CallDescription(method: "logEvent", name: "play")])
      ], source: source, wire: wire)
  }

  /// A `consent` record deciding `provider:ID`.
  private func consent(
    _ seq: UInt64, provider: String, granted: Bool, source: String? = nil, wire: Bool = false
  )
    -> Record
  {
    record(
      seq, name: "consent", kind: .consent,
      properties: ["scope": .string("provider:\(provider)"), "granted": .bool(granted)], outputs: [],
      source: source, wire: wire)
  }

  private func record(
    _ seq: UInt64, name: String, kind: RecordKind, properties: Properties, outputs: [ProviderOutput],
    source: String?, wire: Bool
  ) -> Record {
    Record(
      seq: seq, time: Date(timeIntervalSince1970: Double(Self.start + Int64(seq) * 1_000) / 1000), kind: kind,
      name: name, properties: properties,
      context: RecordContext(session: RecordSession(id: "s-1", state: "unauthenticated", properties: [:])),
      outputs: outputs, source: source, raw: wire ? "" : nil)
  }

  private func withdrawn(_ records: [Record], plan: Plan) -> [PlanViolation] {
    validate(records, plan: plan).0.filter { $0.rule == .consentWithdrawn }
  }

  func testADecisionByAnAliasAppliesToCallsByTheVendorsIdAndTheOtherWayRound() throws {
    for (id, alias) in Self.aliases {
      let byID = try plan([id])
      let found = withdrawn(
        [
          call(1, id), consent(2, provider: alias, granted: false), call(3, id), call(4, alias),
          consent(5, provider: alias, granted: true), call(6, id),
        ], plan: byID)
      XCTAssertEqual(found.map(\.seq), [3, 4], "\(alias) withdrawn, \(id) listed")
      XCTAssertEqual(
        found.first?.message,
        "play: \(id) got logEvent play after consent for provider \(id) was withdrawn by #2 consent at "
          + "08:00:02.000Z (plan line 5)")
      // The plan lists the alias; the decision and the call use the id, then the alias.
      let byAlias = try plan([alias])
      XCTAssertEqual(
        withdrawn(
          [consent(1, provider: id, granted: false), call(2, alias), call(3, id)], plan: byAlias
        ).map(\.seq), [2, 3], "\(id) withdrawn, \(alias) listed")
      // A grant by one name ends a withdrawal by the other.
      XCTAssertEqual(
        withdrawn(
          [
            consent(1, provider: id, granted: false), consent(2, provider: alias, granted: true), call(3, id),
          ],
          plan: byID), [])
    }
  }

  func testAWireDecisionByAnAliasAppliesToThatSourcesCallsByTheVendorsId() throws {
    let found = withdrawn(
      [
        call(1, "firebase", source: "app"),
        consent(2, provider: "appboy", granted: false, source: "braze-1", wire: true),
        call(3, "braze", source: "braze-1", wire: true),
        call(4, "braze", source: "app"),
      ], plan: try plan(["firebase", "braze"]))
    XCTAssertEqual(found.map(\.seq), [3])
  }

  func testValidateAppliesAnAliasDecisionOnLinesItAnswersFromItsCache() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "consent-alias-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let records = [
      call(1, "braze"), call(2, "braze"), consent(3, provider: "appboy", granted: false), call(4, "braze"),
      call(5, "appboy"), call(6, "braze"),
    ]
    let path = try writeRecording(records, named: "alias.jsonl", in: directory)
    let plan = try plan(["braze"])
    let report = try ValidateRunner.validate(plan: plan, recordings: [path])
    let offline = report.violations.filter { $0.rule == .consentWithdrawn }
    XCTAssertEqual(offline.map(\.seq), [4, 5, 6])
    XCTAssertEqual(offline, withdrawn(records, plan: plan))
  }
}
