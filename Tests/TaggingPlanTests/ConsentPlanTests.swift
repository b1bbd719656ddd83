import AnalyticsHub
import TaggingPlan
import XCTest

/// Issue 47's `consent:` plan key: the providers of each consent category and the default, read
/// with their places; unknown keys and providers, bad defaults and a provider in two categories
/// stop the load with their file:line:column.
final class ConsentPlanTests: XCTestCase {
  private func load(_ yaml: String) throws -> Plan { try PlanLoader.load(yaml: yaml, file: "c.yaml") }

  func testTheConsentKeyIsReadWithItsPlaces() throws {
    let plan = try load(
      """
      plan: C
      consent:
        default: denied
        categories:
          analytics: [firebase, amplitude, segment]
          marketing: [braze]
      """)
    let consent = try XCTUnwrap(plan.consent)
    XCTAssertFalse(consent.defaultGranted)
    XCTAssertEqual(consent.location, SourceLocation(line: 2, column: 1))
    XCTAssertEqual(consent.categories.map(\.category), ["analytics", "marketing"])
    XCTAssertEqual(consent.categories[0].location, SourceLocation(line: 5, column: 5))
    XCTAssertEqual(consent.categories[1].providers.map(\.id), ["braze"])
    XCTAssertEqual(consent.categories[1].providers[0].location, SourceLocation(line: 6, column: 17))
    XCTAssertEqual(consent.category(of: "amplitude"), "analytics")
    XCTAssertEqual(consent.category(of: "appboy"), "marketing", "a vendor's alias has its category")
    XCTAssertNil(consent.category(of: "mixpanel"))
    XCTAssertNil(try load("plan: C\n").consent)
    XCTAssertEqual(try load("plan: C\nconsent: {}\n").consent?.defaultGranted, true)
    // A custom provider may have a category once declared, and one provider id stands alone.
    let custom = try load(
      "plan: C\ncustomProviders: [inhouse]\nconsent:\n  categories:\n    analytics: inhouse\n")
    XCTAssertEqual(custom.consent?.category(of: "inhouse"), "analytics")
  }

  func testBadConsentKeysStopTheLoadWithTheirPlace() {
    let cases: [(String, String)] = [
      (
        "plan: C\nconsent:\n  categories:\n    analytics: [firebse]\n",
        "c.yaml:4:17: consent category analytics names unknown provider 'firebse' (did you mean 'firebase'?): "
          + "Tagscope knows "
      ),
      (
        "plan: C\nconsent:\n  categories:\n    analytics: [firebase, braze]\n    marketing: [appboy]\n",
        "c.yaml:5:17: provider appboy is in consent category marketing here and in analytics at c.yaml:4:27: "
          + "a provider has one category"
      ),
      (
        "plan: C\nconsent:\n  categories:\n    analytics: [segment, segment]\n",
        "c.yaml:4:26: provider segment is in consent category analytics here and in analytics at c.yaml:4:17"
      ),
      (
        "plan: C\nconsent:\n  default: maybe\n",
        "c.yaml:3:12: default of consent must be granted or denied, found \"maybe\""
      ),
      ("plan: C\nconsent:\n  defaults: denied\n", "c.yaml:3:3: unknown key 'defaults' in consent"),
      (
        "plan: C\nconsent:\n  categories: [analytics]\n",
        "c.yaml:3:15: categories of consent must be a mapping"
      ),
      (
        "plan: C\nconsent:\n  categories:\n    analytics: {firebase: 1}\n",
        "c.yaml:4:16: consent category analytics must be a list"
      ),
    ]
    for (yaml, expected) in cases {
      XCTAssertThrowsError(try load(yaml), expected) { error in
        XCTAssertTrue("\(error)".hasPrefix(expected), "\(error)")
      }
    }
  }
}
