import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanImport
import TaggingPlanReports
import TagscopeRecording
import XCTest

/// Segment plans as teams export them today (Fixtures/segment-real, sources in its README):
/// every rule imports, and the plan judges SDK messages and in-app calls as Segment would.
final class SegmentRealPlanTests: XCTestCase {
  private func real(_ name: String, options: ImportOptions = ImportOptions()) throws -> ImportedPlan {
    try importFixtures(["segment-real/" + name], options: options)
  }

  /// The violations `plan` finds in calls of `provider`, by call: an SDK message (with `raw`)
  /// or, with `inApp`, an in-app call.
  private func judge(
    _ imported: ImportedPlan, _ calls: [(CallDescription, inApp: Bool)], provider: String = "segment"
  ) throws -> [[PlanViolation]] {
    let plan = try PlanLoader.load(yaml: imported.yaml, file: "imported.yaml")
    var validator = PlanValidator(plan: plan)
    return calls.enumerated().map { index, call in
      let record = Record(
        seq: UInt64(index + 1), time: Date(timeIntervalSince1970: 1_800_000_000), kind: "event",
        name: call.0.name ?? call.0.method,
        outputs: [ProviderOutput(provider: provider, status: .sent, calls: [call.0])],
        raw: call.inApp ? nil : "{}")
      return validator.validate(record).filter { $0.provider == provider }
    }
  }

  /// The `context` analytics.js sends (a browser's user agent, which the common rule of
  /// public-api-every-type.json requires and screens for bots).
  private static let context: PropertyValue = [
    "library": ["name": "analytics.js", "version": "4.1.0"],
    "userAgent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15",
  ]

  private func track(_ event: String, _ properties: Properties, context: PropertyValue = context)
    -> CallDescription
  {
    CallDescription(
      method: "track", name: event,
      parameters: [
        "type": "track", "event": .string(event), "userId": "u-1", "messageId": "m-1", "context": context,
        "properties": .object(properties),
      ])
  }

  func testTypewriterV8PlanImportsEveryRuleAsTheEventsProperties() throws {
    let plan = try real("typewriter-telemetry-plan.json")
    XCTAssertEqual(plan.name, "Typewriter Tracking Plan")
    XCTAssertEqual(plan.catalogue.calls.map(\.key), ["Command Help", "Command Init"])
    XCTAssertEqual(plan.catalogue.propertiesAt, "properties")
    let help = plan.catalogue.calls[0]
    XCTAssertEqual(help.params.map(\.name), ["rawCommand"])
    XCTAssertEqual(help.params[0].constraints.types, [.string])
    XCTAssertTrue(help.params[0].constraints.required)
    let initParams = plan.catalogue.calls[1].params
    XCTAssertEqual(initParams.map(\.name), ["config", "duration", "hasConfig", "rawCommand"])
    XCTAssertEqual(
      plan.catalogue.calls[1].description, "Init Events that initialize the settings for typewriter")
    XCTAssertEqual(relativeWarnings(plan), [], "no rule deprecated, labels and eventMetadata are annotations")
  }

  func testTypewriterV8PlanJudgesSDKMessagesAndInAppCallsAlike() throws {
    let plan = try real("typewriter-telemetry-plan.json")
    let found = try judge(
      plan,
      [
        (track("Command Help", ["rawCommand": "typewriter help"]), false),
        (track("Command Help", ["raw": "typewriter help"]), false),
        (track("Command Help", ["rawCommand": 3]), false),
        (CallDescription(method: "track", name: "Command Help", parameters: ["rawCommand": "help"]), true),
        (CallDescription(method: "track", name: "Command Help", parameters: [:]), true),
      ])
    XCTAssertEqual(found[0].map(\.message), [])
    XCTAssertEqual(found[1].map(\.rule), [.missingParam])
    XCTAssertTrue(found[1].first?.message.contains("properties.rawCommand") ?? false, "\(found[1])")
    XCTAssertEqual(found[2].map(\.rule), [.wrongType])
    XCTAssertTrue(found[2].first?.message.contains("properties.rawCommand") ?? false, "\(found[2])")
    XCTAssertEqual(found[3].map(\.message), [])
    XCTAssertEqual(found[4].map(\.rule), [.missingParam])
  }

  func testAPublicAPIResponseIsUnwrappedToTheSameShape() throws {
    let plan = try real("webflow-current-rules.json")
    XCTAssertEqual(plan.catalogue.calls.map(\.key), ["2FA Page Viewed", "AI Chat Issue Solved"])
    XCTAssertEqual(plan.name, "webflow-current-rules (imported)")
    let viewed = plan.catalogue.calls[0]
    XCTAssertTrue(viewed.params.contains { $0.name == "workspace seat count" })
    XCTAssertFalse(viewed.params.contains { $0.name == "properties" || $0.name == "context" })
    XCTAssertEqual(relativeWarnings(plan), [])
    let found = try judge(
      plan,
      [
        (track("2FA Page Viewed", ["page": "/2fa", "workspace seat count": 4]), false),
        (track("2FA Page Viewed", ["page": "/2fa", "workspace seat count": "four"]), false),
      ])
    XCTAssertEqual(found[0].map(\.message), [])
    XCTAssertEqual(found[1].map(\.rule), [.wrongType])
    XCTAssertTrue(found[1].first?.message.contains("workspace seat count") ?? false, "\(found[1])")
  }

  func testSegmentsAnyTypeIsNoTypeConstraint() throws {
    // As in webflow/segment-tracking-plan-management's plans/prod/webflow/current-rules.json
    // ("maintain 2FA 30 days": {"type": ["any"]}).
    let plan = try importText(
      #"{"rules": [{"type": "TRACK", "key": "Login", "jsonSchema": {"properties": {"properties": {"required": ["remember"], "#
        + #""properties": {"remember": {"type": ["any"]}, "type": {"type": "string"}}}}}}]}"#,
      format: .segment)
    XCTAssertEqual(importerWarnings(plan), [])
    let params = try XCTUnwrap(plan.catalogue.calls.first?.params)
    XCTAssertEqual(params.map(\.name), ["remember", "type"], "a property named type stays")
    XCTAssertEqual(params[0].constraints.types, [])
    XCTAssertTrue(params[0].constraints.required)
  }

  func testWholeMessageConstraintsOutsideTheCheckedObjectAreWarned() throws {
    let plan = try importText(
      #"[{"type": "TRACK", "key": "Signed Up", "jsonSchema": {"type": "object", "required": ["userId", "properties"], "#
        + #""additionalProperties": false, "properties": {"context": {"type": ["object"]}, "#
        + #""properties": {"properties": {"plan": {"type": "string"}}}}}}]"#,
      format: .segment)
    XCTAssertEqual(plan.catalogue.calls.first?.params.map(\.name), ["plan"])
    XCTAssertEqual(
      importerWarnings(plan).map(\.description),
      [
        "plan.json:1:73: warning: required userId ([0].jsonSchema.required) is not imported: Tagscope checks the call's properties and context against this rule",
        "plan.json:1:111: warning: additionalProperties on the whole message ([0].jsonSchema.additionalProperties) is not imported: Tagscope checks the call's properties and context against this rule",
      ])
  }

  func testTheSameRuleWrappedOrUnwrappedImportsTheSameEntry() throws {
    let schema =
      #"{"type": "object", "required": ["rawCommand"], "properties": {"rawCommand": {"type": "string"}}}"#
    let unwrapped = try importText(
      #"{"rules": [{"type": "TRACK", "key": "Command Help", "version": 1, "deprecatedAt": "0001-01-01T00:00:00.000Z", "#
        + #""jsonSchema": {"eventMetadata": {"name": "Command Help", "type": "TRACK"}, "labels": {}, "type": "object", "#
        + #""required": ["rawCommand"], "properties": {"rawCommand": {"type": "string"}}}}]}"#,
      format: .segment)
    let wrapped = try importText(
      #"{"rules": [{"type": "TRACK", "key": "Command Help", "version": 1, "jsonSchema": {"type": "object", "#
        + #""properties": {"context": {}, "traits": {}, "properties": \#(schema)}}}]}"#,
      format: .segment)
    let config = try importText(
      #"{"display_name": "P", "rules": {"events": [{"name": "Command Help", "version": 1, "rules": "#
        + #"{"type": "object", "properties": {"context": {}, "traits": {}, "properties": \#(schema)}}}]}}"#,
      format: .segment)
    let params = unwrapped.catalogue.calls.first?.params
    XCTAssertEqual(params?.map(\.name), ["rawCommand"])
    XCTAssertEqual(wrapped.catalogue.calls.first?.params, params)
    XCTAssertEqual(config.catalogue.calls.first?.params, params)
    XCTAssertEqual(importerWarnings(unwrapped), [])
  }

  func testOnlyARealDateDeprecatesARule() throws {
    let plan = try real("public-api-every-type.json")
    XCTAssertFalse(plan.catalogue.calls.contains { $0.key == "Product Removed" })
    let warning = try XCTUnwrap(relativeWarnings(plan).first { $0.contains("deprecated") })
    XCTAssertEqual(
      warning,
      "segment-real/public-api-every-type.json:38:9: warning: the rule data.rules[1] is deprecated since 2024-06-01T09:00:00.000Z: left out"
    )
    XCTAssertTrue(relativeYAML(plan).contains("#   " + warning), "the YAML says why too")
  }

  func testRulesOfEveryTypeCheckTheirCallsObject() throws {
    let plan = try real("public-api-every-type.json")
    XCTAssertEqual(plan.catalogue.calls.map(\.key), ["Product Added", "Pricing", "Player"])
    XCTAssertEqual(plan.catalogue.calls.map { $0.method ?? "" }, ["track", "page", "screen"])
    XCTAssertEqual(plan.catalogue.methods.map(\.key), ["identify", "group", "page", "screen", "alias"])
    XCTAssertEqual(plan.catalogue.methods[0].propertiesAt, "traits")
    XCTAssertEqual(plan.catalogue.methods[0].params.map(\.name), ["email", "plan"])
    XCTAssertEqual(plan.catalogue.methods[1].params.map(\.name), ["employees"])
    XCTAssertEqual(
      plan.catalogue.calls[0].params.map(\.name), ["brand", "product_id", "sku", "app_version"],
      "the common rule's properties merged in")
    XCTAssertEqual(plan.catalogue.methods[0].params.map(\.name), ["email", "plan"], "no common traits")
    XCTAssertFalse(relativeWarnings(plan).contains { $0.contains("context") }, "\(relativeWarnings(plan))")
    let found = try judge(
      plan,
      [
        (track("Product Added", ["product_id": 7, "sku": "A-1"]), false),
        (track("Product Added", ["product_id": "7"]), false),
        (
          CallDescription(
            method: "identify", name: "u-1",
            parameters: [
              "type": "identify", "userId": "u-1", "traits": ["email": "a@example.com", "plan": "pro"],
              "context": Self.context,
            ]),
          false
        ),
        (
          CallDescription(
            method: "identify", name: "u-1",
            parameters: [
              "type": "identify", "userId": "u-1", "traits": ["plan": "gold"], "context": Self.context,
            ]),
          false
        ),
        (
          CallDescription(
            method: "page", name: "Pricing",
            parameters: [
              "type": "page", "name": "Pricing", "properties": ["path": "/pricing"], "context": Self.context,
            ]),
          false
        ),
        (
          CallDescription(
            method: "screen", name: "Player",
            parameters: ["type": "screen", "name": "Player", "properties": [:], "context": Self.context]),
          false
        ),
        (CallDescription(method: "identify", name: "u-1", parameters: ["email": "a@example.com"]), true),
      ])
    XCTAssertEqual(found[0].map(\.message), [])
    XCTAssertEqual(found[1].map(\.rule), [.wrongType])
    XCTAssertEqual(found[2].map(\.message), [])
    XCTAssertEqual(Set(found[3].map(\.rule)), [.missingParam, .invalidValue], "\(found[3].map(\.message))")
    XCTAssertTrue(found[3].allSatisfy { $0.message.contains("traits.") }, "\(found[3].map(\.message))")
    XCTAssertEqual(found[4].map(\.message), [])
    XCTAssertEqual(found[5].map(\.rule), [.missingParam])
    XCTAssertEqual(found[6].map(\.message), [])
  }

  /// The COMMON rule's `context` (a Terraform export of a real Public API plan: `userAgent`
  /// required, not a bot's) becomes every entry's `messageParams`, checked on SDK messages.
  func testCommonRulesCheckTheMessagesContext() throws {
    let plan = try real("public-api-every-type.json")
    for entry in plan.catalogue.calls + plan.catalogue.methods {
      XCTAssertEqual(entry.messageParams.map(\.name), ["context"], entry.key)
    }
    let context = try XCTUnwrap(plan.catalogue.calls.first?.messageParams.first?.constraints)
    XCTAssertTrue(context.required)
    XCTAssertEqual(context.properties?.map(\.name), ["userAgent"])
    XCTAssertTrue(
      relativeYAML(plan).contains(
        """
                messageParams:
                  context:
                    type: object
                    required: true
                    properties:
                      userAgent: {type: string, required: true, not: {pattern: "(bot|crawl|spider)"}}
        """), relativeYAML(plan))
    let added: Properties = ["product_id": 7, "sku": "A-1"]
    let found = try judge(
      plan,
      [
        (track("Product Added", added), false),
        (
          track(
            "Product Added", added, context: ["userAgent": "Googlebot/2.1 (+http://www.google.com/bot.html)"]),
          false
        ),
        (track("Product Added", added, context: ["library": ["name": "analytics-python"]]), false),
        (
          CallDescription(
            method: "identify", name: "u-1",
            parameters: ["type": "identify", "userId": "u-1", "traits": ["email": "a@example.com"]]),
          false
        ),
        (CallDescription(method: "track", name: "Product Added", parameters: added), true),
      ])
    XCTAssertEqual(found.map { $0.map(\.rule) }, [[], [.invalidValue], [.missingParam], [.missingParam], []])
    XCTAssertTrue(
      found[1].first?.message.contains("parameter context.userAgent is a string (\"Googlebot/2.1") ?? false,
      "\(found[1].map(\.message))")
    XCTAssertTrue(
      found[2].first?.message.contains("parameter context.userAgent is missing") ?? false,
      "\(found[2].map(\.message))")
    XCTAssertTrue(
      found[3].first?.message.contains("parameter context is missing") ?? false, "\(found[3].map(\.message))")
  }

  func testTypewriterV7LocalPlanImportsWithoutAnnotationWarnings() throws {
    let plan = try real("typewriter-plan-v1.json")
    XCTAssertEqual(plan.name, "Typewriter E2E")
    XCTAssertEqual(
      plan.catalogue.calls.map(\.key),
      [#"42_--terrible==\"event'++name~!3"#, "Custom Violation Handler", "Enum Types"])
    XCTAssertEqual(plan.catalogue.calls[1].params.map(\.name), ["regex property"])
    XCTAssertEqual(plan.catalogue.calls[1].params.first?.constraints.required, true)
    XCTAssertEqual(plan.catalogue.calls[2].params.map(\.name), ["string const", "string enum"])
    XCTAssertEqual(relativeWarnings(plan), [], "labels are annotations")
  }

  func testAPlanWithNoRuleIsAnErrorNotAnEmptyPlan() {
    XCTAssertEqual(
      importError(
        ["segment-real/webflow-designer-empty-rules.json"], options: ImportOptions(format: .segment)),
      "segment-real/webflow-designer-empty-rules.json:1:1: error: nothing imported from segment-real/webflow-designer-empty-rules.json: it holds no event definition"
    )
  }

  func testAPlanWhoseEveryRuleIsDeprecatedIsAnErrorThatSaysWhy() throws {
    XCTAssertThrowsError(
      try importText(
        #"[{"type": "TRACK", "key": "Old", "jsonSchema": {}, "deprecatedAt": "2023-01-01T00:00:00.000Z"}]"#,
        format: .segment)
    ) { error in
      let error = error as? ImportError
      XCTAssertEqual(
        error?.message,
        "nothing imported from plan.json: every event definition is left out (1 warning says why)")
      XCTAssertEqual(
        error?.warnings.map(\.description),
        ["plan.json:1:52: warning: the rule [0] is deprecated since 2023-01-01T00:00:00.000Z: left out"])
    }
  }
}
