import TaggingPlan
import XCTest

@testable import TaggingPlanCodegen

/// A provider parameter no property holds is read from the hub's context when its name says what
/// it is, as the demo's hand-written Amplitude mapping reads `source_screen`; only the others are
/// parameters the app passes with the tag.
final class ContextParameterTests: XCTestCase {
  static let yaml = """
    plan: Shop
    screens:
      home: {}
    actions:
      share:
        properties:
          item: {type: string, required: true}
        providers:
          amplitude: {name: Share, params: [item, source_screen, previousScreen, Session ID, user_id, campaign]}
    """

  func testScreenSessionAndUserComeFromTheContextTheRestFromTheApp() throws {
    let plan = try PlanLoader.load(yaml: Self.yaml, file: "shop.yaml")
    let files = PlanCodegen(plan: plan, options: .init(moduleName: "Shop", toolVersion: "1")).files()
    let taxonomy = files[0].text
    let mappings = files[1].text
    XCTAssertTrue(taxonomy.contains("case share(item: String, campaign: PropertyValue)"), taxonomy)
    XCTAssertTrue(
      mappings.contains(
        #""source_screen": context.currentScreen.map { PropertyValue.string($0.name) } ?? .null"#),
      mappings)
    XCTAssertTrue(
      mappings.contains(
        #""previousScreen": context.previousScreen.map { PropertyValue.string($0.name) } ?? .null"#))
    XCTAssertTrue(
      mappings.contains(#""Session ID": context.session.map { PropertyValue.string($0.id) } ?? .null"#))
    XCTAssertTrue(mappings.contains(#""user_id": context.user.map { PropertyValue.string($0.id) } ?? .null"#))
    XCTAssertTrue(mappings.contains(#""campaign": tagExtras["campaign"] ?? .null"#))
    XCTAssertTrue(mappings.contains("amplitudeCalls(for: tag, in: context)"))
    // The rule is in the generated documentation.
    XCTAssertTrue(mappings.contains("filled from the hub's context"))
  }

  func testNamesAreMatchedWithoutCaseOrSeparators() {
    for name in ["source_screen", "sourceScreen", "Source Screen", "SOURCE-SCREEN"] {
      XCTAssertEqual(ContextParameter.meaning(name), "the screen on display", name)
    }
    XCTAssertEqual(ContextParameter.meaning("previous_screen"), "the screen displayed before")
    XCTAssertNil(ContextParameter.expression("item_id"))
    XCTAssertNil(ContextParameter.expression("screens"))
  }
}
