import AmplitudeProvider
import AnalyticsHub
import FirebaseProvider
import Foundation
import PodcastDemo
import TaggingPlan
import TagscopeRecording
import XCTest

/// The plan core checks recorded calls with the providers' rules it is given (an app's test
/// target names those of the providers it links), and every check made later — a reloaded
/// monitor, a cleared run, a new recording — keeps them.
final class ProviderRuleChecksTests: XCTestCase {
  private func demoPlan() throws -> Plan { try PlanLoader.load(yaml: DemoPlan.yaml, file: "demo-plan.yaml") }

  /// An event whose Firebase call breaks Firebase's event-name rule, with no violation recorded
  /// by a hub (a recording from an app built without rule checks, or from another tool).
  private func badFirebaseEvent(_ seq: UInt64) -> Record {
    Record(
      seq: seq, time: Date(timeIntervalSince1970: 1_800_000_000), kind: .event, name: "downloadPodcast",
      outputs: [
        ProviderOutput(
          provider: "firebase", status: .sent,
          calls: [CallDescription(method: "logEvent", name: "1_download")])
      ], raw: "{}")
  }

  private func providerRules(_ violations: [PlanViolation]) -> [String] {
    violations.filter { $0.rule == .providerRule }.map { $0.message }
  }

  func testTheRuleSetsOfTheLinkedProvidersAreChecked() throws {
    let plan = try demoPlan()
    var validator = PlanValidator(plan: plan, rules: [FirebaseRules.self])
    let found = providerRules(validator.validate(badFirebaseEvent(1)))
    XCTAssertEqual(found.count, 1, "\(found)")
    XCTAssertTrue(found.first?.contains("firebase.event-name-characters") ?? false, "\(found)")
  }

  func testARuleSetIsFoundByAnAliasOfItsProvider() throws {
    var record = badFirebaseEvent(1)
    record.outputs[0].provider = "FIREBASE"
    var validator = PlanValidator(plan: try demoPlan(), rules: [FirebaseRules.self])
    XCTAssertEqual(providerRules(validator.validate(record)).count, 1)
  }

  func testProvidersWithoutGivenRulesAreNotChecked() throws {
    let plan = try demoPlan()
    var amplitudeOnly = PlanValidator(plan: plan, rules: [AmplitudeRules.self])
    XCTAssertEqual(providerRules(amplitudeOnly.validate(badFirebaseEvent(1))), [])
    var none = PlanValidator(plan: plan, rules: .recordedOnly)
    XCTAssertEqual(providerRules(none.validate(badFirebaseEvent(1))), [])
  }

  func testTheViolationsARecordCarriesAreReportedWhateverTheRules() throws {
    var record = badFirebaseEvent(1)
    record.outputs[0].violations = [
      RecordViolation(
        rule: "firebase.event-name-characters", message: "recorded by the hub", consequence: "replaced")
    ]
    var validator = PlanValidator(plan: try demoPlan(), rules: .recordedOnly)
    XCTAssertEqual(providerRules(validator.validate(record)).count, 1)
  }

  func testARunAndAOneOffCheckUseTheirRules() throws {
    let plan = try demoPlan()
    let run = PlanTestRun(plan: plan, rules: [FirebaseRules.self])
    XCTAssertEqual(providerRules(run.check(badFirebaseEvent(1))).count, 1)
    run.removeAll()
    XCTAssertEqual(providerRules(run.check(badFirebaseEvent(2))).count, 1, "a cleared run keeps its rules")
    let quiet = PlanTestRun(plan: plan, rules: .recordedOnly)
    XCTAssertEqual(providerRules(quiet.check(badFirebaseEvent(1))), [])
    quiet.removeAll()
    XCTAssertEqual(providerRules(quiet.check(badFirebaseEvent(2))), [], "a cleared run keeps its rules")
    var coverage = Coverage(items: plan.coverageItems)
    XCTAssertEqual(
      providerRules(
        PlanValidator.check(badFirebaseEvent(1), plan: plan, coverage: &coverage, rules: .recordedOnly)),
      [])
  }

  func testAReloadedMonitorKeepsItsRules() throws {
    let plan = try demoPlan()
    let records = [badFirebaseEvent(1)]
    let quiet = PlanMonitor(plan: plan, rules: .recordedOnly)
    XCTAssertEqual(providerRules(quiet.check(records[0], at: 0)), [])
    XCTAssertNotNil(quiet.reload(plan, record: { records.indices.contains($0) ? records[$0] : nil }))
    XCTAssertEqual(providerRules(quiet.violations(at: 0)), [], "the reload checks with the same rules")
    let firebase = PlanMonitor(plan: plan, rules: [FirebaseRules.self])
    XCTAssertEqual(providerRules(firebase.check(records[0], at: 0)).count, 1)
    XCTAssertNotNil(firebase.reload(plan, record: { records.indices.contains($0) ? records[$0] : nil }))
    XCTAssertEqual(providerRules(firebase.violations(at: 0)).count, 1)
  }

  /// A stream of the caller's own (a provider the package does not have, say), counting across
  /// records, one per app instance.
  func testACustomStreamCountsAcrossRecords() throws {
    struct SecondCallOnward: RecordedRuleStream {
      var seen = 0
      mutating func check(provider: String, calls: [CallDescription]) -> [RuleViolation] {
        seen += calls.count
        guard seen > 1 else { return [] }
        return [
          RuleViolation(rule: "custom.once", message: "\(provider) called again", consequence: .degraded)
        ]
      }
    }
    let run = PlanTestRun(plan: try demoPlan(), rules: ProviderRuleChecks { SecondCallOnward() })
    XCTAssertEqual(providerRules(run.check(badFirebaseEvent(1))), [])
    XCTAssertEqual(providerRules(run.check(badFirebaseEvent(2))).count, 1)
  }
}
