import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

/// `IdentityShape`: what `tagscope diff` and `tagscope plan infer` take for identity or content
/// (a value) rather than a name.
final class IdentityShapeTests: XCTestCase {
  func testIdsAreIdShaped() {
    let ids = [
      "user-1334", "user-42", "u-42", "u-4", "p3", "user1334", "anon_user_0042", "s-1-1", "1334", "0042",
      "123e4567-e89b-12d3-a456-426614174000", "9f86d081884c7d65", "DEADBEEF00112233aa",
      "someone@example.com", "2026-11-24", "2026-11-24T19:05:00Z", "2026-11-24T19:05:00.123+01:00",
      "a8Xk29fQ03Lm58Zp71Rt", "msg:4821",
    ]
    for id in ids { XCTAssertTrue(IdentityShape.isIdShaped(id), id) }
  }

  func testNamesAreNot() {
    let names = [
      "", "play_podcast", "Screen Viewed", "identify", "setUser", "ipv6", "level2", "3.2.0", "v1.2",
      "category:marketing", "HTTP 503", "AVErrorMediaServicesWereReset", "remove_podcast_from_favorites",
      "free", "premium", "podcast-player", "deadbeef", "2026-11", "user-", "-42",
    ]
    for name in names { XCTAssertFalse(IdentityShape.isIdShaped(name), name) }
  }

  func testIdentityNamesAndKeys() {
    XCTAssertTrue(IdentityShape.isIdentityName("alice", method: "identify"))
    XCTAssertTrue(IdentityShape.isIdentityName("user-1877", method: "setUserProperty"))
    XCTAssertFalse(IdentityShape.isIdentityName("plan", method: "setUserProperty"))
    for key in [
      "id", "podcast_id", "podcastId", "userID", "anonymousId", "messageId", "item.id", "timestamp",
      "sent_at",
      "createdAt", "email", "device-id", "uuid",
    ] {
      XCTAssertTrue(IdentityShape.isIdentityKey(key), key)
    }
    for key in [
      "paid", "valid", "android", "ANDROID", "podcast_title", "method", "quality", "format", "At",
    ] {
      XCTAssertFalse(IdentityShape.isIdentityKey(key), key)
    }
  }

  func testFreeText() {
    XCTAssertTrue(IdentityShape.isFreeText(String(repeating: "a", count: 41)))
    XCTAssertTrue(IdentityShape.isFreeText("two\nlines"))
    XCTAssertFalse(IdentityShape.isFreeText("Accidental Tech Podcast"))
  }
}
