import Foundation
import TagscopeTestSupport
import XCTest

/// The query API of a real `listen` serves issue 47's findings as it serves the others:
/// `/violations` lists `repeated`, `duplicate`, `funnel-order`, `consent-withdrawn` and
/// `personal-data`, each with its evidence (the plan's rule and the other record it names);
/// `records?filter=rule:…` finds their records and `assert?violations=none` fails on them.
final class QueryAPIFindingRulesTests: XCTestCase {
  static let plan = """
    plan: Shop
    consent:
      categories:
        analytics: [firebase]
        marketing: [braze]
    screens:
      home: {}
    actions:
      open: {once: session}
      tap:
        duplicateWithin: 500ms
        properties:
          id: {type: string}
      cart:
      pay:
    funnels:
      buy: {steps: [cart, pay]}
    """

  /// A record line at `millis` after 10:00:00 in session s-1, with `extra` fields (outputs).
  private func line(
    _ seq: Int, _ kind: String, _ name: String, at millis: Int, properties: String = "{}", extra: String = ""
  ) -> String {
    let time = String(format: "2026-11-21T10:00:%02d.%03dZ", millis / 1000, millis % 1000)
    return
      #"{"seq":\#(seq),"time":"\#(time)","kind":"\#(kind)","name":"\#(name)","properties":\#(properties),"#
      + #""context":{"screen":"home","history":["home"],"session":{"id":"s-1","state":"unauthenticated"}}\#(extra)}"#
  }

  func testTheViolationsRouteRecordsFilterAndAssertServeTheSequenceAndPrivacyRules() async throws {
    let listen = try await QueryAPIHarness.start(plan: Self.plan)
    addTeardownBlock { try? await listen.stop() }
    let braze =
      #","outputs":[{"provider":"braze","status":"sent","calls":[{"method":"logCustomEvent","name":"cart"}]}]"#
    // The email reaches Firebase: personal-data.
    let firebase =
      #","outputs":[{"provider":"firebase","status":"sent","calls":[{"method":"logEvent","name":"tap","#
      + #""parameters":{"id":"jo.smith@example.com"}}]}]"#
    try listen.send([
      line(1, "screen", "home", at: 0),
      line(2, "userAction", "open", at: 1_000),
      line(3, "userAction", "open", at: 2_000),  // repeated: once per session
      line(4, "userAction", "tap", at: 3_000, properties: #"{"id":"a"}"#),
      line(5, "userAction", "tap", at: 3_100, properties: #"{"id":"a"}"#),  // duplicate of #4
      line(6, "userAction", "pay", at: 4_000),  // funnel-order: pay before cart
      line(
        7, "consent", "consent", at: 5_000, properties: #"{"scope":"category:marketing","granted":false}"#),
      line(8, "userAction", "cart", at: 6_000, extra: braze),  // consent-withdrawn: braze after #7
      line(9, "userAction", "tap", at: 7_000, properties: #"{"id":"b"}"#, extra: firebase),
    ])
    XCTAssertEqual(try listen.request("wait?count=9&timeout=60").status, 200)

    let reply = try listen.request("violations")
    XCTAssertEqual(reply.status, 200, reply.body)
    let list = reply.json["violations"] as? [[String: Any]] ?? []
    func finding(_ rule: String) throws -> [String: Any] {
      try XCTUnwrap(list.first { $0["rule"] as? String == rule }, "\(rule) in \(reply.body)")
    }
    let rules = ["repeated", "duplicate", "funnel-order", "consent-withdrawn", "personal-data"]
    XCTAssertEqual(Set(list.compactMap { $0["rule"] as? String }), Set(rules), reply.body)
    let seqs = try rules.map { try finding($0)["seq"] as? Int }
    XCTAssertEqual(seqs, [3, 5, 6, 8, 9])
    // Each names its plan line and, for the journeys and consent, the other record it compares.
    for rule in rules {
      let found = try finding(rule)
      // A personal-data finding names no plan line: the value is unplanned wherever it goes.
      if rule != "personal-data" { XCTAssertNotNil(found["planLine"] as? Int, "\(rule): \(found)") }
      XCTAssertEqual(found["source"] as? String, "App@sim", "\(rule)")
    }
    XCTAssertTrue("\(try finding("repeated")["message"] ?? "")".contains("first sent as #2 open"), reply.body)
    XCTAssertTrue("\(try finding("duplicate")["message"] ?? "")".contains("#4 tap"), reply.body)
    XCTAssertTrue(
      "\(try finding("consent-withdrawn")["message"] ?? "")".contains("withdrawn by #7 consent"), reply.body)
    XCTAssertFalse(reply.body.contains("jo.smith@example.com"), "personal data is masked: \(reply.body)")
    for rule in ["repeated", "duplicate", "funnel-order"] {
      let found = try finding(rule)
      XCTAssertNotNil(found["expected"] as? [String: Any], "\(rule): expected in \(found)")
      XCTAssertNotNil(found["actual"] as? [String: Any], "\(rule): actual in \(found)")
    }

    // records?filter=rule:… finds the record of each finding.
    for (rule, seq) in zip(rules, seqs) {
      let records = try listen.request("records?filter=\(queryValue("rule:\(rule)"))")
      XCTAssertEqual(records.status, 200, records.body)
      XCTAssertEqual(records.seqs, [seq].compactMap { $0 }, "rule:\(rule)")
    }

    // assert?violations=none fails, listing them.
    let assertion = try listen.request("assert?violations=none")
    XCTAssertEqual(assertion.status, 200, assertion.body)
    XCTAssertEqual(assertion.json["passed"] as? Bool, false, assertion.body)
    let failure = (assertion.json["failures"] as? [[String: Any]])?.first ?? [:]
    XCTAssertEqual(failure["check"] as? String, "violations")
    XCTAssertEqual(
      (failure["records"] as? [[String: Any]])?.compactMap { $0["seq"] as? Int }, [3, 5, 6, 8, 9])
    XCTAssertTrue((failure["message"] as? String ?? "").hasPrefix("5 violation(s): #3 "), "\(failure)")
  }
}
