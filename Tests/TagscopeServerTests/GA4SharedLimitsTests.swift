import AnalyticsHub
import AnalyticsProviders
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// `listen`'s Measurement Protocol checks and the hub's Firebase rules read one table
/// (``FirebaseLimits``): the same payload gets the same verdict on both sides.
final class GA4SharedLimitsTests: XCTestCase {
  private let appQuery = "?firebase_app_id=1:1:ios:1&api_secret=secret"

  /// The codes the validation server answers for one app-stream event.
  private func serverCodes(event: String, params: String = "{}") async throws -> [String] {
    let (server, _) = try await startServer()
    let body = #"{"app_instance_id":"a.1","events":[{"name":"\#(event)","params":\#(params)}]}"#
    let reply = try httpRequest(port: server.port, path: "/debug/mp/collect" + appQuery, body: body)
    try await server.shutdown()
    guard case .object(let object)? = try? JSONParser.parse(reply?.body ?? "") else {
      XCTFail("not JSON: \(reply?.body ?? "")")
      return []
    }
    return (Payload.array(object["validationMessages"]) ?? []).compactMap {
      Payload.string(Payload.object($0)["validationCode"])
    }
  }

  private func hubRules(_ call: FirebaseCall) -> [String] {
    var violations: [RuleViolation] = []
    FirebaseRules.check([call], into: &violations)
    return violations.map(\.rule)
  }

  func testEveryAppReservedEventNameIsReservedOnBothSides() async throws {
    for name in FirebaseLimits.reservedEventNames.sorted().prefix(40) {
      XCTAssertEqual(hubRules(.logEvent(name, [:])), ["firebase.event-name-reserved"], name)
    }
    for name in ["app_background", "in_app_purchase", "app_store_subscription_renew"] {
      let codes = try await serverCodes(event: name)
      XCTAssertEqual(codes, ["NAME_RESERVED"], name)
    }
  }

  func testValueLengthIsCountedInTheSameUnitsOnBothSides() async throws {
    // 99 letters and one emoji: 100 characters, 101 UTF-16 code units (the SDK's count).
    let value = String(repeating: "a", count: 99) + "😀"
    XCTAssertEqual(
      hubRules(.logEvent("play", ["title": .string(value)])), ["firebase.parameter-value-length"])
    let codes = try await serverCodes(event: "play", params: #"{"title":"\#(value)"}"#)
    XCTAssertEqual(codes, ["VALUE_OUT_OF_BOUNDS"])
    let fits = String(repeating: "a", count: 98) + "😀"
    XCTAssertEqual(hubRules(.logEvent("play", ["title": .string(fits)])), [])
    let none = try await serverCodes(event: "play", params: #"{"title":"\#(fits)"}"#)
    XCTAssertEqual(none, [])
  }

  func testNamesInOtherScriptsAreValidOnBothSides() async throws {
    XCTAssertEqual(hubRules(.logEvent("écouter_podcast", [:])), [])
    let codes = try await serverCodes(event: "écouter_podcast")
    XCTAssertEqual(codes, [])
  }

  func testANameTooLongAndMalformedIsReportedForItsCharactersOnBothSides() async throws {
    let name = String(repeating: "a", count: 41) + "-"
    XCTAssertEqual(hubRules(.logEvent(name, [:])), ["firebase.event-name-characters"])
    XCTAssertEqual(FirebaseNameProblem.event(name), .malformed(.invalidCharacters))
    let codes = try await serverCodes(event: name)
    XCTAssertEqual(codes, ["NAME_INVALID"])
    XCTAssertEqual(
      GA4Validator.describe(.invalidCharacters),
      "Names may only contain alpha-numeric characters and underscores.")
  }

  func testServerFindingsCarryTheHubsTypedConsequence() {
    let message = GA4Validator.Message(fieldPath: "events", description: "d", code: "NAME_RESERVED")
    XCTAssertEqual(message.violation(consequence: .rejected).consequence, .rejected)
    XCTAssertEqual(RecordViolation(message.violation(consequence: .dropped)).consequence, "dropped")
  }
}
