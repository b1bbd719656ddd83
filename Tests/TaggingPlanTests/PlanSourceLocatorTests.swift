import Foundation
import XCTest

@testable import TaggingPlan

/// A plan a test loads from its bundle (a copy in the build folder) is cited by its source in the
/// package: the file of the same name and bytes, found from the test file.
final class PlanSourceLocatorTests: XCTestCase {
  private var root: URL!

  override func setUpWithError() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("locator-\(UUID().uuidString)")
    for folder in [
      "Tests/ShopTests/Resources", "Tests/ShopTests/Other", ".build/debug/Shop_ShopTests.resources",
    ] {
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    try Data("// package".utf8).write(to: root.appendingPathComponent("Package.swift"))
    try Data("plan: Shop\nversion: 2\n".utf8).write(
      to: root.appendingPathComponent("Tests/ShopTests/Resources/plan.yaml"))
    // Same name, other bytes: not the source.
    try Data("plan: Old\n".utf8).write(to: root.appendingPathComponent("Tests/ShopTests/Other/plan.yaml"))
    try Data("plan: Shop\nversion: 2\n".utf8).write(
      to: root.appendingPathComponent(".build/debug/Shop_ShopTests.resources/plan.yaml"))
  }

  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

  func testABuildCopyIsCitedByItsSourceAndASourceAsItIs() throws {
    let copy = root.appendingPathComponent(".build/debug/Shop_ShopTests.resources/plan.yaml").path
    let testFile = root.appendingPathComponent("Tests/ShopTests/CheckoutTests.swift").path
    XCTAssertEqual(
      PlanSourceLocator.source(of: copy, near: testFile), "Tests/ShopTests/Resources/plan.yaml")
    let source = root.appendingPathComponent("Tests/ShopTests/Resources/plan.yaml").path
    XCTAssertNil(PlanSourceLocator.source(of: source, near: testFile), "a source is cited as loaded")
    XCTAssertNil(PlanSourceLocator.source(of: copy, near: "/nowhere/Tests/X.swift"), "no package above")
  }

  func testTheFailureCitesThePlanOnceByTheGivenPath() throws {
    let plan = try PlanLoader.load(
      yaml: "plan: Shop\nscreens:\n  cart: {}\n", file: "/x/.build/debug/Shop.bundle/plan.yaml")
    let failure = PlanTestFailure(plan: plan, uncovered: plan.coverageItems)
    XCTAssertEqual(failure.planFile, "/x/.build/debug/Shop.bundle/plan.yaml")
    XCTAssertEqual(
      failure.citingPlan(at: "Tests/ShopTests/plan.yaml").description,
      "1 planned item of plan Shop (Tests/ShopTests/plan.yaml) not covered:\n  screen cart (plan line 3)")
  }
}
