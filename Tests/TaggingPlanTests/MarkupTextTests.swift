import Foundation
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The one markup escaper of the JUnit, HTML and diff reports.
final class MarkupTextTests: XCTestCase {
  func testMarkupCharactersBecomeReferences() {
    XCTAssertEqual(MarkupText.escape("<'\"&>"), "&lt;&#39;&quot;&amp;&gt;")
    XCTAssertEqual(MarkupText.escape("plain text"), "plain text")
    XCTAssertEqual(MarkupText.escape("écoute 😀"), "écoute 😀")
  }

  func testControlAndBidiCharactersAreReplaced() {
    XCTAssertEqual(MarkupText.escape("a\u{0}b\u{1B}[31m\u{85}"), "a\u{FFFD}b\u{FFFD}[31m\u{FFFD}")
    XCTAssertEqual(
      MarkupText.escape("\u{202E}x\u{2066}\u{7F}\u{FFFE}\u{FFFF}"),
      "\u{FFFD}x\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}")
    XCTAssertEqual(MarkupText.escape("a\tb\nc\rd"), "a\tb\nc&#13;d")
  }

  /// Every character XML 1.0 forbids, escaped into content and a quoted attribute, leaves the
  /// document well formed, and the content reads back as the text with U+FFFD in their place.
  func testEveryControlCharacterLeavesWellFormedXML() throws {
    let scalars = (0..<0xA0).compactMap(Unicode.Scalar.init) + ["\u{FFFE}", "\u{FFFF}", "😀"]
    let text = String(String.UnicodeScalarView(scalars))
    let escaped = MarkupText.escape(text)
    let document = "<?xml version=\"1.0\"?><a b=\"\(escaped)\" c='\(escaped)'>\(escaped)</a>"
    let reader = ContentReader()
    let parser = XMLParser(data: Data(document.utf8))
    parser.delegate = reader
    XCTAssertTrue(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    let kept: (Unicode.Scalar) -> Bool = {
      [0x09, 0x0A, 0x0D].contains($0.value) || (0x20..<0x7F).contains($0.value)
    }
    let expected = String(String.UnicodeScalarView(scalars.map { kept($0) || $0 == "😀" ? $0 : "\u{FFFD}" }))
    XCTAssertEqual(reader.content, expected)
    XCTAssertEqual(reader.attributes["b"], reader.attributes["c"])
  }
}

/// Collects the text and attributes of a one-element document.
private final class ContentReader: NSObject, XMLParserDelegate {
  var content = ""
  var attributes: [String: String] = [:]

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String]
  ) {
    self.attributes = attributes
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { content += string }
}
