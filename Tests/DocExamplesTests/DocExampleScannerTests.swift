import XCTest

/// The scanner finds what the coverage test checks, and the matching tells a copy from a changed
/// one.
final class DocExampleScannerTests: XCTestCase {
  private let source = """
    import AnalyticsHub

    /// A thing.
    ///
    /// ```swift
    /// let hub = try AnalyticsHub<App>()
    /// hub.send(screen: .home)  // a comment
    /// ```
    ///
    /// ```yaml
    /// plan: Podcasts
    /// ```
    ///
    /// ```
    /// unnamed()
    /// ```
    ///
    /// A paragraph.
    ///
    ///     indented()
    ///     code()
    ///
    /// - Parameters:
    ///   - x: a list item
    ///
    ///     continued, not code
    public struct Thing {
      /// Not a fence: `code`.
      public var x: Int
    }
    """

  func testFindsFencedAndIndentedBlocksOfDocCommentsWithTheirLines() {
    let found = DocExampleScanner.docCommentExamples(source, file: "Sources/Thing.swift")
    XCTAssertEqual(found.map(\.line), [5, 10, 14, 20])
    XCTAssertEqual(found.map(\.language), ["swift", "yaml", "", ""])
    XCTAssertEqual(found.map(\.isSwift), [true, false, true, true])
    XCTAssertEqual(
      found[0].code, ["let hub = try AnalyticsHub<App>()", "hub.send(screen: .home)  // a comment"])
    XCTAssertEqual(found[3].code, ["indented()", "code()"])
    XCTAssertEqual(found[0].location, "Sources/Thing.swift:5")
  }

  func testFindsMarkdownBlocksAndTheirMarkers() {
    let readme = """
      # Title

      ```sh
      scripts/test
      ```

      <!-- doc-example: manifest -->
      ```swift
      dependencies: []
      ```

      1. A step:

         ```swift
         step()
         ```
      """
    let found = DocExampleScanner.markdownExamples(readme, file: "README.md")
    XCTAssertEqual(found.map(\.language), ["sh", "swift", "swift"])
    XCTAssertEqual(found.map(\.isSwift), [false, true, true])
    XCTAssertEqual(found.map(\.marker), [nil, "manifest", nil])
    XCTAssertEqual(found.map(\.line), [3, 8, 14])
    XCTAssertEqual(found[2].code, ["step()"])
  }

  func testEverySwiftLanguageIsSwift() {
    let languages = ["swift", "Swift", "swift-fragment", "", "sh", "yaml", "json", "text"]
    let found = languages.flatMap {
      DocExampleScanner.markdownExamples("```\($0)\ncode()\n```", file: "README.md")
    }
    XCTAssertEqual(found.map(\.isSwift), [true, true, true, true, false, false, false, false])
  }

  func testACopyMatchesWhateverItsIndentationAndOnlyWithItsImports() {
    let example = DocExample(
      file: "README.md", line: 1, language: "swift", marker: nil,
      code: ["import AnalyticsHubTesting", "", "let a  = 1", "  f(a)"])
    let copy = DocExampleScanner.compiledLines(
      """
      import AnalyticsHubTesting
      func test() {
          let a = 1
        f(a)
      }
      """)
    XCTAssertNil(DocExampleScanner.missingLine(of: example, in: ["Copy.swift": copy]))

    let withoutImport = DocExampleScanner.compiledLines("func test() {\n  let a = 1\n  f(a)\n}")
    XCTAssertEqual(
      DocExampleScanner.missingLine(of: example, in: ["Copy.swift": withoutImport]),
      "import AnalyticsHubTesting  (not imported by the copy's file)")
  }

  func testAChangedLineASplitCopyOrACopyInADocCommentDoesNotMatch() {
    let example = DocExample(
      file: "README.md", line: 1, language: "swift", marker: nil, code: ["let a = 1", "f(a)", "g(a)"])
    let changed = DocExampleScanner.compiledLines("let a = 1\nf(a)\ng(b)")
    XCTAssertEqual(DocExampleScanner.missingLine(of: example, in: ["Copy.swift": changed]), "g(a)")
    let split = DocExampleScanner.compiledLines("let a = 1\nf(a)\nprint(a)\ng(a)")
    XCTAssertEqual(DocExampleScanner.missingLine(of: example, in: ["Copy.swift": split]), "g(a)")
    let documented = DocExampleScanner.compiledLines("/// let a = 1\n/// f(a)\n/// g(a)")
    XCTAssertEqual(DocExampleScanner.missingLine(of: example, in: ["Copy.swift": documented]), "let a = 1")
  }
}
