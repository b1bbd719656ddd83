import AnalyticsHub
import TaggingPlan
import XCTest

@testable import TaggingPlanCodegen

/// The tour's sample values meet the constraints they are drawn from; a pattern beyond the
/// sampler gives no sample rather than a wrong one.
final class SampleValueTests: XCTestCase {
  func testPatternSamplesMatchTheirPatterns() throws {
    let patterns = [
      "^p[0-9]+$", "^[A-Z]{3}-[0-9]+$", "Lawyer Morty|Evil Morty", "^(?:ab|cd)x?\\d{2,4}$", "^[^0-9]+$",
      "^s[0-9]+$", "^[a-f0-9-]{36}$",
    ]
    for source in patterns {
      let pattern = try PlanPattern(source)
      let sample = try XCTUnwrap(PatternSample.sample(pattern), source)
      XCTAssertTrue(pattern.matches(sample), "\(source) → \(sample)")
    }
    XCTAssertEqual(try PatternSample.sample(PlanPattern("^p[0-9]+$")), "p0")
  }

  func testUnsupportedPatternGivesNoSample() throws {
    XCTAssertNil(
      PatternSample.sample(try PlanPattern("^a$b")),
      "a sample its pattern does not match is refused, not used")
  }

  func testStringSamplesMeetLengthsAndFormats() {
    var rule = PropertyRule(name: "title", location: SourceLocation(line: 1, column: 1))
    rule.minLength = 5
    rule.maxLength = 8
    XCTAssertNil(rule.problem(with: .string(Samples.string(rule))))
    var email = PropertyRule(name: "email", location: SourceLocation(line: 1, column: 1))
    email.format = .email
    XCTAssertNil(email.problem(with: .string(Samples.string(email))))
    var both = PropertyRule(name: "sku", location: SourceLocation(line: 1, column: 1))
    both.pattern = try? PlanPattern("^[A-Z]+$")
    both.minLength = 4
    XCTAssertNil(both.problem(with: .string(Samples.string(both))))
  }

  func testNumberSamplesMeetRanges() {
    var rule = PropertyRule(name: "n", location: SourceLocation(line: 1, column: 1))
    rule.types = [.integer]
    rule.minimum = 3
    rule.maximum = 9
    XCTAssertEqual(Samples.expression(.int, rule: rule), "3")
    rule.minimum = -10
    rule.maximum = -2
    XCTAssertEqual(Samples.expression(.int, rule: rule), "-10", "0 is out of range: the minimum is used")
  }
}
