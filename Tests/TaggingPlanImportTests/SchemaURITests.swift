import XCTest

@testable import TaggingPlanImport

/// `$id` and `$ref` resolution follows RFC 3986 §5.2: its section 5.4 examples, and the URNs and
/// fragments JSON Schema documents use.
final class SchemaURITests: XCTestCase {
  func testTheRFCExamplesResolve() {
    let base = SchemaURI("http://a/b/c/d;p?q")
    let examples: [(String, String)] = [
      ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
      ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
      ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("", "http://a/b/c/d;p?q"),
      (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"), ("../g", "http://a/b/g"),
      ("../..", "http://a/"), ("../../g", "http://a/g"), ("../../../g", "http://a/g"),
      ("/./g", "http://a/g"), ("g.", "http://a/b/c/g."), ("g/../h", "http://a/b/c/h"),
    ]
    for (reference, expected) in examples {
      XCTAssertEqual(base.resolving(reference).text, expected, reference)
    }
  }

  func testURNsFragmentsAndNoBase() {
    let urn = SchemaURI("urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed")
    XCTAssertEqual(
      urn.resolving("#/$defs/bar").text, "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed#/$defs/bar")
    XCTAssertEqual(urn.resolving("#/$defs/bar").resource, urn.text)
    XCTAssertEqual(SchemaURI("").resolving("#foo").text, "#foo")
    XCTAssertEqual(SchemaURI("").resolving("other.json#/a").resource, "other.json")
    XCTAssertEqual(SchemaURI("http://x/y/root.json").resolving("#").fragment, "")
  }
}
