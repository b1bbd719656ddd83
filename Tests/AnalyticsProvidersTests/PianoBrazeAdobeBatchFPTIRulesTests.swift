import AnalyticsHub
import AnalyticsProviders
import XCTest

final class PianoRulesTests: XCTestCase {
  func testValidCallsBreakNoRule() {
    let calls: [PianoCall] = [
      .pageDisplay("podcasts", chapters: ["catalogue"]), .click(.action, "add_favorite"),
      .click(.navigation, "open_podcast"), .click(.download, "download_podcast"), .click(.exit, "website"),
      .sendEvent(name: "player.error", properties: ["error": "timeout"]),
      .setUser(id: "u-42", category: "premium"),
      .deleteUser, .privacySetMode(.optin),
      .setProperty(key: "session_state", value: "authenticated", persistent: true),
    ]
    XCTAssertEqual(piano(calls), [])
  }

  func testEmptyEventNameIsDropped() {
    assertSingle(
      piano([.sendEvent(name: "", properties: [:])]), rule: "piano.event-name-missing", consequence: .dropped)
  }

  func testPageDisplayWithoutPageIsDegraded() {
    assertSingle(
      piano([.sendEvent(name: "page.display", properties: ["page_chapter1": "library"])]),
      rule: "piano.page-display-page", consequence: .degraded)
  }

  func testClickWithoutClickIsDegraded() {
    assertSingle(
      piano([.sendEvent(name: "click.action", properties: ["click_chapter1": "library"])]),
      rule: "piano.click-name",
      consequence: .degraded)
  }

  func testNonStandardClickIsDegraded() {
    assertSingle(
      piano([.sendEvent(name: "click.tap", properties: ["click": "play"])]), rule: "piano.click-type",
      consequence: .degraded)
  }

  func testPropertyKeyOver40IsDropped() {
    let key = String(repeating: "k", count: 41)
    assertSingle(
      piano([.sendEvent(name: "player.error", properties: [key: "x"])]), rule: "piano.property-key-length",
      consequence: .dropped)
  }

  func testStringOver255IsTruncated() {
    assertSingle(
      piano([.pageDisplay("podcasts", ["summary": .string(String(repeating: "s", count: 256))])]),
      rule: "piano.string-length", consequence: .truncated)
  }
}

final class BrazeRulesTests: XCTestCase {
  func testValidCallsBreakNoRule() {
    let calls: [BrazeCall] = [
      .logCustomEvent(name: "podcast_played", properties: ["podcast_title": "Radiolab"]),
      .logPurchase(
        productId: "premium", currency: "EUR", price: 4.99, quantity: 1, properties: ["plan": "family"]),
      .changeUser(userId: "u-42"), .setCustomAttribute(key: "autoplay", value: true),
      .unsetCustomAttribute(key: "autoplay"), .incrementCustomUserAttribute(key: "plays", by: 1),
    ]
    XCTAssertEqual(braze(calls), [])
  }

  func testEmptyEventNameIsDropped() {
    assertSingle(
      braze([.logCustomEvent(name: "", properties: [:])]), rule: "braze.event-name-missing",
      consequence: .dropped)
  }

  func testLeadingDollarKeyIsDropped() {
    assertSingle(
      braze([.logCustomEvent(name: "download_failed", properties: ["$required_bytes": 1])]),
      rule: "braze.key-dollar",
      consequence: .dropped)
    assertSingle(
      braze([.setCustomAttribute(key: "$plan", value: "free")]), rule: "braze.key-dollar",
      consequence: .dropped)
  }

  func testKeyOver255IsDropped() {
    let key = String(repeating: "k", count: 256)
    assertSingle(
      braze([.logCustomEvent(name: "played", properties: [.init(stringLiteral: key): 1])]),
      rule: "braze.key-length",
      consequence: .dropped)
  }

  func testReservedKeysAreRejected() {
    for key in ["time", "event_name"] {
      assertSingle(
        braze([.logCustomEvent(name: "played", properties: [.init(stringLiteral: key): 1])]),
        rule: "braze.property-key-reserved", consequence: .rejected)
    }
  }

  func testPropertyValueOver255IsTruncated() {
    assertSingle(
      braze([
        .logCustomEvent(name: "played", properties: ["title": .string(String(repeating: "t", count: 256))])
      ]),
      rule: "braze.property-value-length", consequence: .truncated)
  }

  func testAttributeValueOver255IsTruncated() {
    assertSingle(
      braze([.setCustomAttribute(key: "bio", value: .string(String(repeating: "b", count: 256)))]),
      rule: "braze.attribute-value-length", consequence: .truncated)
  }

  func testPurchaseCurrencyMustBeISO4217() {
    assertSingle(
      braze([.logPurchase(productId: "premium", currency: "euro", price: 4.99, quantity: 1, properties: [:])]
      ),
      rule: "braze.purchase-currency", consequence: .dropped)
  }
}

final class AdobeRulesTests: XCTestCase {
  func testValidCallsBreakNoRule() {
    let calls: [AdobeCall] = [
      .trackState("podcasts", contextData: ["podcast.app.screen": "podcasts"]),
      .trackAction("play_podcast", contextData: ["podcast_title": "Radiolab"]), .setPrivacyStatus(.optedIn),
      .syncIdentifier(type: "crm", identifier: "u-42", authenticated: true),
    ]
    XCTAssertEqual(adobe(calls), [])
  }

  func testEmptyStateIsDegraded() {
    assertSingle(
      adobe([.trackState("", contextData: [:])]), rule: "adobe.state-empty", consequence: .degraded)
  }

  func testReservedANamespaceIsDegraded() {
    assertSingle(
      adobe([.trackAction("play", contextData: ["a.LaunchEvent": "1"])]), rule: "adobe.context-key-reserved",
      consequence: .degraded)
  }

  func testContextKeyCharacters() {
    assertSingle(
      adobe([.trackAction("play", contextData: ["podcast title": "Radiolab"])]),
      rule: "adobe.context-key-characters",
      consequence: .degraded)
  }

  func testAdapterReceivesStringContextData() {
    let adapter = RecordingAdobe()
    adapter.deliver(.trackState("podcasts", contextData: ["count": 3, "voice_over": true, "none": nil]))
    XCTAssertEqual(adapter.received, ["podcasts": ["count": "3", "voice_over": "true"]])
  }
}

final class RecordingAdobe: AdobeAdapter, @unchecked Sendable {
  var received: [String: [String: String]] = [:]
  func trackState(_ state: String, data: [String: String]) { received[state] = data }
  func trackAction(_ action: String, data: [String: String]) { received[action] = data }
  func setPrivacyStatus(_ status: AdobePrivacyStatus) {}
  func syncIdentifier(type: String, identifier: String, authenticated: Bool) {}
}

final class BatchRulesTests: XCTestCase {
  func testValidCallsBreakNoRule() {
    let calls: [BatchCall] = [
      .trackEvent(
        name: "podcast_played", label: "favorites", tags: ["tech"], attributes: ["podcast_title": "Radiolab"]),
      .setAttribute(key: "autoplay", value: true), .removeAttribute(key: "autoplay"),
      .addTag("tech", collection: "interests"), .removeTag("tech", collection: "interests"),
      .identify(customID: "u-42"),
    ]
    XCTAssertEqual(batch(calls), [])
  }

  func testEventNameFormat() {
    for name in ["Podcast_Played", "podcast-played", String(repeating: "e", count: 31), ""] {
      assertSingle(
        batch([.trackEvent(name: name, label: nil, tags: [], attributes: [:])]), rule: "batch.event-name",
        consequence: .dropped)
    }
  }

  func testLabelOver200IsIgnored() {
    assertSingle(
      batch([
        .trackEvent(name: "played", label: String(repeating: "l", count: 201), tags: [], attributes: [:])
      ]),
      rule: "batch.event-label-length", consequence: .dropped)
  }

  func testMoreThan10TagsAreDiscarded() {
    let tags = (0..<11).map { "t\($0)" }
    assertSingle(
      batch([.trackEvent(name: "played", label: nil, tags: tags, attributes: [:])]),
      rule: "batch.event-tag-count",
      consequence: .dropped)
  }

  func testMoreThan15AttributesAreDiscarded() {
    XCTAssertEqual(
      batch([.trackEvent(name: "played", label: "x", tags: [], attributes: manyProperties(15))]), [])
    assertSingle(
      batch([.trackEvent(name: "played", label: nil, tags: [], attributes: manyProperties(16))]),
      rule: "batch.event-attribute-count", consequence: .dropped)
  }

  func testEventAttributeNameFormat() {
    assertSingle(
      batch([.trackEvent(name: "played", label: nil, tags: [], attributes: ["podcastTitle": "x"])]),
      rule: "batch.event-attribute-name", consequence: .dropped)
  }

  func testProfileAttributeNameAndValue() {
    assertSingle(
      batch([.setAttribute(key: "Has-Premium", value: true)]), rule: "batch.attribute-name",
      consequence: .dropped)
    assertSingle(
      batch([.setAttribute(key: "bio", value: .string(String(repeating: "b", count: 301)))]),
      rule: "batch.attribute-value-length", consequence: .dropped)
  }

  func testTagCollectionAndTagLength() {
    assertSingle(
      batch([.addTag("tech", collection: "My Interests")]), rule: "batch.tag-collection-name",
      consequence: .dropped)
    assertSingle(
      batch([.addTag(String(repeating: "t", count: 65), collection: "interests")]), rule: "batch.tag-length",
      consequence: .dropped)
  }
}

final class FPTIRulesTests: XCTestCase {
  func testEveryEventTypeIsValid() {
    let calls = EventType.allCases.map {
      FPTICall.event(name: "play_podcast", category: "library", type: $0, properties: [:])
    }
    XCTAssertEqual(fpti(calls), [])
    XCTAssertEqual(calls.map { $0.parameters["e"]?.stringValue }, ["ac", "cl", "im", "rd", "ua"])
  }

  func testEmptyNameIsDegraded() {
    assertSingle(
      fpti([.event(name: "", category: "library", type: .click, properties: [:])]),
      rule: "fpti.event-name-missing",
      consequence: .degraded)
  }

  func testRecordedEventWithoutTypeIsFineAndWithAnUnknownTypeIsDegraded() {
    // PayPal's own SDKs send no e (paypal-ios AnalyticsEventData, braintree FPTIBatchData).
    let missing = CallDescription(method: "event", name: "play_podcast", parameters: ["category": "library"])
    XCTAssertEqual(ProviderRules.check(provider: "fpti", calls: [missing]), [])
    let unknown = CallDescription(method: "event", name: "play_podcast", parameters: ["e": "xx"])
    assertSingle(
      ProviderRules.check(provider: "paypal", calls: [unknown]), rule: "fpti.event-type-invalid",
      consequence: .degraded)
  }
}
