import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanImport
import TagscopeRecording
import XCTest

/// mParticle data plans' `user_identities` data points (issue 44: they were warned about, not
/// imported) check the identities the SDKs send: IDSync's `known_identities` (the whole set, on
/// `identify`, `login`, `logout`), a `modify`'s `identity_changes`, and each
/// `user_identity_change` message's new identity.
final class MParticleUserIdentitiesTests: XCTestCase {
  /// An IDSync call as `listen` records it (`MParticleIdentityEndpoint`: method the call).
  private func idSync(_ seq: UInt64, _ call: String, _ request: Properties) -> Record {
    fromSDK(seq, "mparticle", call, call, request)
  }

  /// A `user_identity_change` message as `listen` records it (the Events API's event; the mobile
  /// SDKs' `uic` renamed so).
  private func change(_ seq: UInt64, _ type: String, _ identity: PropertyValue) -> Record {
    let new: Properties = ["identity_type": .string(type), "identity": identity, "created_this_batch": true]
    return fromSDK(
      seq, "mparticle", "user_identity_change", "user_identity_change",
      ["event_type": "user_identity_change", "data": ["new": .object(new)]])
  }

  /// A real plan's identities point (Beasley's site, `customerid` a pattern, `email` an email,
  /// others allowed): the identities each call and change carries are checked by their type.
  func testAUserIdentitiesDataPointChecksIDSyncCallsAndIdentityChanges() throws {
    let plan = try importFixtures(["mparticle-real/beasley-identities.json"])
    XCTAssertEqual(relativeWarnings(plan), [])
    XCTAssertEqual(
      plan.catalogue.methods.filter { $0.origin?.summary == "user_identities" }.map(\.key),
      ["identify", "login", "logout", "modify", "user_identity_change"])
    let records = [
      idSync(
        1, "identify",
        [
          "known_identities": [
            "customerid": "cust_42", "email": "ann@example.com", "device_application_stamp": "d",
          ]
        ]),
      idSync(2, "login", ["known_identities": ["customerid": "cust-42", "other": "o"]]),
      idSync(3, "logout", ["known_identities": ["email": "not an email"]]),
      idSync(4, "modify", ["identity_changes": [["identity_type": "customerid", "new_value": "a b"]]]),
      idSync(5, "modify", ["identity_changes": [["identity_type": "customerid", "new_value": .null]]]),
      change(6, "customerid", "cust_7"), change(7, "customerid", "cust 7"), change(8, "email", .null),
    ]
    XCTAssertEqual(
      try judge(records, plan),
      [
        #"2 invalid-value login: mparticle login parameter known_identities.customerid is "cust-42""#,
        #"3 invalid-value logout: mparticle logout parameter known_identities.email is "not an email""#,
        #"4 invalid-value modify: mparticle modify parameter identity_changes[0] has new_value, which is "a b""#,
        #"7 invalid-value user_identity_change: mparticle user_identity_change parameter data.new has identity, which is "cust 7""#,
      ])
  }

  /// The real plan's `format: email` for a changed email lives in an `if`/`then` branch of the
  /// change; it allows the email there as it does on a plain property (issue 47, gap 8). A branch
  /// allows its kind whichever branch the value meets: an email given as a customer id breaks
  /// that branch's pattern instead, its value masked.
  func testAnEmailIdentityChangeIsAllowedByItsBranchFormat() throws {
    let plan = try importFixtures(["mparticle-real/beasley-identities.json"])
    let records = [
      idSync(
        1, "modify", ["identity_changes": [["identity_type": "email", "new_value": "jane.doe@example.com"]]]),
      idSync(
        2, "modify",
        ["identity_changes": [["identity_type": "customerid", "new_value": "jane.doe@example.com"]]]),
    ]
    XCTAssertEqual(
      try judge(records, plan),
      [
        "2 invalid-value modify: mparticle modify parameter identity_changes[0] has new_value, which is "
          + #""<email masked, 20 characters>""#
      ])
  }

  /// A closed identities schema names the only identities a call may carry or a change set.
  func testAClosedIdentitiesSchemaFlagsAnIdentityNotPlanned() throws {
    let text = """
      {"data_points": [{"match": {"type": "user_identities", "criteria": {}},
        "validator": {"type": "json_schema", "definition": {"additionalProperties": false,
          "properties": {"customerid": {"type": "string"}, "email": {"type": "string"}}}}}]}
      """
    let plan = try importText(text, format: .mparticle)
    XCTAssertEqual(relativeWarnings(plan), [])
    let records = [
      idSync(1, "identify", ["known_identities": ["customerid": "c", "email": "e"]]),
      idSync(2, "identify", ["known_identities": ["customerid": "c", "other": "o"]]),
      idSync(3, "modify", ["identity_changes": [["identity_type": "other", "new_value": "o"]]]),
      change(4, "email", "e"), change(5, "facebook", "f"),
    ]
    XCTAssertEqual(
      try judge(records, plan),
      [
        "2 unexpected-property identify: mparticle identify parameter known_identities.other is not planned",
        #"3 invalid-value modify: mparticle modify parameter identity_changes[0].identity_type is "other""#,
        #"5 invalid-value user_identity_change: mparticle user_identity_change parameter data.new.identity_type is "facebook""#,
      ])
  }
}
