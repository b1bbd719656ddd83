import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeRecording
import XCTest

/// `propertiesAt`: one catalogue entry checks an in-app call (its parameters are the event's
/// properties) and an SDK's message (the properties sit at the path) alike.
final class CataloguePropertiesAtTests: XCTestCase {
  static let yaml = """
    plan: Shop
    catalogues:
      segment:
        propertiesAt: properties
        calls:
          Order Completed:
            method: track
            params:
              order_id: {type: string, required: true}
              revenue: {type: number, maximum: 1000}
        methods:
          identify:
            propertiesAt: traits
            params: {email: {type: string, required: true}}
          alias:
            propertiesAt: .
            params: [previousId]
    """

  private func plan() throws -> Plan { try PlanLoader.load(yaml: Self.yaml, file: "shop.yaml") }

  /// A record `listen` made from a Segment message (it keeps the raw payload).
  private func fromSDK(_ seq: UInt64, method: String, name: String?, _ message: Properties) -> Record {
    var made = record(
      seq, .event, name ?? method,
      outputs: [
        ProviderOutput(
          provider: "segment", status: .sent,
          calls: [CallDescription(method: method, name: name, parameters: message)])
      ])
    made.raw = "{}"
    return made
  }

  func testEntriesInheritTheCataloguesPathUnlessTheySayTheirOwn() throws {
    let plan = try plan()
    let segment = try XCTUnwrap(plan.catalogues.first)
    XCTAssertEqual(segment.propertiesAt?.description, "properties")
    XCTAssertEqual(segment.entries.map { $0.propertiesAt?.description }, ["properties", "traits", "."])
  }

  func testAnSDKMessageIsCheckedAtThePathAndAnInAppCallOnItsParameters() throws {
    let plan = try plan()
    let conforming: Properties = ["order_id": "o-1", "revenue": 12.5]
    let tooMuch: Properties = ["order_id": "o-2", "revenue": 5000]
    let records = [
      fromSDK(
        1, method: "track", name: "Order Completed",
        ["type": "track", "event": "Order Completed", "messageId": "m1", "properties": .object(conforming)]),
      fromSDK(
        2, method: "track", name: "Order Completed",
        ["type": "track", "event": "Order Completed", "properties": .object(tooMuch)]),
      fromSDK(3, method: "track", name: "Order Completed", ["type": "track", "event": "Order Completed"]),
      record(
        4, .event, "Order Completed",
        outputs: [sent("segment", "Order Completed", conforming, method: "track")]),
      record(
        5, .event, "Order Completed", outputs: [sent("segment", "Order Completed", tooMuch, method: "track")]),
    ]
    let (violations, _) = validate(records, plan: plan)
    XCTAssertEqual(
      violations.map { "\($0.seq) \($0.rule.rawValue) \($0.message)" },
      [
        "2 invalid-value Order Completed: segment track Order Completed parameter properties.revenue is 5000, plan line 10 expects at most 1000",
        "3 missing-param Order Completed: segment track Order Completed parameter properties.order_id is missing, plan line 9 requires it",
        "5 invalid-value Order Completed: segment track Order Completed parameter revenue is 5000, plan line 10 expects at most 1000",
      ])
  }

  func testAnEntrysOwnPathAndTheWholeMessage() throws {
    let plan = try plan()
    let records = [
      fromSDK(
        1, method: "identify", name: nil, ["type": "identify", "userId": "u-1", "traits": ["email": "a@b.c"]]),
      fromSDK(
        2, method: "identify", name: nil, ["type": "identify", "userId": "u-1", "traits": ["name": "Ann"]]),
      fromSDK(3, method: "identify", name: nil, ["type": "identify", "userId": "u-1", "traits": "a@b.c"]),
      fromSDK(4, method: "alias", name: nil, ["type": "alias", "userId": "u-1", "previousId": "anon-1"]),
      fromSDK(5, method: "alias", name: nil, ["type": "alias", "userId": "u-1"]),
    ]
    // (Segment's own rules on identify and alias, `provider-rule`, are not what this test is about.)
    let (violations, _) = validate(records, plan: plan)
    XCTAssertEqual(
      violations.filter { $0.rule != .providerRule }.map { "\($0.seq) \($0.rule.rawValue) \($0.message)" },
      [
        "2 missing-param identify: segment identify parameter traits.email is missing, plan line 14 requires it",
        "3 wrong-type identify: segment identify parameter traits is a string (\"a@b.c\"), plan line 12 expects object (the catalogue's propertiesAt: traits)",
        "5 missing-param alias: segment alias parameter previousId is missing, plan line 17 requires it",
      ])
  }

  /// A missing parameter's expected-vs-got lists what its object carried instead, the likely
  /// misspelling paired with it, at the same path.
  func testAMissingParameterShowsWhatItsObjectCarriedInstead() throws {
    let record = fromSDK(
      1, method: "track", name: "Order Completed",
      ["type": "track", "event": "Order Completed", "properties": ["orderId": "o-1", "coupon": "X"]])
    let (violations, _) = validate([record], plan: try plan())
    let missing = try XCTUnwrap(violations.first { $0.rule == .missingParam })
    let rows = missing.comparison.rows.map { "\($0.field) | \($0.expected) | \($0.actual)" }
    XCTAssertEqual(
      rows,
      [
        "call | track Order Completed | track Order Completed",
        "param properties.order_id | string, required | absent (did you mean orderId?)",
        "param properties.orderId | not planned (order_id misspelled?) | \"o-1\"",
        "param properties.coupon | not planned | \"X\"",
      ])
  }

  func testAPathWithAnEmptyKeyIsRefusedWithItsPlace() {
    XCTAssertThrowsError(
      try PlanLoader.load(
        yaml: "plan: P\ncatalogues: {segment: {propertiesAt: 'properties..x'}}", file: "p.yaml")
    ) { error in
      XCTAssertTrue("\(error)".hasPrefix("p.yaml:2:"), "\(error)")
      XCTAssertTrue("\(error)".contains("propertiesAt of catalogue segment"), "\(error)")
    }
  }

  /// `messageParams`: constraints on the whole message an SDK sent (Segment's common rules on
  /// `context`), whatever `propertiesAt` says; an in-app call has no message and skips them.
  func testMessageParamsCheckTheWholeMessageOfAnSDKCallOnly() throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: Shop
        catalogues:
          segment:
            propertiesAt: properties
            calls:
              Order Completed:
                params: {order_id: {type: string}}
                messageParams:
                  context:
                    type: object
                    required: true
                    properties: {userAgent: {type: string, required: true, not: {pattern: bot}}}
        """, file: "shop.yaml")
    XCTAssertEqual(plan.catalogues.first?.entries.first?.messageParams.map(\.name), ["context"])
    var validator = PlanValidator(plan: plan)
    func found(_ record: Record) -> [String] {
      validator.validate(record).map {
        "\($0.rule.rawValue) \($0.message.split(separator: ", plan line")[0])"
      }
    }
    let browser: Properties = ["userAgent": "Mozilla/5.0"]
    XCTAssertEqual(
      found(
        fromSDK(
          1, method: "track", name: "Order Completed",
          ["properties": ["order_id": "o-1"], "context": .object(browser)])), [])
    XCTAssertEqual(
      found(
        fromSDK(
          2, method: "track", name: "Order Completed",
          ["properties": ["order_id": "o-1"], "context": ["userAgent": "Googlebot"]])),
      [
        #"invalid-value Order Completed: segment track Order Completed parameter context.userAgent is a string ("Googlebot")"#
      ])
    XCTAssertEqual(
      found(fromSDK(3, method: "track", name: "Order Completed", ["properties": ["order_id": "o-1"]])),
      ["missing-param Order Completed: segment track Order Completed parameter context is missing"])
    let inApp = record(
      4, .event, "Order Completed",
      outputs: [
        ProviderOutput(
          provider: "segment", status: .sent,
          calls: [CallDescription(method: "track", name: "Order Completed", parameters: ["order_id": "o-1"])])
      ])
    XCTAssertEqual(found(inApp), [])
  }
}
