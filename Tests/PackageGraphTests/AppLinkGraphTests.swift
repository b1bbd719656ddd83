import Foundation
import XCTest

/// Modules are cut by who links them: what an app links (the hub, one provider, the plan testing
/// module in its test target, the inspector) closes over none of the debugger's modules, no SwiftNIO
/// and no provider the app did not ask for. Read from the package's own target graph.
final class AppLinkGraphTests: XCTestCase {
  private var scratch: URL!
  private var manifest: PackageManifest!
  private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The debugger's and the tools' modules, which no app links.
  private let debuggerModules: Set = [
    "TagscopeTimeline", "TagscopeServer", "TagscopeLive", "TagscopeUI", "CNcursesw", "TagscopeDiff",
    "TaggingPlanImport", "TaggingPlanCodegen", "TaggingPlanReports",
  ]

  override func setUpWithError() throws {
    scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "package-graph-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    manifest = try PackageManifest.load(root: root, scratch: scratch)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: scratch)
  }

  /// The provider modules of `closure`: each provider's own, and the umbrella of all of them.
  private func providers(in closure: PackageManifest.Closure) -> Set<String> {
    closure.targets.filter { $0.hasSuffix("Provider") || $0 == "AnalyticsProviders" }
  }

  private func nio(in closure: PackageManifest.Closure) -> Set<String> {
    closure.externalProducts.filter { $0.hasPrefix("swift-nio") }
  }

  func testTheManifestIsRead() {
    XCTAssertTrue(manifest.targets.contains { $0.name == "TagscopeTimeline" })
    XCTAssertTrue(manifest.products.contains { $0.name == "TaggingPlanTesting" })
  }

  func testAnAppWithOneProviderAndThePlanTestsLinksNoDebuggerAndNoNIO() {
    let app = manifest.closure(ofProducts: ["AnalyticsHub", "FirebaseProvider", "TaggingPlanTesting"])
    XCTAssertTrue(app.targets.contains("TaggingPlan"), "the closure is read: \(app.targets.sorted())")
    XCTAssertEqual(app.targets.intersection(debuggerModules), [])
    XCTAssertEqual(nio(in: app), [])
  }

  /// The plan core takes the rules of the providers an app links (`rules: [FirebaseRules.self]`)
  /// instead of linking every provider through the umbrella.
  func testAnAppWithOneProviderAndThePlanTestsLinksNoOtherProvider() {
    let app = manifest.closure(ofProducts: ["AnalyticsHub", "FirebaseProvider", "TaggingPlanTesting"])
    XCTAssertTrue(app.targets.contains("TaggingPlan"), "the closure is read: \(app.targets.sorted())")
    XCTAssertEqual(providers(in: app), ["FirebaseProvider"])
  }

  /// Every module an app's test target links through the plan testing module, and nothing else.
  func testThePlanTestingModuleLinksThePlanCoreAndNoProvider() {
    let testing = manifest.closure(ofProducts: ["TaggingPlanTesting"])
    XCTAssertEqual(providers(in: testing), [])
    XCTAssertEqual(
      testing.targets,
      [
        "TaggingPlanTesting", "TaggingPlan", "AnalyticsHub", "AnalyticsProvidersCore", "TagscopeBasics",
        "TagscopeRecording", "TagscopeVendors",
      ])
  }

  /// A UI test target's client and its XCTest assertions link nothing else of Tagscope.
  func testTheClientsTestingModuleLinksOnlyTheClient() {
    let testing = manifest.closure(ofProducts: ["TagscopeClientTesting"])
    XCTAssertEqual(testing.targets, ["TagscopeClientTesting", "TagscopeClient"])
    XCTAssertEqual(testing.externalProducts, [])
  }

  func testTheInspectorAnAppEmbedsLinksNoDebuggerAndNoNIO() {
    let inspector = manifest.closure(ofProducts: ["TagscopeInspector"])
    XCTAssertEqual(inspector.targets.intersection(debuggerModules), [])
    XCTAssertEqual(nio(in: inspector), [])
    XCTAssertEqual(providers(in: inspector), [])
  }

  func testTheFoundationModuleLinksNothingOfTagscope() {
    let basics = manifest.closure(ofTargets: ["TagscopeBasics"])
    XCTAssertEqual(basics.targets, ["TagscopeBasics"])
    XCTAssertEqual(basics.externalProducts, ["swift-system/SystemPackage"])
  }

  /// The DocC "Modules" article's table names every module of the package (tests apart).
  func testTheModulesArticleNamesEveryModule() throws {
    let article = root.appendingPathComponent("Sources/AnalyticsHub/AnalyticsHub.docc/Modules.md")
    let text = try String(contentsOf: article, encoding: .utf8)
    let table = text.split(separator: "\n").filter { $0.hasPrefix("| `") }.joined(separator: "\n")
    let missing = manifest.targets.filter { $0.type != "test" && !table.contains("`\($0.name)`") }
    XCTAssertEqual(missing.map(\.name), [], "add a row to \(article.path)")
  }

  /// The inspector an app embeds re-exports single declarations an app names with it, never a
  /// whole module (the recording format's decoder, index fields and plan keys stay out of apps).
  func testTheInspectorReExportsNoWholeModule() throws {
    let folder = root.appendingPathComponent("Sources/TagscopeInspector")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasSuffix(".swift")
    }
    XCTAssertFalse(files.isEmpty)
    var wholeModules: [String] = []
    for file in files {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") where line.hasPrefix("@_exported import ") {
        let words = line.split(separator: " ")
        if words.count < 4 { wholeModules.append("\(file): \(line)") }
      }
    }
    XCTAssertEqual(wholeModules, [])
  }
}
