import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanImport
import TagscopeRecording
import XCTest

/// A batch's own user attributes and identities (issue 44: an imported mParticle data plan checked
/// each `user_attribute_change` message and each IDSync call, never the `user_attributes` and
/// `user_identities` a batch carries, so a batch setting an attribute the plan forbids passed).
/// The first record of a batch keeps the batch's own fields (its output's `batch`: the Events
/// API's names, or a mobile SDK's `ua`, `ui`), where the plan's `batch` entry judges them once.
final class MParticleBatchUserDataTests: XCTestCase {
  /// A record of one message of an mParticle batch (a session start, which the import plans as
  /// a built-in method); the batch's first keeps `batch`.
  private func event(_ seq: UInt64, batch: Properties?) -> Record {
    var record = fromSDK(
      seq, "mparticle", "session_start", "session_start", ["event_type": "session_start", "data": [:]])
    if let batch { record.outputs[0].extra = ["api_key": "k", "batch": .object(batch)] }
    return record
  }

  /// A closed attributes schema and a closed identities schema, as mParticle's UI writes them.
  private static let closedPlan = """
    {"data_points": [
      {"match": {"type": "user_attributes", "criteria": {}},
       "validator": {"type": "json_schema", "definition": {"additionalProperties": false,
         "properties": {"tier": {"type": "string", "enum": ["gold", "silver"]}, "age": {"type": "number"}}}}},
      {"match": {"type": "user_identities", "criteria": {}},
       "validator": {"type": "json_schema", "definition": {"additionalProperties": false,
         "properties": {"customerid": {"type": "string", "pattern": "^c[0-9]+$"}, "email": {"type": "string"}}}}}]}
    """

  /// The Events API's batch: an attribute not planned, one outside its enum, one of the wrong
  /// type, an identity not planned and one outside its pattern are flagged at the batch's own
  /// keys, once per batch (its other events carry no `batch`); a conforming batch passes.
  func testAnEventsAPIBatchsAttributesAndIdentitiesAreJudgedOncePerBatch() throws {
    let plan = try importText(Self.closedPlan, format: .mparticle)
    XCTAssertEqual(relativeWarnings(plan), [])
    XCTAssertEqual(plan.catalogue.methods.filter { $0.key == CallCatalogue.batchMethod }.count, 1)
    let good: Properties = [
      "user_attributes": ["tier": "gold", "age": 41],
      "user_identities": ["customerid": "c1", "email": "a@b.c"],
    ]
    let bad: Properties = [
      "user_attributes": ["tier": "bronze", "age": "old", "nickname": "Al"],
      "user_identities": ["customerid": "x1", "facebook": "f"], "mpid": 1,
    ]
    let records = [
      event(1, batch: good), event(2, batch: nil), event(3, batch: bad),
      event(4, batch: nil), event(5, batch: nil),
    ]
    XCTAssertEqual(
      try judge(records, plan),
      [
        #"3 invalid-value session_start: mparticle batch (its own fields, kept on this record) parameter user_attributes.tier is "bronze""#,
        #"3 invalid-value session_start: mparticle batch (its own fields, kept on this record) parameter user_attributes.age is a string ("old")"#,
        "3 unexpected-property session_start: mparticle batch (its own fields, kept on this record) parameter user_attributes.nickname is not planned",
        #"3 invalid-value session_start: mparticle batch (its own fields, kept on this record) parameter user_identities.customerid is "x1""#,
        "3 unexpected-property session_start: mparticle batch (its own fields, kept on this record) parameter user_identities.facebook is not planned",
      ])
  }

  /// A mobile SDK's batch (`ua` of text values, `ui` of `{n, i}` by type number): a number's text
  /// passes, a text that is none is flagged, as are an attribute not planned, an identity whose
  /// value breaks its type's schema and a type not planned (`2`, facebook), each by its place.
  func testAMobileBatchsUaAndUiAreJudgedByTheirPlaces() throws {
    let plan = try importText(Self.closedPlan, format: .mparticle)
    let good: Properties = [
      "ua": ["tier": "silver", "age": "41.5"], "ui": [["n": 1, "i": "c7"], ["n": 7, "i": "a@b.c"]],
    ]
    let bad: Properties = [
      "ua": ["tier": "gold", "age": "forty", "nickname": "Al"],
      "ui": [["n": 7, "i": "a@b.c"], ["n": 1, "i": "c-7"], ["n": 2, "i": "f"]],
    ]
    XCTAssertEqual(
      try judge([event(1, batch: good), event(2, batch: bad)], plan),
      [
        #"2 invalid-value session_start: mparticle batch (its own fields, kept on this record) parameter ua.age is a string ("forty")"#,
        "2 unexpected-property session_start: mparticle batch (its own fields, kept on this record) parameter ua.nickname is not planned",
        #"2 invalid-value session_start: mparticle batch (its own fields, kept on this record) parameter ui[1] has i, which is "c-7""#,
        "2 invalid-value session_start: mparticle batch (its own fields, kept on this record) parameter ui[2].n is 2",
      ])
  }

  /// An open schema (the real Beasley plan's identities and attributes) flags only values that
  /// break a planned one's rule; names not planned pass.
  func testARealPlansOpenSchemasFlagOnlyBrokenValues() throws {
    let plan = try importFixtures(["mparticle-real/beasley-identities.json"])
    let batch: Properties = [
      "user_attributes": [
        "my numeric attribute": 5, "my string attribute (enum validation)": "loveseat", "anything": "else",
      ],
      "user_identities": ["customerid": "cust_1", "email": "not an email", "other": "o"],
    ]
    XCTAssertEqual(
      try judge([event(1, batch: batch)], plan),
      [
        #"1 invalid-value session_start: mparticle batch (its own fields, kept on this record) parameter user_attributes["my string attribute (enum validation)"] is "loveseat""#,
        #"1 invalid-value session_start: mparticle batch (its own fields, kept on this record) parameter user_identities.email is "not an email""#,
      ])
  }

  /// The personal data a batch's own fields carry reached mParticle too: it is scanned, and the
  /// identities the plan marks `pii` (the real Beasley plan's `email` and `ios_idfa`, and a mobile
  /// SDK's `ui` entry of type 7, an email) are
  /// intended there, while an unplanned phone number is a finding at the batch's place. A plan
  /// with no call catalogue flags every identity found (issue 47: the batch was never scanned).
  func testTheBatchsPersonalDataIsScannedAndItsPlannedIdentitiesAllowed() throws {
    let batch: Properties = [
      "user_identities": [
        "email": "jane.doe@example.com", "ios_idfa": "6D92078A-8246-4BA4-AE5B-76104861E7DC",
        "mobile_number": "+33 6 12 34 56 78",
      ],
      // A mobile SDK's identities by type number: 7 is an email.
      "ui": [["n": 7, "i": "jane.doe@example.com"]],
    ]
    let imported = try importFixtures(["mparticle-real/beasley-identities.json"])
    let found = try judge([event(1, batch: batch)], imported).filter { $0.contains("personal-data") }
    XCTAssertEqual(found.count, 1, "\(found)")
    XCTAssertTrue(
      found.first?.hasPrefix(
        "1 personal-data session_start: mparticle batch parameter user_identities.mobile_number")
        ?? false, "\(found)")
    XCTAssertTrue(
      found.first?.contains("outputs[0].batch.user_identities.mobile_number") ?? false, "\(found)")
    XCTAssertFalse(found.joined().contains("+33"), "\(found)")

    var bare = PlanValidator(
      plan: try PlanLoader.load(yaml: "plan: Bare\nevents:\n  session_start: {}\n", file: "b.yaml"))
    let all = bare.validate(event(1, batch: batch)).filter { $0.rule == .personalData }
    XCTAssertEqual(
      all.map { String($0.message.split(separator: " parameter ")[1].prefix { $0 != " " }) },
      ["user_identities.email", "user_identities.ios_idfa", "user_identities.mobile_number", "ui[0].i"])
  }
}
