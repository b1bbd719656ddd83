import XCTest

@testable import TaggingPlanCodegen

/// Plan names made valid Swift: camel case, keywords escaped, non-identifiers normalised,
/// collisions numbered in the order names are claimed.
final class SwiftNamingTests: XCTestCase {
  func testWordsBecomeCamelCase() {
    XCTAssertEqual(SwiftIdentifier.bare("play_podcast", style: .lower), "playPodcast")
    XCTAssertEqual(SwiftIdentifier.bare("Order Completed", style: .lower), "orderCompleted")
    XCTAssertEqual(SwiftIdentifier.bare("podcastPlayer", style: .upper), "PodcastPlayer")
    XCTAssertEqual(SwiftIdentifier.bare("user_ID", style: .lower), "userId")
    XCTAssertEqual(SwiftIdentifier.bare("page.display", style: .lower), "pageDisplay")
  }

  func testNonIdentifiersAreNormalised() {
    XCTAssertEqual(
      SwiftIdentifier.bare("42_--terrible==\\\"event'++name~!3", style: .lower), "n42TerribleEventName3")
    XCTAssertEqual(SwiftIdentifier.bare("$required_bytes", style: .lower), "requiredBytes")
    XCTAssertEqual(SwiftIdentifier.bare("🎧", style: .lower), "unnamed")
    XCTAssertEqual(SwiftIdentifier.bare("", style: .upper), "Unnamed")
    XCTAssertEqual(SwiftIdentifier.bare("café au lait", style: .lower), "cafAuLait")
  }

  func testKeywordsAreEscapedOrSuffixed() {
    var scope = NameScope()
    XCTAssertEqual(scope.claim("default", style: .lower), "`default`")
    XCTAssertEqual(scope.claim("self", style: .lower), "self_")
    XCTAssertEqual(scope.claim("init", style: .lower), "init_")
    XCTAssertEqual(scope.claim("Type", style: .upper), "Type_")
  }

  func testCollisionsAreNumberedInClaimOrder() {
    var scope = NameScope(reserved: ["name"])
    XCTAssertEqual(scope.claim("play_podcast", style: .lower), "playPodcast")
    XCTAssertEqual(scope.claim("play podcast", style: .lower), "playPodcast2")
    XCTAssertEqual(scope.claim("PlayPodcast", style: .lower), "playPodcast3")
    XCTAssertEqual(scope.claim("name", style: .lower), "name2", "a member the type declares is taken")
    XCTAssertEqual(scope.claim("default", style: .lower), "`default`")
    XCTAssertEqual(scope.claim("Default", style: .lower), "default2")
  }

  func testStringLiteralsReadBackAsWritten() {
    XCTAssertEqual(SwiftLiteral.string("a\"b\\c\n\u{202E}é"), "\"a\\\"b\\\\c\\n\\u{202E}\\u{E9}\"")
    XCTAssertEqual(SwiftLiteral.string("\\(x)"), "\"\\\\(x)\"")
  }
}
