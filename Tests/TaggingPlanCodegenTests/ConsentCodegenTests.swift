import Foundation
import PodcastDemo
import TaggingPlan
import XCTest

@testable import TaggingPlanCodegen

/// The plan's `consent` in the generated mappings: each provider's doc comment names its category
/// and plan line (or says it has none), each provider is registered with that category so the hub
/// blocks what the validator would flag, and the providers' doc says the default the hub needs.
/// (``CodegenRoundTripTests`` builds the demo plan's mappings, categories included.)
final class ConsentCodegenTests: XCTestCase {
  private func mappings(_ plan: Plan) throws -> String {
    let options = PlanCodegen.Options(moduleName: "Shop", includesTour: false, toolVersion: "0.0.0-test")
    return try XCTUnwrap(
      PlanCodegen(plan: plan, options: options).files().first { $0.name.hasSuffix("Mappings.swift") }
    )
    .text
  }

  func testTheDemoPlansCategoriesAreDocumentedAndRegistered() throws {
    let plan = try PlanLoader.load(yaml: DemoPlan.yaml, file: "demo plan")
    let consent = try XCTUnwrap(plan.consent)
    let text = try mappings(plan)
    let marketing = try XCTUnwrap(consent.categories.first { $0.category == "marketing" })
    let braze = try XCTUnwrap(marketing.providers.first)
    XCTAssertTrue(
      text.contains(
        "/// Consent: category marketing (plan line \(braze.location.line)); no call once it is withdrawn."),
      text)
    XCTAssertTrue(
      text.contains("provider(category: ConsentCategory(rawValue: \"marketing\"), environment:"), text)
    XCTAssertTrue(
      text.contains("provider(category: ConsentCategory(rawValue: \"analytics\"), environment:"), text)
    XCTAssertTrue(text.contains("is granted by default"), text)
  }

  func testADeniedDefaultAndAProviderWithoutCategoryAreSaid() throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: Shop
        customProviders: [acme, other]
        consent:
          default: denied
          categories:
            advertising: [acme]
        events:
          buy:
            providers:
              acme: {name: buy}
              other: {name: buy}
        """, file: "shop.yaml")
    let text = try mappings(plan)
    XCTAssertTrue(
      text.contains("/// Consent: category advertising (plan line 6); no call once it is withdrawn."), text)
    XCTAssertTrue(
      text.contains(
        "/// Consent: the plan gives it no category (line 3); its calls are not checked for consent."),
      text)
    XCTAssertTrue(text.contains("category: ConsentCategory(rawValue: \"advertising\"), adapter:"), text)
    XCTAssertTrue(
      text.contains("/// `HubConfiguration(defaultConsent: false)` so nothing is sent before a grant."), text)
  }

  func testAPlanWithoutConsentSaysNothingOfIt() throws {
    let plan = try PlanLoader.load(
      yaml: "plan: Shop\nevents:\n  buy:\n    providers:\n      firebase: {name: buy}\n", file: "s.yaml")
    XCTAssertFalse(try mappings(plan).contains("onsent"))
  }
}
