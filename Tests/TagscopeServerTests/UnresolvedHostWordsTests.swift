import NIOCore
import XCTest

@testable import TagscopeServer

/// A host the proxy's resolver cannot resolve fails with its own error (NIO's `.unknown` case is
/// deprecated, its replacement cannot be made outside NIO), said in the same plain words.
final class UnresolvedHostWordsTests: XCTestCase {
  func testAnUnresolvedHostIsSaidInPlainWords() {
    let error = UnresolvedHost(host: "vendor.invalid", port: 443, code: -2)
    XCTAssertEqual(SystemErrorWords.reason(error), "the name does not resolve")
    XCTAssertTrue("\(error)".contains("vendor.invalid:443"))
  }
}
