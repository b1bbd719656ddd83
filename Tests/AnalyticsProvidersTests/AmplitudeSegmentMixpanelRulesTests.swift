import AnalyticsHub
import AnalyticsProviders
import XCTest

final class AmplitudeRulesTests: XCTestCase {
  func testValidCallsBreakNoRule() {
    let calls: [AmplitudeCall] = [
      .track(eventType: "Play Podcast", eventProperties: ["podcast_title": "Radiolab"]),
      .identify(userProperties: ["autoplay": true]), .setUserId("u-12345"), .setUserId(nil),
      .setDeviceId("C8F9E604-F01A"), .setGroup(groupType: "plan", groupName: "family"),
      .revenue(productId: "premium", price: 4.99, quantity: 1), .setOptOut(false), .reset,
    ]
    XCTAssertEqual(amplitude(calls), [])
  }

  func testEmptyEventTypeIsRejected() {
    assertSingle(
      amplitude([.track(eventType: "", eventProperties: [:])]), rule: "amplitude.event-type-missing",
      consequence: .rejected)
  }

  func testReservedEventTypeIsRejected() {
    for eventType in ["[Amplitude] Start Session", "$identify"] {
      assertSingle(
        amplitude([.track(eventType: eventType, eventProperties: [:])]),
        rule: "amplitude.event-type-reserved",
        consequence: .rejected)
    }
  }

  func testShortIDsAreDropped() {
    assertSingle(amplitude([.setUserId("u-42")]), rule: "amplitude.id-length", consequence: .dropped)
    assertSingle(amplitude([.setDeviceId("abcd")]), rule: "amplitude.id-length", consequence: .dropped)
  }

  func testPlaceholderIDsAreDropped() {
    for id in ["null", "Anonymous", "undefined", "00000000-0000-0000-0000-000000000000"] {
      assertSingle(amplitude([.setUserId(id)]), rule: "amplitude.id-invalid", consequence: .dropped)
    }
  }

  func testStringsOver1024AreTruncated() {
    let long = String(repeating: "x", count: 1025)
    assertSingle(
      amplitude([.track(eventType: "Play", eventProperties: ["title": .string(long)])]),
      rule: "amplitude.string-length",
      consequence: .truncated)
    assertSingle(
      amplitude([.identify(userProperties: ["bio": .string(long)])]), rule: "amplitude.string-length",
      consequence: .truncated)
  }
}

final class SegmentRulesTests: XCTestCase {
  func testValidCallsBreakNoRule() {
    let calls: [SegmentCall] = [
      .track(name: "Play Podcast", properties: ["title": "Radiolab"]),
      .screen(title: "Favorites", category: "library", properties: [:]),
      .identify(userId: "u-42", traits: ["plan": "free"]), .group(groupId: "g-1", traits: [:]),
      .alias(newId: "u-43"),
      .reset,
    ]
    XCTAssertEqual(segment(calls), [])
  }

  func testEmptyEventNameIsRejected() {
    assertSingle(
      segment([.track(name: "", properties: [:])]), rule: "segment.event-name-missing", consequence: .rejected
    )
  }

  func testEmptyIdentifiers() {
    assertSingle(
      segment([.group(groupId: "", traits: [:])]), rule: "segment.identifier-missing", consequence: .rejected)
    assertSingle(segment([.alias(newId: "")]), rule: "segment.identifier-missing", consequence: .rejected)
    assertSingle(
      segment([.identify(userId: "", traits: ["plan": "free"])]), rule: "segment.identifier-missing",
      consequence: .degraded)
  }

  func testRecordedMessageWithoutUserOrAnonymousIDIsRejected() {
    let recorded = CallDescription(
      method: "track", name: "Play Podcast",
      parameters: ["userId": nil, "anonymousId": "", "title": "Radiolab"])
    assertSingle(
      ProviderRules.check(provider: "segment", calls: [recorded]), rule: "segment.identity-missing",
      consequence: .rejected)
    let identified = CallDescription(
      method: "track", name: "Play Podcast", parameters: ["userId": "u-42", "anonymousId": nil])
    XCTAssertEqual(ProviderRules.check(provider: "segment", calls: [identified]), [])
  }

  func testMessageOver32KBIsRejected() {
    let big = String(repeating: "x", count: 33 * 1024)
    assertSingle(
      segment([.track(name: "Play", properties: ["blob": .string(big)])]), rule: "segment.message-size",
      consequence: .rejected)
    let fits = String(repeating: "x", count: 30 * 1024)
    XCTAssertEqual(segment([.track(name: "Play", properties: ["blob": .string(fits)])]), [])
  }
}

final class MixpanelRulesTests: XCTestCase {
  func testValidCallsBreakNoRule() {
    let calls: [MixpanelCall] = [
      .track(
        event: "Play Podcast", properties: ["title": "Radiolab", "$insert_id": "29fc2962-6d9c-455d-95ad"]),
      .identify(distinctId: "u-42"), .peopleSet(["plan": "free"]),
      .registerSuperProperties(["voice_over": true]),
      .unregisterSuperProperty("voice_over"), .time(event: "Onboarding"), .clearTimedEvent("Onboarding"),
      .setOptOut(true), .reset,
    ]
    XCTAssertEqual(mixpanel(calls), [])
  }

  func testEmptyEventNameIsReplaced() {
    assertSingle(
      mixpanel([.track(event: "", properties: [:])]), rule: "mixpanel.event-name-missing",
      consequence: .replaced)
  }

  func testTooManyPropertiesIsRejected() {
    XCTAssertEqual(mixpanel([.track(event: "Big", properties: manyProperties(254))]), [])
    assertSingle(
      mixpanel([.track(event: "Big", properties: manyProperties(255))]), rule: "mixpanel.property-count",
      consequence: .rejected)
  }

  func testInsertIDOver36BytesIsRejected() {
    let insertID = String(repeating: "a", count: 37)
    assertSingle(
      mixpanel([.track(event: "Play", properties: ["$insert_id": .string(insertID)])]),
      rule: "mixpanel.insert-id",
      consequence: .rejected)
    assertSingle(
      mixpanel([.track(event: "Play", properties: ["$insert_id": "not_alnum!"])]), rule: "mixpanel.insert-id",
      consequence: .rejected)
  }

  func testStringsOver255BytesAreTruncated() {
    assertSingle(
      mixpanel([.registerSuperProperties(["bio": .string(String(repeating: "é", count: 128))])]),
      rule: "mixpanel.string-length", consequence: .truncated)
  }

  func testLongArraysAndWideObjectsAreRejected() {
    let array = PropertyValue.array(Array(repeating: 1, count: 255))
    assertSingle(
      mixpanel([.track(event: "Play", properties: ["ids": array])]), rule: "mixpanel.array-length",
      consequence: .rejected)
    assertSingle(
      mixpanel([.track(event: "Play", properties: ["nested": .object(manyProperties(255))])]),
      rule: "mixpanel.object-keys", consequence: .rejected)
  }
}
