import Foundation
import XCTest

/// Every Swift block of README.md, of the DocC catalogs' articles (`Sources/*/*.docc/*.md`) and of
/// the `///` comments in Sources has a compiled copy under
/// Tests/DocExamplesTests/Examples, line for line (whitespace aside; its imports at the top of the
/// copy's file; doc comment lines there do not count), so an example edited without its copy, or
/// added without one, fails here, and a copy that stops compiling fails the build.
///
/// A copy may sit inside whatever declarations the block needs (a test function, a namespace, the
/// app's `hub`): the block itself is compiled as written. Blocks in another language (`sh`,
/// `yaml`, `json`, `text`) are not Swift; a block that names no language is Swift, as in DocC.
/// README's Package.swift snippet, marked `<!-- doc-example: manifest -->`, is compiled against a
/// look-alike of PackageDescription, and ``ManifestSnippetTests`` checks it against Package.swift;
/// its quick start's whole Package.swift, marked `<!-- doc-example: new-user -->`, is built by
/// scripts/new-user as a real package.
final class DocExampleCoverageTests: XCTestCase {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func read(_ relativePath: String) throws -> String {
    try String(contentsOf: packageRoot.appendingPathComponent(relativePath), encoding: .utf8)
  }

  /// The package's `.swift` files under `folder`, as paths relative to the package.
  static func swiftFiles(under folder: String) throws -> [String] {
    let base = packageRoot.appendingPathComponent(folder)
    guard let walker = FileManager.default.enumerator(atPath: base.path) else {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: base.path])
    }
    return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
      .map { folder + "/" + $0 }
  }

  static func readmeExamples() throws -> [DocExample] {
    DocExampleScanner.markdownExamples(try read("README.md"), file: "README.md")
  }

  /// The articles of the DocC catalogs inside the library targets (`Sources/X/X.docc/*.md`).
  static func catalogArticles() throws -> [String] {
    let base = packageRoot.appendingPathComponent("Sources")
    guard let walker = FileManager.default.enumerator(atPath: base.path) else {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: base.path])
    }
    return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".md") && $0.contains(".docc/") }
      .sorted()
      .map { "Sources/" + $0 }
  }

  static func catalogExamples() throws -> [DocExample] {
    try catalogArticles().flatMap { DocExampleScanner.markdownExamples(try read($0), file: $0) }
  }

  static func sourceExamples() throws -> [DocExample] {
    try swiftFiles(under: "Sources").flatMap { DocExampleScanner.docCommentExamples(try read($0), file: $0) }
  }

  /// Compiled copies outside Tests/DocExamplesTests/Examples.
  static let elsewhere = [
    "Tests/TaggingPlanTests/ReadmePlanExampleTests.swift",
    "Tests/TagscopeLiveTests/ReadmeUITestExample.swift",
    "Tests/TagscopeLiveTests/ReadmeUITestScopeExample.swift",
    "Tests/TagscopeLiveTests/ReadmeUITestSupport.swift",
  ]

  func testEveryReadmeAndDocCommentSwiftExampleHasACompiledCopy() throws {
    let readme = try Self.readmeExamples() + Self.catalogExamples()
    let sources = try Self.sourceExamples()
    // The scanner finds them (so this test cannot pass by finding nothing).
    XCTAssertGreaterThanOrEqual(readme.filter(\.isSwift).count, 6, "README's and the catalogs' Swift blocks")
    XCTAssertGreaterThanOrEqual(try Self.catalogArticles().count, 6, "the DocC catalogs' articles")
    XCTAssertGreaterThanOrEqual(sources.filter(\.isSwift).count, 10, "doc comments' Swift blocks")

    var copies: [String: [String]] = [:]
    // Examples that need a module of their own (the app-test example uses PodcastDemo's taxonomy,
    // which would clash with the examples' own) live in the test target that compiles them.
    for file in try Self.swiftFiles(under: "Tests/DocExamplesTests/Examples") + Self.elsewhere {
      copies[file] = DocExampleScanner.compiledLines(try Self.read(file))
    }
    XCTAssertFalse(copies.isEmpty, "no compiled copies found")

    var failures: [String] = []
    for example in readme + sources where example.isSwift {
      if let marker = example.marker, marker != "manifest" {
        // README's quick start Package.swift: scripts/new-user builds it with SwiftPM itself (a
        // test target cannot import PackageDescription).
        if marker == "new-user" { continue }
        failures.append("\(example.location): unknown marker <!-- doc-example: \(marker) -->")
      }
      if let line = DocExampleScanner.missingLine(of: example, in: copies) {
        failures.append(
          "\(example.location): this Swift block has no compiled copy in Tests/DocExamplesTests/Examples; "
            + "the first line no copy matches: \(line)")
      }
    }
    XCTAssert(
      failures.isEmpty,
      "\n" + failures.joined(separator: "\n")
        + "\nCopy each block verbatim into Tests/DocExamplesTests/Examples (inside the declarations it "
        + "needs), or update its copy; a block that is not Swift names its language (```sh, ```text).")
  }
}
