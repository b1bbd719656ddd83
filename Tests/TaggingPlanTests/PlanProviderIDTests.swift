import AnalyticsProviders
import XCTest

@testable import TaggingPlan

/// Issue 44: a typo in a plan's provider id (`amplitdue:`) loaded, and that provider's items only
/// ever showed as "not seen". A plan names providers Tagscope knows, or declares its own.
final class PlanProviderIDTests: XCTestCase {
  private func loadError(_ yaml: String) -> PlanLoadError? {
    do {
      _ = try PlanLoader.load(yaml: yaml, file: "p.yaml")
      return nil
    } catch {
      return error as? PlanLoadError
    }
  }

  func testATypoInAnEntrysProviderFailsWithTheNearestKnownId() throws {
    let error = try XCTUnwrap(
      loadError("plan: P\nactions:\n  play:\n    providers:\n      amplitdue: {name: play}\n"))
    XCTAssertEqual(error.location, SourceLocation(line: 5, column: 7))
    XCTAssertTrue(error.message.contains("unknown provider 'amplitdue'"), error.message)
    XCTAssertTrue(error.message.contains("did you mean 'amplitude'?"), error.message)
    XCTAssertTrue(error.message.contains("customProviders"), error.message)
  }

  func testATypoInACatalogueFails() throws {
    let error = try XCTUnwrap(loadError("plan: P\ncatalogues:\n  segmnet:\n    calls: {A: {}}\n"))
    XCTAssertEqual(error.location.line, 3)
    XCTAssertTrue(error.message.contains("did you mean 'segment'?"), error.message)
  }

  func testAnUnrelatedIdHasNoSuggestion() throws {
    let error = try XCTUnwrap(loadError("plan: P\ncatalogues:\n  zzzzzz:\n    calls: {A: {}}\n"))
    XCTAssertFalse(error.message.contains("did you mean"), error.message)
  }

  func testDeclaredCustomProvidersKnownIdsAndAliasesLoad() throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: P
        customProviders: [inhouse]
        actions:
          play:
            providers:
              inhouse: {name: play}
              AppBoy: {name: play}
              ga4: {name: play}
        catalogues:
          inhouse:
            calls: {A: {}}
          snowplow:
            calls: {B: {}}
        """, file: "p.yaml")
    XCTAssertEqual(plan.catalogues.map(\.provider), ["inhouse", "snowplow"])
  }

  /// Every id the in-app rules know is a vendor, and every vendor's id and alias names it.
  func testTheRegistryNamesEveryRuleSetAndAlias() {
    for rules in ProviderRules.ruleSets {
      XCTAssertEqual(Vendors.vendor(named: rules.providerID.rawValue)?.id, rules.providerID)
    }
    for vendor in Vendors.all {
      for name in [vendor.id.rawValue] + vendor.aliases {
        XCTAssertEqual(Vendors.vendor(named: name.uppercased())?.id, vendor.id, name)
      }
    }
    XCTAssertEqual(Set(Vendors.all.map(\.id)).count, Vendors.all.count, "ids are unique")
    XCTAssertEqual(ProviderRules.ruleSet(for: "ga4")?.providerID.rawValue, "firebase")
    XCTAssertEqual(Vendors.suggestion(for: "mixpanle"), "mixpanel")
    XCTAssertEqual(Vendors.suggestion(for: "firebsae"), "firebase")
    XCTAssertNil(Vendors.suggestion(for: "ab"))
  }
}
