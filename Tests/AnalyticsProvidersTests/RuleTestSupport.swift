import AnalyticsHub
import AnalyticsProviders
import XCTest

/// Checks typed calls with a rule set and asserts that the generic path (recorded
/// `CallDescription`s through `ProviderRules`) reports exactly the same violations.
func violations<Rules: ProviderRuleSet, Call: ProviderCall>(
  _ rules: Rules.Type, _ calls: [Call], file: StaticString = #filePath, line: UInt = #line
) -> [RuleViolation] {
  let typed = rules.check(calls)
  let generic = ProviderRules.check(
    provider: rules.providerID.rawValue, calls: calls.map(CallDescription.init))
  XCTAssertEqual(typed, generic, "typed and recorded calls must break the same rules", file: file, line: line)
  return typed
}

/// Asserts that `found` is exactly one violation of `rule` with the given consequence, error code
/// and call index.
func assertSingle(
  _ found: [RuleViolation], rule: String, consequence: RuleViolation.Consequence, errorCode: Int? = nil,
  callIndex: Int = 0, file: StaticString = #filePath, line: UInt = #line
) {
  XCTAssertEqual(found.map(\.rule), [rule], "violations: \(found.map(\.message))", file: file, line: line)
  guard let violation = found.first else { return }
  let description = ProviderRules.describe(rule)
  XCTAssertNotNil(description, "\(rule) is missing from ProviderRules.catalogue", file: file, line: line)
  if let description {
    XCTAssertEqual(description.errorCode, violation.errorCode, "catalogue error code", file: file, line: line)
    if rule != "segment.identifier-missing" {
      XCTAssertEqual(
        description.consequence, violation.consequence, "catalogue consequence", file: file, line: line)
    }
  }
  XCTAssertEqual(violation.consequence, consequence, file: file, line: line)
  XCTAssertEqual(violation.errorCode, errorCode, file: file, line: line)
  XCTAssertEqual(violation.callIndex, callIndex, file: file, line: line)
  XCTAssertFalse(violation.message.isEmpty, file: file, line: line)
}

/// `count` distinct properties `p0`, `p1`…
func manyProperties(_ count: Int, value: PropertyValue = 1) -> Properties {
  Properties((0..<count).map { ("p\($0)", value) })
}

func firebase(_ calls: [FirebaseCall], file: StaticString = #filePath, line: UInt = #line) -> [RuleViolation]
{
  violations(FirebaseRules.self, calls, file: file, line: line)
}

func amplitude(_ calls: [AmplitudeCall], file: StaticString = #filePath, line: UInt = #line)
  -> [RuleViolation]
{
  violations(AmplitudeRules.self, calls, file: file, line: line)
}

func segment(_ calls: [SegmentCall], file: StaticString = #filePath, line: UInt = #line) -> [RuleViolation] {
  violations(SegmentRules.self, calls, file: file, line: line)
}

func mixpanel(_ calls: [MixpanelCall], file: StaticString = #filePath, line: UInt = #line) -> [RuleViolation]
{
  violations(MixpanelRules.self, calls, file: file, line: line)
}

func piano(_ calls: [PianoCall], file: StaticString = #filePath, line: UInt = #line) -> [RuleViolation] {
  violations(PianoRules.self, calls, file: file, line: line)
}

func braze(_ calls: [BrazeCall], file: StaticString = #filePath, line: UInt = #line) -> [RuleViolation] {
  violations(BrazeRules.self, calls, file: file, line: line)
}

func adobe(_ calls: [AdobeCall], file: StaticString = #filePath, line: UInt = #line) -> [RuleViolation] {
  violations(AdobeRules.self, calls, file: file, line: line)
}

func batch(_ calls: [BatchCall], file: StaticString = #filePath, line: UInt = #line) -> [RuleViolation] {
  violations(BatchRules.self, calls, file: file, line: line)
}

func fpti(_ calls: [FPTICall], file: StaticString = #filePath, line: UInt = #line) -> [RuleViolation] {
  violations(FPTIRules.self, calls, file: file, line: line)
}
