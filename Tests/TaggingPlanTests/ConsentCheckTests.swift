import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanReports
import TagscopeRecording
import XCTest

/// Issue 47's consent check on hand-made recordings with known answers: after a category (or a
/// provider) is withdrawn, a call its provider received is `consent-withdrawn`, naming both
/// records; blocked calls, earlier calls and calls after a regrant are fine. Wire records (from an
/// SDK endpoint) are checked against the in-app device they join, or reported once as unchecked.
final class ConsentCheckTests: XCTestCase {
  static let start: Int64 = 1_800_000_000_000

  static let yaml = """
    plan: C
    consent:
      default: granted
      categories:
        analytics: [firebase, amplitude, segment]
        marketing: [braze]
    actions:
      play:
    """

  /// A record of `name` at `millis` after the start, with one output per provider.
  private func record(
    _ seq: UInt64, _ outputs: [(String, OutputStatus)] = [], name: String = "play",
    kind: RecordKind = .userAction, at millis: Int64? = nil, properties: Properties = [:],
    source: String? = nil,
    user: String? = nil, wire: Bool = false
  ) -> Record {
    Record(
      seq: seq, time: Date(timeIntervalSince1970: Double(Self.start + (millis ?? Int64(seq) * 1_000)) / 1000),
      kind: kind, name: name, properties: properties,
      context: RecordContext(
        session: RecordSession(
          id: "s-1", state: user == nil ? "unauthenticated" : "authenticated", user: user, properties: [:])),
      outputs: outputs.map { provider, status in
        ProviderOutput(
          provider: provider, status: status, reason: status == .blocked ? "consent" : nil,
          calls: status == .sent ? [CallDescription(method: "logEvent", name: name)] : [])
      }, source: source, raw: wire ? "" : nil)
  }

  /// A `consent` record deciding `scope` (`category:analytics`, `provider:braze`).
  private func consent(
    _ seq: UInt64, _ scope: String, granted: Bool, source: String? = nil, user: String? = nil
  )
    -> Record
  {
    record(
      seq, [("firebase", .sent)], name: "consent", kind: .consent,
      properties: ["scope": .string(scope), "granted": .bool(granted)], source: source, user: user)
  }

  private func load(_ yaml: String = ConsentCheckTests.yaml) throws -> Plan {
    try PlanLoader.load(yaml: yaml, file: "c.yaml")
  }

  private func consentFindings(_ records: [Record], plan: Plan) -> ([PlanViolation], PlanValidator) {
    let (violations, validator) = validate(records, plan: plan)
    return (violations.filter { $0.rule == .consentWithdrawn || $0.rule == .consentUnchecked }, validator)
  }

  func testAWithdrawnCategoryFlagsLaterCallsButNotBlockedEarlierOrRegrantedOnes() throws {
    let plan = try load()
    let (found, validator) = consentFindings(
      [
        record(1, [("firebase", .sent), ("braze", .sent)]),
        consent(2, "category:analytics", granted: false),
        record(3, [("firebase", .sent), ("amplitude", .blocked), ("braze", .sent)]),
        consent(4, "category:analytics", granted: true),
        record(5, [("firebase", .sent)]),
      ], plan: plan)
    XCTAssertEqual(found.map(\.seq), [3])
    XCTAssertEqual(found.map(\.rule), [.consentWithdrawn])
    XCTAssertEqual(found.map(\.severity), [.error])
    XCTAssertEqual(found.first?.provider, "firebase")
    XCTAssertEqual(
      found.first?.message,
      "play: firebase got logEvent play after consent for analytics was withdrawn by #2 consent at "
        + "08:00:02.000Z (plan line 5)")
    XCTAssertEqual(found.first?.planLine, 5)
    let rows = try XCTUnwrap(found.first).comparison.rows
    XCTAssertEqual(rows.map(\.field), ["consent: analytics", "this record", "withdrawn by"])
    XCTAssertEqual(rows[1].actual, "#3 play at 08:00:03.000Z")
    XCTAssertEqual(rows[2].actual, "#2 consent at 08:00:02.000Z")
    // The tag's coverage item fails with the rule.
    let item = try XCTUnwrap(plan.coverageItems.firstIndex { $0.id == "action play" })
    XCTAssertEqual(
      validator.coverage.state(at: item), .failing(rules: [.consentWithdrawn], broken: 1, records: 3))
  }

  func testAProviderDecisionOverridesItsCategory() throws {
    let (found, _) = consentFindings(
      [
        consent(1, "category:analytics", granted: false),
        consent(2, "provider:amplitude", granted: true),
        consent(3, "provider:braze", granted: false),
        record(4, [("firebase", .sent), ("amplitude", .sent), ("braze", .sent)]),
        consent(5, "provider:firebase", granted: true),
        record(6, [("firebase", .sent), ("amplitude", .sent)]),
      ], plan: try load())
    XCTAssertEqual(found.map(\.seq), [4, 4])
    XCTAssertEqual(found.map(\.provider), ["firebase", "braze"])
    XCTAssertEqual(
      found.last?.message,
      "play: braze got logEvent play after consent for provider braze was withdrawn by #3 consent at "
        + "08:00:03.000Z (plan line 6)")
  }

  func testUnderDefaultDeniedCallsBeforeAnyGrantAreFlagged() throws {
    let plan = try load(Self.yaml.replacingOccurrences(of: "default: granted", with: "default: denied"))
    let (found, _) = consentFindings(
      [
        record(1, [("firebase", .sent), ("braze", .blocked)]),
        consent(2, "category:analytics", granted: true),
        record(3, [("firebase", .sent)]),
      ], plan: plan)
    XCTAssertEqual(found.map(\.seq), [1])
    XCTAssertEqual(
      found.first?.message,
      "play: firebase got logEvent play while analytics has no consent (the plan's default: denied, and "
        + "no grant since) (plan line 5)")
    XCTAssertEqual(found.first?.comparison.rows[2].actual, "none on this device")
  }

  /// The hub's default as it records it at attach (``ConsentDefault``).
  private func hubDefault(_ seq: UInt64, granted: Bool) -> Record {
    record(seq, name: "consent", kind: .consent, properties: ["default": .bool(granted), "atAttach": true])
  }

  func testTheHubsRecordedDefaultIsUsedOverThePlansAndNamed() throws {
    // The plan says granted; the hub recorded denied: its default applies, and the finding says so.
    let (found, _) = consentFindings(
      [
        hubDefault(1, granted: false),
        record(2, [("firebase", .sent)]),
        consent(3, "category:analytics", granted: true),
        record(4, [("firebase", .sent)]),
      ], plan: try load())
    XCTAssertEqual(found.map(\.seq), [2])
    XCTAssertEqual(
      found.first?.message,
      "play: firebase got logEvent play while analytics has no consent (the hub's default: denied, recorded "
        + "by #1 consent at 08:00:01.000Z, and no grant since) (plan line 5)")
    XCTAssertEqual(found.first?.comparison.rows.map(\.field).last, "denied by default")
    XCTAssertEqual(found.first?.comparison.rows.last?.actual, "#1 consent at 08:00:01.000Z")

    // The plan says denied; the hub recorded granted: nothing before a grant is flagged.
    let denied = try load(Self.yaml.replacingOccurrences(of: "default: granted", with: "default: denied"))
    let (none, _) = consentFindings(
      [hubDefault(1, granted: true), record(2, [("firebase", .sent)])], plan: denied)
    XCTAssertEqual(none.map(\.message), [])
  }

  func testWireCallsAreCheckedAgainstTheOnlyInAppDevice() throws {
    let (found, _) = consentFindings(
      [
        record(1, [("firebase", .sent)], source: "app"),
        record(2, [("segment", .sent)], name: "Application Opened", source: "seg-1", wire: true),
        consent(3, "category:analytics", granted: false, source: "app"),
        record(4, [("segment", .sent)], name: "Application Opened", source: "seg-1", wire: true),
        record(5, [("segment", .sent)], name: "Played", source: "seg-2", wire: true),
        consent(6, "category:analytics", granted: true, source: "app"),
        record(7, [("segment", .sent)], name: "Played", source: "seg-2", wire: true),
      ], plan: try load())
    XCTAssertEqual(found.map(\.seq), [4, 5])
    XCTAssertEqual(
      found.first?.message,
      "Application Opened: segment got logEvent Application Opened on the wire after consent for "
        + "analytics was withdrawn on in-app device app by #3 consent at 08:00:03.000Z (plan line 5)")
  }

  func testWithSeveralInAppDevicesWireCallsJoinByUserOrAreReportedOncePerSource() throws {
    let (found, _) = consentFindings(
      [
        record(1, [("firebase", .sent)], source: "app-1", user: "u-1"),
        record(2, [("firebase", .sent)], source: "app-2", user: "u-2"),
        consent(3, "category:analytics", granted: false, source: "app-1", user: "u-1"),
        record(4, [("segment", .sent)], name: "Played", source: "seg-1", user: "u-1", wire: true),
        record(5, [("segment", .sent)], name: "Played", source: "seg-2", user: "u-2", wire: true),
        record(6, [("segment", .sent)], name: "Played", source: "seg-3", wire: true),
        record(7, [("segment", .sent)], name: "Played", source: "seg-3", wire: true),
        record(8, [("segment", .sent)], name: "Played", source: "seg-4", user: "u-9", wire: true),
      ], plan: try load())
    XCTAssertEqual(found.map(\.seq), [4, 6, 8])
    XCTAssertEqual(found.map(\.rule), [.consentWithdrawn, .consentUnchecked, .consentUnchecked])
    XCTAssertEqual(found.map(\.severity), [.error, .warning, .warning])
    XCTAssertEqual(
      found[1].message,
      "Played: consent not checked for seg-3: 2 in-app devices and no identity to join them; its calls to "
        + "providers with a consent category are not checked")
    XCTAssertEqual(
      found[2].message,
      "Played: consent not checked for seg-4: 2 in-app devices and none of them user u-9; its calls to "
        + "providers with a consent category are not checked")
  }

  func testWireCallsBeforeAnyInAppDeviceAndProvidersWithoutCategoryAreReportedOnce() throws {
    let (found, _) = consentFindings(
      [
        record(1, [("segment", .sent)], name: "Played", source: "seg-1", wire: true),
        record(2, [("mixpanel", .sent), ("firebase", .sent)]),
        record(3, [("mixpanel", .sent)]),
        consent(4, "scope-less", granted: false),
      ], plan: try load())
    XCTAssertEqual(found.map(\.seq), [1, 2, 4])
    XCTAssertEqual(found.map(\.rule), [.consentUnchecked, .consentUnchecked, .consentUnchecked])
    XCTAssertEqual(
      found[0].message,
      "Played: consent not checked for seg-1: no in-app device and no identity to join them; its calls to "
        + "providers with a consent category are not checked")
    XCTAssertEqual(
      found[1].message, "play: mixpanel has no consent category in the plan; its calls are not checked")
    XCTAssertEqual(found[1].provider, "mixpanel")
    XCTAssertEqual(
      found[2].message,
      "consent: consent record #4 has no valid scope (category:NAME or provider:ID) and granted (true or "
        + "false): its decision is not known, later calls are checked without it")
  }

  func testAPlanWithoutConsentChecksNothing() throws {
    let plan = try load("plan: C\nactions:\n  play:\n")
    XCTAssertNil(plan.consent)
    let (found, validator) = consentFindings(
      [consent(1, "category:analytics", granted: false), record(2, [("firebase", .sent)])], plan: plan)
    XCTAssertEqual(found, [])
    XCTAssertEqual(validator.consentState.work, 0)
  }

  /// `validate` answers identical lines of a recording from its line cache: the consent check
  /// still runs on each (the fourth and fifth plays are the same line but for seq and time).
  func testValidateChecksConsentOnLinesItAnswersFromItsCache() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "consent-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let records = [
      record(1, [("firebase", .sent)]), record(2, [("firebase", .sent)]),
      consent(3, "category:analytics", granted: false),
      record(4, [("firebase", .sent)]), record(5, [("firebase", .sent)]),
      consent(6, "category:analytics", granted: true),
      record(7, [("firebase", .sent)]),
    ]
    let path = try writeRecording(records, named: "consent.jsonl", in: directory)
    let plan = try load()
    let report = try ValidateRunner.validate(plan: plan, recordings: [path])
    let offline = report.violations.filter { $0.rule == .consentWithdrawn }
    XCTAssertEqual(offline.map(\.seq), [4, 5])
    XCTAssertEqual(offline, consentFindings(records, plan: plan).0)
  }

  /// A repeated record's consent is read as bits of the plan's first 64 providers, else provider
  /// by provider: with 70 providers, calls of the 6th (bits) and of the 67th (one by one) are
  /// flagged from the cache as they are record by record, before and after each decision.
  func testValidateChecksTheCallsOfProvidersPastTheFirst64FromItsCache() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "consent-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let names = (0..<70).map { "p\($0)" }
    let plan = try load(
      """
      plan: C
      customProviders: [\(names.joined(separator: ", "))]
      consent:
        categories:
          analytics: [\(names[..<64].joined(separator: ", "))]
          marketing: [\(names[64...].joined(separator: ", "))]
      actions:
        play:
      """)
    let both = [("p5", OutputStatus.sent), ("p66", .sent)]
    let records = [
      record(1, both), record(2, both), record(3, [("p5", .sent)]),
      consent(4, "category:marketing", granted: false),
      record(5, both), record(6, [("p5", .sent)]), record(7, [("p66", .sent)]),
      consent(8, "category:analytics", granted: false),
      record(9, [("p5", .sent)]), record(10, both),
      consent(11, "category:marketing", granted: true),
      record(12, [("p66", .sent)]), record(13, both),
    ]
    let path = try writeRecording(records, named: "consent.jsonl", in: directory)
    let report = try ValidateRunner.validate(plan: plan, recordings: [path])
    let offline = report.violations.filter { $0.rule == .consentWithdrawn }
    XCTAssertEqual(Set(offline.map(\.seq)), [5, 7, 9, 10, 13])
    XCTAssertEqual(offline, consentFindings(records, plan: plan).0.filter { $0.rule == .consentWithdrawn })
  }

  /// 1,000,000 records after a withdrawal (the hub blocking its providers, and one in ten calls
  /// still sent): each sent call flagged, a constant number of steps per record, one decision
  /// remembered.
  func testAMillionRecordsAfterAWithdrawalAreCheckedInLinearWorkAndBoundedMemory() throws {
    var validator = PlanValidator(plan: try load())
    XCTAssertEqual(validator.validate(consent(0, "category:analytics", granted: false)).count, 0)
    var blocked = record(1, [("firebase", .blocked), ("braze", .sent)])
    var sent = record(1, [("firebase", .sent), ("braze", .sent)])
    var flagged = 0
    var maxRemembered = 0
    for seq in 1...1_000_000 {
      let found: [PlanViolation]
      if seq % 10 == 0 {
        sent.seq = UInt64(seq)
        found = validator.validate(sent)
      } else {
        blocked.seq = UInt64(seq)
        found = validator.validate(blocked)
      }
      flagged += found.count { $0.rule == .consentWithdrawn }
      if seq % 100_000 == 0 { maxRemembered = max(maxRemembered, validator.consentState.remembered) }
    }
    XCTAssertEqual(flagged, 100_000)
    XCTAssertEqual(validator.consentState.work, 1 + 1_000_000 * 3)
    XCTAssertEqual(maxRemembered, 1)
  }

  /// Many devices each withdrawing: past the limit the least recently seen half is forgotten.
  func testOldDevicesAreForgotten() throws {
    var validator = PlanValidator(plan: try load())
    for number in 0..<20_000 {
      _ = validator.validate(
        consent(
          UInt64(number), "category:analytics", granted: false, source: "d\(number)", user: "u\(number)"))
    }
    XCTAssertLessThanOrEqual(validator.consentState.deviceCount, 4_096)
    XCTAssertGreaterThanOrEqual(validator.consentState.deviceCount, 2_048, "the recent half is kept")
    XCTAssertLessThanOrEqual(validator.consentState.remembered, 4_096)
  }
}
