import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanImport
import TaggingPlanReports
import TagscopeRecording
import XCTest

/// rudder-cli projects as RudderStack's own end-to-end tests keep them (rudderlabs/rudder-iac,
/// `cli/tests/testdata/project/create/`, spec `rudder/v0.1` and `rudder/v1`; Fixtures/README.md):
/// each imports, loads, and judges RudderStack track messages (Segment's shape, the properties
/// under `properties`) as the plan says.
final class RudderStackRealPlanTests: XCTestCase {
  /// A track message as the RudderStack SDKs send it, recorded by `listen` (it keeps the raw body).
  private func track(_ seq: UInt64, _ event: String, _ properties: Properties) -> Record {
    Record(
      seq: seq, time: Date(timeIntervalSince1970: 1_800_000_000), kind: .event, name: event,
      outputs: [
        ProviderOutput(
          provider: "rudderstack", status: .sent,
          calls: [
            CallDescription(
              method: "track", name: event,
              parameters: [
                "type": "track", "event": .string(event), "userId": "user-42",
                "properties": .object(properties), "context": ["library": ["name": "analytics-python"]],
              ])
          ])
      ], raw: "{}")
  }

  func testTheV01ProjectImportsWithItsVarFileAndNestedProperties() throws {
    let plan = try importFixtures(["rudderstack-real/v0.1"])
    XCTAssertEqual(plan.name, "API Tracking")
    // The first event's name is `{{ .API_TRACKING_NAME }}`, its value in substitution.vars.yaml.
    XCTAssertEqual(
      plan.catalogue.calls.map(\.key),
      ["Name from var file that must lose to the env var", "Login Event", "Logout Event"])
    XCTAssertEqual(
      plan.catalogue.calls.first?.description, "This event is triggered every time a user views a product.")
    XCTAssertEqual(relativeWarnings(plan), [], "variants are checked")
  }

  /// The first rule's `variants`: when `API Method` is `POST` ("Create Entity"), `User Agent` is
  /// required and `Host` allowed; the rule is closed (`allow_unplanned: false`), and both stay
  /// planned for any method.
  func testVariantsRequireTheirCasesPropertiesWhenTheDiscriminatorMatches() throws {
    let plan = try importFixtures(["rudderstack-real/v0.1"])
    let name = "Name from var file that must lose to the env var"
    let base: Properties = [
      "API Path": "/v1/users", "Username": "someone@example.com", "Password": "correct horse",
    ]
    func call(_ seq: UInt64, _ extra: Properties) -> Record {
      var properties = base
      for (key, value) in extra { properties[key] = value }
      return track(seq, name, properties)
    }
    let records = [
      call(1, ["API Method": "POST", "User Agent": "curl/8.4", "Host": "api.example.com"]),
      call(2, ["API Method": "POST"]),
      call(3, ["API Method": "GET", "User Agent": "curl/8.4"]),
      call(4, ["API Method": "GET"]),
      call(5, ["API Method": "POST", "User Agent": 8]),
    ]
    let call = "Name from var file that must lose to the env var: rudderstack track \(name)"
    XCTAssertEqual(
      try judge(records, plan),
      [
        #"2 missing-property \#(call) parameter properties has ["User Agent"], which is missing"#,
        #"5 wrong-type \#(call) parameter properties has ["User Agent"], which is an integer (8)"#,
      ])
  }

  func testTheV01PlanJudgesTrackMessagesDownItsNestedObjects() throws {
    let plan = try importFixtures(["rudderstack-real/v0.1"])
    let captcha: Properties = ["Captcha Solved": true, "Captcha Info": ["Captcha Type": "image"]]
    let good: Properties = [
      "Username": "someone@example.com", "Password": "correct horse",
      "Signin Info": ["Captcha": .object(captcha)],
    ]
    var bad = good
    bad["Signin Info"] = ["Captcha": ["Captcha Solved": true, "Captcha Info": ["Captcha Type": "video"]]]
    bad["Username"] = "someone"
    let records = [
      track(1, "Login Event", good), track(2, "Login Event", bad), track(3, "Logout Event", [:]),
      track(4, "Logout Event", ["reason": "timeout"]),
    ]
    XCTAssertEqual(
      try judge(records, plan),
      [
        "2 invalid-value Login Event: rudderstack track Login Event parameter properties.Username is \"someone\"",
        "2 invalid-value Login Event: rudderstack track Login Event parameter properties[\"Signin Info\"].Captcha[\"Captcha Info\"][\"Captcha Type\"] is \"video\"",
        "4 unexpected-property Logout Event: rudderstack track Logout Event parameter properties.reason is not planned",
      ])
  }

  func testAPlaceholderNoVarFileSetsLeavesItsRuleOutAndSaysWhich() throws {
    let files = ["events", "properties", "customtypes", "categories", "trackingplan"].map {
      "rudderstack-real/v0.1/\($0).yaml"
    }
    let plan = try importFixtures(files)
    XCTAssertEqual(plan.catalogue.calls.map(\.key), ["Login Event", "Logout Event"])
    XCTAssertEqual(
      relativeWarnings(plan).first,
      "rudderstack-real/v0.1/trackingplan.yaml:10:7: warning: the rule spec.rules[0] is left out: its event api_tracking is named {{ .API_TRACKING_NAME }}, and neither a RUDDER_<NAME> environment variable nor a .vars.yaml file among the given ones sets API_TRACKING_NAME"
    )
  }

  /// What rudder-iac's own test does (substitution.vars.yaml's comments): it exports
  /// `RUDDER_API_TRACKING_NAME`, which outranks the var file's value; the description still comes
  /// from the file. Without the file, the variable alone names the event.
  func testARudderEnvironmentVariableOutranksTheVarFile() throws {
    let environment = ["RUDDER_API_TRACKING_NAME": "API Tracking", "API_TRACKING_DESCRIPTION": "not RUDDER_"]
    let plan = try importFixtures(["rudderstack-real/v0.1"], options: ImportOptions(environment: environment))
    XCTAssertEqual(plan.catalogue.calls.map(\.key), ["API Tracking", "Login Event", "Logout Event"])
    XCTAssertEqual(
      plan.catalogue.calls.first?.description, "This event is triggered every time a user views a product.")
    let files = ["events", "properties", "customtypes", "categories", "trackingplan"].map {
      "rudderstack-real/v0.1/\($0).yaml"
    }
    let withoutFile = try importFixtures(files, options: ImportOptions(environment: environment))
    XCTAssertEqual(withoutFile.catalogue.calls.map(\.key), ["API Tracking", "Login Event", "Logout Event"])
    XCTAssertEqual(
      withoutFile.catalogue.calls.first?.description, "{{ .API_TRACKING_DESCRIPTION }}",
      "a variable without the RUDDER_ prefix is not one")
  }

  /// rudder-cli's `{{ .NAME | default }}`: the default only when no source sets the variable.
  func testAPlaceholdersDefaultIsUsedOnlyWhenNothingSetsIt() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rudder-default-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let project = """
      version: rudder/v1
      kind: events
      metadata: {name: e}
      spec:
        events:
          - {id: a, name: "{{ .A_NAME | Signed Up }}", event_type: track}
          - {id: b, name: "{{.B_NAME|Fallback}} v2", event_type: track}
      """
    try project.write(to: folder.appendingPathComponent("events.yaml"), atomically: true, encoding: .utf8)
    try """
    version: rudder/v1
    kind: tracking-plan
    metadata: {name: tp}
    spec:
      id: tp
      rules:
        - {type: event_rule, id: ra, event: "#event:a"}
        - {type: event_rule, id: rb, event: "#event:b"}
    """.write(to: folder.appendingPathComponent("tp.yaml"), atomically: true, encoding: .utf8)
    let plan = try PlanImporter.run(
      paths: [folder.path], options: ImportOptions(environment: ["RUDDER_B_NAME": "Checkout"]))
    XCTAssertEqual(plan.catalogue.calls.map(\.key), ["Signed Up", "Checkout v2"])
  }

  /// `includes: {$ref: "#/tp/common_rules/event_rule/*"}` brings in common_rules' event rules, one
  /// level deep; every plan given is imported, each rule once; an included rule judges a message
  /// as a direct one. The plan and the one it includes alone: the nested include's plan is missing.
  func testIncludesBringInAnotherPlansRules() throws {
    let plan = try importFixtures(["rudderstack-includes"])
    XCTAssertEqual(plan.catalogue.calls.map(\.key), ["Checkout", "Login", "API Tracking"])
    XCTAssertEqual(plan.catalogue.methods.map(\.key), ["page"])
    XCTAssertEqual(relativeWarnings(plan), [])
    XCTAssertEqual(
      try judge(
        [track(1, "Checkout", ["order_total": 12.5]), track(2, "Checkout", ["order_total": "12.5"])], plan),
      [
        #"2 wrong-type Checkout: rudderstack track Checkout parameter properties.order_total is a string ("12.5")"#
      ])
    let files = ["events", "properties", "trackingplan", "common-rules"].map {
      "rudderstack-includes/\($0).yaml"
    }
    XCTAssertEqual(
      importError(files),
      "rudderstack-includes/common-rules.yaml:21:9: error: #/tp/second_level/event_rule/* (spec.rules[2].includes): no tracking plan with id second_level in the given files (pass its file)"
    )
  }

  func testAnIncludeNamingNoGivenPlanOrRuleIsAnError() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rudder-include-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let events = fixture("rudderstack-includes/events.yaml")
    try FileManager.default.copyItem(
      atPath: events, toPath: folder.appendingPathComponent("events.yaml").path)
    let cases = [
      (
        "#/tp/missing_plan/event_rule/*",
        "no tracking plan with id missing_plan in the given files (pass its file)"
      ),
      ("#/tp/tp/event_rule/nope", "the tracking plan tp has no rule nope"),
      ("#/tp/tp", "is not a reference of the form #/tp/<tracking plan id>/event_rule/<rule id or *>"),
    ]
    for (reference, expected) in cases {
      try """
      version: rudder/v1
      kind: tracking-plan
      metadata: {name: tp}
      spec:
        id: tp
        rules:
          - {type: event_rule, id: direct, event: "#event:login"}
          - {type: event_rule, id: inc, includes: {$ref: "\(reference)"}}
      """.write(to: folder.appendingPathComponent("tp.yaml"), atomically: true, encoding: .utf8)
      do {
        _ = try PlanImporter.run(paths: [folder.path])
        XCTFail("\(reference) imported")
      } catch {
        XCTAssertTrue(error.description.contains(expected), "\(reference): \(error.description)")
        XCTAssertTrue(error.description.contains("tp.yaml:8:"), "\(reference): \(error.description)")
      }
    }
  }

  func testTheV1ProjectImportsAndJudgesTrackMessages() throws {
    let plan = try importFixtures(["rudderstack-real/v1"])
    XCTAssertEqual(plan.name, "App Tracking")
    XCTAssertEqual(importerWarnings(plan), [])
    XCTAssertEqual(plan.catalogue.calls.map(\.key), ["Signup"])
    XCTAssertEqual(plan.catalogue.methods.map(\.key), ["page"])
    let good: Properties = [
      "Email Address": "ada@example.com", "User Metadata": .null, "User Profiles": [["id": 1]],
    ]
    let bad: Properties = [
      "Email Address": "ada", "User Metadata": "admin", "User Profiles": ["ada"], "plan": "pro",
    ]
    XCTAssertEqual(
      try judge([track(1, "Signup", good), track(2, "Signup", bad)], plan),
      [
        "2 invalid-value Signup: rudderstack track Signup parameter properties[\"Email Address\"] is \"ada\"",
        "2 wrong-type Signup: rudderstack track Signup parameter properties[\"User Metadata\"] is a string (\"admin\")",
        "2 wrong-type Signup: rudderstack track Signup parameter properties[\"User Profiles\"][0] is a string (\"ada\")",
        "2 unexpected-property Signup: rudderstack track Signup parameter properties.plan is not planned",
      ])
  }

  /// rudder-cli's config keywords (`rules/config/options.go`), camelCase in v0.1 and snake_case in
  /// v1, on the real `http_retry_count` property (`minimum: 0, maximum: 10, multipleOf: 2`).
  func testEveryConfigKeywordOfRudderCLIIsChecked() throws {
    let properties = try DocumentReader.document(path: fixture("rudderstack-real/v0.1/properties.yaml"))
    let plan = try DocumentReader.document(
      """
      version: rudder/v0.1
      kind: tp
      metadata: {name: retries}
      spec:
        display_name: Retries
        rules:
          - type: event_rule
            id: retried
            event: {$ref: "#/events/extra/retried"}
            properties:
              - $ref: "#/properties/api_tracking/http_retry_count"
              - $ref: "#/properties/extra/hosts"
      """, file: "tp.yaml")
    let extra = try DocumentReader.document(
      """
      version: rudder/v1
      kind: properties
      metadata: {name: extra}
      spec:
        properties:
          - id: hosts
            name: hosts
            type: array
            config: {min_items: 1, max_items: 2, unique_items: true}
      """, file: "extra-properties.yaml")
    let events = try DocumentReader.document(
      "version: rudder/v1\nkind: events\nmetadata: {name: extra}\nspec:\n  events:\n    - {id: retried, event_type: track, name: Retried}\n",
      file: "extra-events.yaml")
    let imported = try PlanImporter.run(documents: [properties, plan, extra, events], format: .rudderstack)
    XCTAssertEqual(importerWarnings(imported), [])
    let records = [
      track(1, "Retried", ["HTTP Retry Count": 4, "hosts": ["a", "b"]]),
      track(2, "Retried", ["HTTP Retry Count": 3, "hosts": ["a", "a"]]),
      track(3, "Retried", ["HTTP Retry Count": 12, "hosts": []]),
    ]
    XCTAssertEqual(
      try judge(records, imported),
      [
        // 3 is within 0…10: multipleOf 2 flags it; 12 is above the maximum.
        #"2 invalid-value Retried: rudderstack track Retried parameter properties["HTTP Retry Count"] is 3"#,
        #"2 invalid-value Retried: rudderstack track Retried parameter properties.hosts repeats item 0 at index 1 ("a")"#,
        #"3 invalid-value Retried: rudderstack track Retried parameter properties["HTTP Retry Count"] is 12"#,
        #"3 invalid-value Retried: rudderstack track Retried parameter properties.hosts has 0 items"#,
      ])
  }
}
