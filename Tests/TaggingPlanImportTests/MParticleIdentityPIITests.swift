import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeRecording
import TagscopeVendors
import XCTest

@testable import TaggingPlanImport

/// An mParticle data plan's `user_identities` declares personal data: each identity type holds a
/// known kind (`ios_idfa` an advertising id, `email` an email address, `mobile_number` a phone
/// number). Import carries it as `pii` on the identities it plans (issue 47, gap 8: an identify
/// carrying the planned `ios_idfa` was a `personal-data` finding).
final class MParticleIdentityPIITests: XCTestCase {
  /// An IDFA as iOS prints it.
  private let idfa = "6D92078A-8246-4BA4-AE5B-76104861E7DC"

  /// An IDSync call as `listen` records it.
  private func idSync(_ seq: UInt64, _ call: String, _ request: Properties) -> Record {
    fromSDK(seq, "mparticle", call, call, request)
  }

  /// The real plan (Beasley's site) plans `ios_idfa` and `email`, not `mobile_number`: the IDFA
  /// an identify carries is intended there, and so is the email; a phone number sent as an
  /// identity the plan does not plan is still personal data, and so is an email sent as the
  /// planned `customerid` (a type no detector kind belongs to, left unmarked).
  func testAPlannedAdvertisingIDIsNotPersonalDataAndAnUnplannedIdentityStillIs() throws {
    let plan = try importFixtures(["mparticle-real/beasley-identities.json"])
    let records = [
      idSync(
        1, "identify",
        ["known_identities": ["ios_idfa": .string(idfa), "email": "jane@example.com", "customerid": "c123"]]),
      idSync(2, "login", ["known_identities": ["customerid": "c123", "mobile_number": "+33 6 12 34 56 78"]]),
      idSync(3, "logout", ["known_identities": ["customerid": "jane@example.com"]]),
    ]
    let found = try judge(records, plan)
    XCTAssertEqual(
      found.filter { $0.contains("personal-data") }.map { String($0.prefix { $0 != ":" }) },
      ["2 personal-data login", "3 personal-data logout"])
    XCTAssertTrue(
      found.contains { $0.hasPrefix("2 personal-data") && $0.contains("known_identities.mobile_number") })
    XCTAssertFalse(found.contains { $0.hasPrefix("1 ") }, "\(found)")
  }

  /// A phone number sent as the planned `mobile_number` or `phone_number_2`, in a call's
  /// identities or in a `modify`'s change, is intended; the same number under a planned
  /// `customerid` is not.
  func testPlannedPhoneIdentitiesAllowAPhoneNumberWhereverTheIdentityIsSent() throws {
    let text = """
      {"data_points": [{"match": {"type": "user_identities", "criteria": {}},
        "validator": {"type": "json_schema", "definition": {"additionalProperties": true,
          "properties": {"customerid": {"type": "string"}, "mobile_number": {"type": "string"},
            "phone_number_2": {}}}}}]}
      """
    let plan = try importText(text, format: .mparticle)
    XCTAssertEqual(relativeWarnings(plan), [])
    let phone: PropertyValue = "+33 6 12 34 56 78"
    let records = [
      idSync(1, "identify", ["known_identities": ["mobile_number": phone, "phone_number_2": phone]]),
      idSync(2, "modify", ["identity_changes": [["identity_type": "mobile_number", "new_value": phone]]]),
      idSync(3, "identify", ["known_identities": ["customerid": phone]]),
    ]
    XCTAssertEqual(
      try judge(records, plan).filter { $0.contains("personal-data") }.map {
        String($0.prefix { $0 != ":" })
      },
      ["3 personal-data identify"])
  }

  /// Import, write and load give the same marks: each identity's `pii` in the imported
  /// catalogue is the loaded plan's, on the calls' identities, in the changes' branches and in
  /// the batch's identities.
  func testTheMarksRoundTripThroughThePlanFile() throws {
    let plan = try importFixtures(["mparticle-real/beasley-identities.json"])
    let loaded = try PlanLoader.load(yaml: plan.yaml, file: "imported.yaml")
    let catalogue = try XCTUnwrap(loaded.catalogues.first)
    var imported: [String] = []
    for entry in plan.catalogue.methods {
      for param in entry.params {
        Self.marks(param.constraints, at: "\(entry.key).\(param.name)", into: &imported)
      }
    }
    var read: [String] = []
    for entry in catalogue.methods {
      for param in entry.params { Self.marks(param, at: "\(entry.method ?? "?").\(param.name)", into: &read) }
    }
    XCTAssertEqual(imported, read)
    XCTAssertEqual(
      imported.filter { $0.hasPrefix("identify.") || $0.hasPrefix("modify.") },
      [
        "identify.email [email]", "identify.ios_idfa [adid]", "identify.android_aaid [adid]",
        "modify.identity_changes.items.allOf[1].then.new_value [email]",
        "modify.identity_changes.items.allOf[3].then.new_value [adid]",
        "modify.identity_changes.items.allOf[4].then.new_value [adid]",
      ])
    XCTAssertTrue(
      plan.yaml.contains("ios_idfa: {type: string, pii: [adid], description: Anonymous identity}"))
    XCTAssertTrue(
      plan.yaml.contains(
        #"email: {type: string, format: email, pii: [email], description: "Known identity "}"#))
  }

  /// An identity of a type mParticle does not know is imported without a mark, and a warning
  /// names its place; a known type with no detector kind (`customerid`) gets no mark and no
  /// warning.
  func testAnIdentityOfNoKnownTypeIsReportedWithItsPlace() throws {
    let text = """
      {"data_points": [{"match": {"type": "user_identities", "criteria": {}},
        "validator": {"type": "json_schema", "definition": {
          "properties": {"customerid": {"type": "string"}, "loyalty_card": {"type": "string"}}}}}]}
      """
    let plan = try importText(text, file: "identities.json", format: .mparticle)
    XCTAssertEqual(
      relativeWarnings(plan),
      [
        "identities.json:3:54: warning: loyalty_card (data_points[0].validator.definition.properties.loyalty_card) "
          + "is not one of mParticle's identity types: it is imported without a pii mark, so personal data found "
          + "in it is reported (add pii to the imported plan where it is intended)"
      ])
    let identify = try XCTUnwrap(plan.catalogue.methods.first { $0.key == "identify" })
    XCTAssertEqual(identify.params.map(\.constraints.allowedPII), [[], []])
  }

  /// Each kind the mParticle descriptor names for an identity type is one the detectors know (a
  /// misspelt word would leave the identity unmarked without a word).
  func testTheDescriptorsPersonalDataWordsAreKindsTheDetectorsKnow() {
    for (name, word) in Vendor.MParticleIdentityType.personalData {
      XCTAssertNotNil(PIIKind(rawValue: word), name)
      XCTAssertEqual(MParticleIdentityPII.kinds(of: name)?.isEmpty, false, name)
    }
    XCTAssertEqual(MParticleIdentityPII.kinds(of: "customerid"), [])
    XCTAssertNil(MParticleIdentityPII.kinds(of: "loyalty_card"))
  }

  /// `pii: allowed` and lists of kinds are the plan's own words.
  func testTheWriterSpellsTheMarksInThePlansWords() throws {
    XCTAssertEqual(CatalogueWriter.piiField([]), nil)
    XCTAssertEqual(CatalogueWriter.piiField(.all), "pii: allowed")
    XCTAssertEqual(
      CatalogueWriter.piiField(PIIKinds(.advertisingID).union(PIIKinds(.email))), "pii: [email, adid]")
  }

  /// `rule`'s mark and those of what it holds, as `path [kinds]` lines, in order.
  private static func marks(_ rule: PropertyRule, at path: String, into lines: inout [String]) {
    if !rule.allowedPII.isEmpty { lines.append("\(path) \(words(rule.allowedPII))") }
    for property in rule.properties ?? [] { marks(property, at: "\(path).\(property.name)", into: &lines) }
    if let items = rule.items { marks(items, at: "\(path).items", into: &lines) }
    for (index, branch) in (rule.keywords?.allOf ?? []).enumerated() {
      marks(branch, at: "\(path).allOf[\(index)]", into: &lines)
    }
    if let then = rule.keywords?.thenSchema { marks(then, at: "\(path).then", into: &lines) }
  }

  /// `constraints`' mark and those of what they hold, as ``marks(_:at:into:)-(PropertyRule,_,_)``.
  private static func marks(_ constraints: PropertyConstraints, at path: String, into lines: inout [String]) {
    if !constraints.allowedPII.isEmpty { lines.append("\(path) \(words(constraints.allowedPII))") }
    for property in constraints.properties ?? [] {
      marks(property.constraints, at: "\(path).\(property.name)", into: &lines)
    }
    if let items = constraints.items { marks(items, at: "\(path).items", into: &lines) }
    for (index, branch) in (constraints.keywords?.allOf ?? []).enumerated() {
      marks(branch, at: "\(path).allOf[\(index)]", into: &lines)
    }
    if let then = constraints.keywords?.thenSchema { marks(then, at: "\(path).then", into: &lines) }
  }

  private static func words(_ kinds: PIIKinds) -> String {
    "[" + PIIKind.allCases.filter { kinds.contains($0) }.map(\.rawValue).joined(separator: ", ") + "]"
  }
}
