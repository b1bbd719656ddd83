import Foundation
import XCTest

/// The "Add the package to your app" snippet of the AnalyticsHub catalog's Getting started (compiled in Examples/ManifestExample.swift)
/// names products that Package.swift offers — all of its libraries but the provider products, of
/// which a two-provider app links two (the section names every one) — and the package by the
/// identity its URL or path gives it.
final class ManifestSnippetTests: XCTestCase {
  static let gettingStarted = "Sources/AnalyticsHub/AnalyticsHub.docc/GettingStarted.md"

  private func libraryProducts() throws -> Set<String> {
    let manifest = try DocExampleCoverageTests.read("Package.swift")
    return Set(matches(of: #"\.library\(name: "([^"]+)""#, in: manifest))
  }

  private func snippet() throws -> DocExample {
    let marked = try DocExampleCoverageTests.catalogExamples().filter { $0.marker == "manifest" }
    XCTAssertEqual(marked.count, 1, "Getting started has one <!-- doc-example: manifest --> block")
    return try XCTUnwrap(marked.first)
  }

  /// The provider products: one per provider (`FirebaseProvider`…) and the umbrella re-exporting
  /// them all (`AnalyticsProviders`); an app links the ones it uses.
  private func providerProducts(_ products: Set<String>) -> Set<String> {
    products.filter { $0.hasSuffix("Provider") || $0 == "AnalyticsProviders" }
  }

  func testTheSnippetLinksEveryOtherLibraryProductAndSomeProvidersByTheirNames() throws {
    let products = try libraryProducts()
    XCTAssertTrue(products.contains("AnalyticsHub"), "Package.swift's products were not read: \(products)")
    let providers = providerProducts(products)
    XCTAssertGreaterThanOrEqual(providers.count, 10, "nine provider products and the umbrella: \(providers)")
    let manifest = readmeAppManifest()
    let linked = manifest.targets.flatMap(\.dependencies).filter { $0.package != nil }.map(\.name)
    XCTAssertEqual(
      Set(linked).subtracting(products), [], "products the snippet links that Package.swift lacks")
    // `PodcastDemo` is the demo's simulator and hand-written mappings, a product only so that the
    // codegen round trip's package can diff them against generated ones; no app links it.
    XCTAssertEqual(
      products.subtracting(providers).subtracting(linked).subtracting(["PodcastDemo"]), [],
      "library products the snippet does not show")
    XCTAssertEqual(linked.count, Set(linked).count, "a product linked twice")
    XCTAssertEqual(Set(linked).intersection(providers).count, 2, "the snippet is a two-provider app")
  }

  func testGettingStartedNamesEveryProviderProduct() throws {
    let readme = try DocExampleCoverageTests.read(Self.gettingStarted)
    let section = try XCTUnwrap(
      readme.range(of: "## Add the package to your app").map { readme[$0.lowerBound...] }
        .flatMap { text in text.range(of: "\n## Adopt").map { String(text[..<$0.lowerBound]) } })
    for product in providerProducts(try libraryProducts()).sorted() {
      XCTAssertTrue(section.contains("`\(product)`"), "Getting started's set-up section names `\(product)`")
    }
  }

  func testTestSupportIsLinkedByTheTestTargetOnly() throws {
    let manifest = readmeAppManifest()
    let app = Set(manifest.targets.filter { !$0.isTest }.flatMap(\.dependencies).map(\.name))
    let tests = Set(manifest.targets.filter(\.isTest).flatMap(\.dependencies).map(\.name))
    XCTAssertEqual(app, ["AnalyticsHub", "FirebaseProvider", "AmplitudeProvider", "TagscopeInspector"])
    XCTAssertTrue(tests.isSuperset(of: ["AnalyticsHubTesting", "TaggingPlan"]), "\(tests)")
  }

  func testPackageIsTheIdentityOfTheURLAndOfTheLocalPath() throws {
    let text = try snippet().code.joined(separator: "\n")
    let locations =
      matches(of: #"\.package\(url: "([^"]+)""#, in: text)
      + matches(of: #"\.package\(path: "([^"]+)""#, in: text)
    XCTAssertEqual(locations.count, 2, "the snippet shows a URL and a local path: \(locations)")
    let identities = Set(locations.map(identity(of:)))
    let named = Set(readmeAppManifest().targets.flatMap(\.dependencies).compactMap(\.package))
    XCTAssertEqual(identities, ["tagscope"])
    XCTAssertEqual(named, identities, "`package:` must be the identity, not the manifest's name")
    XCTAssertEqual(identity(of: "../Tagscope-main"), "tagscope-main")
    XCTAssertEqual(identity(of: "https://example.com/org/Tagscope.git"), "tagscope")
  }

  /// SwiftPM's identity of a dependency: the last path component, without `.git`, lowercased.
  private func identity(of location: String) -> String {
    var last = location.split(separator: "/").last.map(String.init) ?? location
    if last.hasSuffix(".git") { last.removeLast(4) }
    return last.lowercased()
  }

  private func matches(of pattern: String, in text: String) -> [String] {
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
    return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
      Range($0.range(at: 1), in: text).map { String(text[$0]) }
    }
  }
}
