/// Payloads shaped as each official SDK sends them (mobile and browser where they differ), one
/// device each: a screen or page call, then an event. Each names the SDK source it follows.
enum SDKDeviceFixtures {
  /// One device's requests and what `listen` should make of them.
  struct Fixture {
    var name: String
    /// `(method, path and query, body)`, sent in order.
    var requests: [(method: String, path: String, body: String)]
    /// The source label of every record.
    var source: String
    /// The screen the last record's context names.
    var screen: String
    /// The session id and user of the last record (`nil`: anonymous).
    var session: String
    var user: String?
  }

  /// segmentio/analytics-swift `Sources/Segment/Plugins/Context.swift`: `context.app`,
  /// `context.device` (`id` is identifierForVendor), `context.os`; an anonymous visitor.
  static let segmentIOS = Fixture(
    name: "Segment iOS",
    requests: [
      (
        "POST", "/v1/batch",
        #"{"batch":[{"type":"screen","name":"Bravo Cart","anonymousId":"b0e1c2d3-a4b5-4c6d-8e7f-8091a2b3c4d5","messageId":"m-1","timestamp":"2026-11-25T10:00:00.000Z","properties":{},\#(segmentIOSContext)},{"type":"track","event":"Add To Cart","anonymousId":"b0e1c2d3-a4b5-4c6d-8e7f-8091a2b3c4d5","messageId":"m-2","timestamp":"2026-11-25T10:00:05.000Z","properties":{"sku":"B-1"},\#(segmentIOSContext)}],"writeKey":"k","sentAt":"2026-11-25T10:00:06.000Z"}"#
      )
    ], source: "Shop@iPhone15,2 · 4F2A", screen: "Bravo Cart", session: "", user: nil)

  private static let segmentIOSContext =
    #""context":{"library":{"name":"analytics-swift","version":"1.5.11"},"app":{"name":"Shop","version":"2.1","build":"42","namespace":"com.example.shop"},"device":{"manufacturer":"Apple","type":"ios","model":"iPhone15,2","name":"iPhone","id":"4F2A9C1B-7E3D-4B8A-9F10-2C5D6E7F8091"},"os":{"name":"iOS","version":"17.2"},"screen":{"width":393,"height":852},"network":{"wifi":true,"cellular":false,"bluetooth":false},"timezone":"Europe/Paris","locale":"fr-FR"}"#

  /// segmentio/analytics-kotlin `android/…/plugins/AndroidContextPlugin.kt`: `device.id` is
  /// ANDROID_ID, `device.model` `Build.MODEL`, `os.name` `Android`; an identified user.
  static let segmentAndroid = Fixture(
    name: "Segment Android",
    requests: [
      (
        "POST", "/v1/batch",
        #"{"batch":[{"type":"identify","userId":"user-7","anonymousId":"e2f3a4b5-c6d7-4e8f-9a0b-1c2d3e4f5a6b","traits":{"plan":"pro"},"messageId":"m-1",\#(segmentAndroidContext)},{"type":"screen","name":"Home","userId":"user-7","anonymousId":"e2f3a4b5-c6d7-4e8f-9a0b-1c2d3e4f5a6b","properties":{},"messageId":"m-2",\#(segmentAndroidContext)},{"type":"track","event":"Search","userId":"user-7","anonymousId":"e2f3a4b5-c6d7-4e8f-9a0b-1c2d3e4f5a6b","properties":{"query":"shoes"},"messageId":"m-3",\#(segmentAndroidContext)}],"writeKey":"k"}"#
      )
    ], source: "Shop@Pixel 8 · 9774", screen: "Home", session: "", user: "user-7")

  private static let segmentAndroidContext =
    #""context":{"library":{"name":"analytics-kotlin","version":"1.16.0"},"app":{"name":"Shop","version":"2.1","namespace":"com.example.shop","build":"42"},"device":{"id":"9774d56d682e549c","manufacturer":"Google","model":"Pixel 8","name":"shiba","type":"android"},"os":{"name":"Android","version":"14"},"screen":{"density":2.625,"height":2400,"width":1080}}"#

  /// analytics.js in a browser: no device, the visitor is its `anonymousId`; `page` calls.
  static let segmentBrowser = Fixture(
    name: "Segment browser",
    requests: [
      (
        "POST", "/v1/p",
        #"{"type":"page","name":"Checkout","anonymousId":"a7c3e2f0-1b2c-4d3e-8f4a-5b6c7d8e9f00","properties":{"path":"/checkout","title":"Checkout","url":"https://shop.example/checkout"},"context":{"library":{"name":"analytics.js","version":"npm:next-1.70.0"},"page":{"path":"/checkout","title":"Checkout","url":"https://shop.example/checkout"},"userAgent":"Mozilla/5.0"},"writeKey":"k"}"#
      ),
      (
        "POST", "/v1/t",
        #"{"type":"track","event":"Pay","anonymousId":"a7c3e2f0-1b2c-4d3e-8f4a-5b6c7d8e9f00","properties":{"total":12},"context":{"library":{"name":"analytics.js","version":"npm:next-1.70.0"},"page":{"path":"/checkout"}},"writeKey":"k"}"#
      ),
    ], source: "segment@a7c3", screen: "Checkout", session: "", user: nil)

  /// rudderlabs/rudder-sdk-ios `RSContextPlugin.swift` (the same `app`, `device`, `os` keys) and
  /// `RSUserSessionPlugin.swift` (`context.sessionId`); `channel` is `mobile`.
  static let rudderStackIOS = Fixture(
    name: "RudderStack iOS",
    requests: [
      (
        "POST", "/v1/batch",
        #"{"batch":[{"type":"screen","event":"Bravo Cart","name":"Bravo Cart","channel":"mobile","anonymousId":"c9d8e7f6-0000-4000-8000-000000000002","properties":{"name":"Bravo Cart"},\#(rudderContext)},{"type":"track","event":"Add To Cart","channel":"mobile","anonymousId":"c9d8e7f6-0000-4000-8000-000000000002","properties":{},\#(rudderContext)}]}"#
      )
    ], source: "Shop@iPhone14,5 · 1D3B", screen: "Bravo Cart", session: "1732528800000", user: nil)

  private static let rudderContext =
    #""context":{"library":{"name":"rudder-ios-library","version":"1.31.0"},"app":{"name":"Shop","version":"2.1","build":"42","namespace":"com.example.shop"},"device":{"manufacturer":"Apple","type":"iOS","model":"iPhone14,5","name":"iPhone","id":"1D3B5F7A-2C4E-4A6B-8D0F-1A2B3C4D5E6F"},"os":{"name":"iOS","version":"17.2"},"sessionId":1732528800000}"#

  /// amplitude/Amplitude-Swift `Events/BaseEvent.swift` keys as `Plugins/ContextPlugin.swift` fills
  /// them; `[Amplitude] Screen Viewed` is its screen event.
  static let amplitudeIOS = Fixture(
    name: "Amplitude iOS",
    requests: [
      (
        "POST", "/2/httpapi",
        #"{"api_key":"k","events":[{"event_type":"[Amplitude] Screen Viewed","event_properties":{"[Amplitude] Screen Name":"Bravo Cart"},"device_id":"AB12CD34-5E6F-4A7B-8C9D-0E1F2A3B4C5D","session_id":1732528800000,"time":1732528800100,"platform":"iOS","os_name":"ios","os_version":"17.2","device_model":"iPhone15,2","device_manufacturer":"Apple","library":"amplitude-swift/1.9.0","insert_id":"i-1"},{"event_type":"Add To Cart","event_properties":{"sku":"B-1"},"device_id":"AB12CD34-5E6F-4A7B-8C9D-0E1F2A3B4C5D","session_id":1732528800000,"time":1732528805000,"platform":"iOS","os_name":"ios","device_model":"iPhone15,2","library":"amplitude-swift/1.9.0","insert_id":"i-2"}]}"#
      )
    ], source: "amplitude@iPhone15,2 · AB12", screen: "Bravo Cart", session: "1732528800000", user: nil)

  /// amplitude/Amplitude-TypeScript: `packages/analytics-browser/src/plugins/context.ts` sends
  /// `device_id`, `session_id`, `user_id`, `platform` `Web`, `language`, `user_agent` (no OS or
  /// model: Amplitude reads them from the user agent); `plugin-page-view-tracking-browser/src/
  /// page-view-tracking.ts` sends `[Amplitude] Page Viewed` with the page's title, path and URL.
  static let amplitudeBrowser = Fixture(
    name: "Amplitude browser",
    requests: [
      (
        "POST", "/2/httpapi",
        #"{"api_key":"k","events":[{"event_type":"[Amplitude] Page Viewed","event_properties":{"[Amplitude] Page Domain":"shop.example","[Amplitude] Page Location":"https://shop.example/checkout","[Amplitude] Page Path":"/checkout","[Amplitude] Page Title":"Checkout","[Amplitude] Page URL":"https://shop.example/checkout"},"device_id":"f00dcafe-1111-4222-8333-944455566677","user_id":"user-3","session_id":1732528800000,"time":1732528800100,"platform":"Web","language":"en-US","insert_id":"i-1","event_id":1,"library":"amplitude-ts/2.11.0","user_agent":"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15"},{"event_type":"Pay","device_id":"f00dcafe-1111-4222-8333-944455566677","user_id":"user-3","session_id":1732528800000,"time":1732528805000,"platform":"Web","language":"en-US","insert_id":"i-2","event_id":2,"library":"amplitude-ts/2.11.0","user_agent":"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15"}]}"#
      )
    ], source: "amplitude@Web · f00d", screen: "Checkout", session: "1732528800000", user: "user-3")

  /// The same page without a title (`getPageTitle` gives `""`): named by its path.
  static let amplitudeBrowserUntitled = Fixture(
    name: "Amplitude browser, untitled page",
    requests: [
      (
        "POST", "/2/httpapi",
        #"{"api_key":"k","events":[{"event_type":"[Amplitude] Page Viewed","event_properties":{"[Amplitude] Page Path":"/cart","[Amplitude] Page Title":"","[Amplitude] Page URL":"https://shop.example/cart"},"device_id":"0ddba11c-1111-4222-8333-944455566677","session_id":1732528800000,"platform":"Web"},{"event_type":"Add To Cart","device_id":"0ddba11c-1111-4222-8333-944455566677","session_id":1732528800000,"platform":"Web"}]}"#
      )
    ], source: "amplitude@Web · 0ddb", screen: "/cart", session: "1732528800000", user: nil)

  /// mixpanel/mixpanel-swift `Sources/Track.swift` (`distinct_id`, `$device_id`, `$user_id`),
  /// `AutomaticProperties.swift` (`$os`, `$model`), `SessionMetadata.swift` (`$mp_metadata`).
  /// Mixpanel's mobile SDKs have no screen call (neither mixpanel-swift nor mixpanel-android
  /// sends one): an app tracks `$screen` itself, here with `$screen_name`.
  static let mixpanelIOS = Fixture(
    name: "Mixpanel iOS",
    requests: [
      (
        "POST", "/track",
        #"[{"event":"$screen","properties":{"token":"t","time":1732528800123,"distinct_id":"$device:5C3B7D9F-1A2B-4C3D-8E4F-5A6B7C8D9E0F","$device_id":"5C3B7D9F-1A2B-4C3D-8E4F-5A6B7C8D9E0F","$os":"iOS","$model":"iPhone15,2","mp_lib":"swift","$screen_name":"Bravo Cart"},"$mp_metadata":{"$mp_event_id":"e1","$mp_session_id":"1a2b3c4d5e6f7a8b","$mp_session_seq_id":0,"$mp_session_start_sec":1732528800}},{"event":"Add To Cart","properties":{"token":"t","time":1732528805000,"distinct_id":"user-9","$device_id":"5C3B7D9F-1A2B-4C3D-8E4F-5A6B7C8D9E0F","$user_id":"user-9","$os":"iOS","$model":"iPhone15,2","mp_lib":"swift"},"$mp_metadata":{"$mp_event_id":"e2","$mp_session_id":"1a2b3c4d5e6f7a8b","$mp_session_seq_id":1,"$mp_session_start_sec":1732528800}}]"#
      )
    ], source: "mixpanel@iPhone15,2 · 5C3B", screen: "Bravo Cart", session: "1a2b3c4d5e6f7a8b", user: "user-9"
  )

  /// mixpanel/mixpanel-js: `track_pageview` (src/mixpanel-core.js) sends `$mp_web_page_view` with
  /// `current_page_title`, `current_url_path`… (src/utils.js `mpPageViewProperties`) beside the
  /// automatic `$os`, `$browser`, `$current_url`, `mp_lib` `web`; an anonymous visitor's
  /// `distinct_id` is `$device:` + its `$device_id`; no session id.
  static let mixpanelBrowser = Fixture(
    name: "Mixpanel browser",
    requests: [
      (
        "POST", "/track",
        #"[{"event":"$mp_web_page_view","properties":{"$os":"Mac OS X","$browser":"Safari","$current_url":"https://shop.example/cart","$browser_version":17,"$screen_height":900,"$screen_width":1440,"mp_lib":"web","$lib_version":"2.55.0","$insert_id":"i1","time":1732528800.123,"distinct_id":"$device:19f2a7c1-aaaa-4bbb-8ccc-0d1e2f3a4b5c","$device_id":"19f2a7c1-aaaa-4bbb-8ccc-0d1e2f3a4b5c","current_page_title":"Cart","current_domain":"shop.example","current_url_path":"/cart","current_url_protocol":"https:","token":"t"}},{"event":"Add To Cart","properties":{"$os":"Mac OS X","$browser":"Safari","$current_url":"https://shop.example/cart","mp_lib":"web","$lib_version":"2.55.0","$insert_id":"i2","time":1732528805.5,"distinct_id":"$device:19f2a7c1-aaaa-4bbb-8ccc-0d1e2f3a4b5c","$device_id":"19f2a7c1-aaaa-4bbb-8ccc-0d1e2f3a4b5c","token":"t"}}]"#
      )
    ], source: "mixpanel@Mac OS X · 19f2", screen: "Cart", session: "", user: nil)

  /// PostHog/posthog-ios `PostHogContext.swift` (`$app_name`, `$device_model`, `$os_name`) and
  /// `PostHogSDK.swift` (`$session_id`, `$is_identified`, `$screen`/`$screen_name`; `identify`
  /// sends `$identify` with the user's `distinct_id` and `$anon_distinct_id`).
  static let postHogIOS = Fixture(
    name: "PostHog iOS",
    requests: [
      (
        "POST", "/batch/",
        #"{"api_key":"phc_k","batch":[{"event":"$screen","distinct_id":"0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b","properties":{"$screen_name":"Bravo Cart",\#(postHogIOSProperties),"$is_identified":false},"timestamp":"2026-11-25T10:00:00.000Z"},{"event":"$identify","distinct_id":"user-9","properties":{"$anon_distinct_id":"0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b","$set":{"plan":"pro"},\#(postHogIOSProperties),"$is_identified":true},"timestamp":"2026-11-25T10:00:01.000Z"},{"event":"Add To Cart","distinct_id":"user-9","properties":{"$screen_name":"Bravo Cart",\#(postHogIOSProperties),"$is_identified":true},"timestamp":"2026-11-25T10:00:02.000Z"}]}"#
      )
    ], source: "Shop@iPhone15,2 · 0190", screen: "Bravo Cart",
    session: "0193f0e1-d2c3-7b4a-9586-a7b8c9d0e1f2",
    user: "user-9")

  private static let postHogIOSProperties =
    #""$app_name":"Shop","$app_version":"2.1","$device_manufacturer":"Apple","$device_model":"iPhone15,2","$device_type":"Mobile","$os_name":"iOS","$os_version":"17.2","$lib":"posthog-ios","$lib_version":"3.15.0","$session_id":"0193f0e1-d2c3-7b4a-9586-a7b8c9d0e1f2""#

  /// PostHog/posthog-js `packages/browser/src/posthog-core.ts`: `$device_id` on every event (equal
  /// to `distinct_id` while anonymous), `$session_id`; `$pageview` with `$pathname`.
  static let postHogBrowser = Fixture(
    name: "PostHog browser",
    requests: [
      (
        "POST", "/e/",
        #"[{"event":"$pageview","properties":{"distinct_id":"018f2e3d-4c5b-7a69-8877-665544332211","$device_id":"018f2e3d-4c5b-7a69-8877-665544332211","$session_id":"018f2e3d-aaaa-7bbb-8ccc-dddddddddddd","$pathname":"/cart","$current_url":"https://shop.example/cart","$os":"Mac OS X","$browser":"Chrome","$lib":"web","token":"phc_k"}},{"event":"Add To Cart","properties":{"distinct_id":"018f2e3d-4c5b-7a69-8877-665544332211","$device_id":"018f2e3d-4c5b-7a69-8877-665544332211","$session_id":"018f2e3d-aaaa-7bbb-8ccc-dddddddddddd","$os":"Mac OS X","$browser":"Chrome","$lib":"web","token":"phc_k"}}]"#
      )
    ], source: "posthog@Chrome · 018f", screen: "/cart", session: "018f2e3d-aaaa-7bbb-8ccc-dddddddddddd",
    user: nil)

  /// snowplow/snowplow-ios-tracker `Sources/Core/TrackerConstants.swift`: `aid`, `p` `mob`, the
  /// `client_session` context (`userId`, `sessionId`) and `mobile_context` (`osType`,
  /// `deviceModel`); the `screen_view` self-describing event.
  static let snowplowIOS = Fixture(
    name: "Snowplow iOS",
    requests: [
      (
        "POST", "/com.snowplowanalytics.snowplow/tp2",
        #"{"schema":"iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4","data":[{"e":"ue","ue_pr":"{\"schema\":\"iglu:com.snowplowanalytics.snowplow/unstruct_event/jsonschema/1-0-0\",\"data\":{\"schema\":\"iglu:com.snowplowanalytics.mobile/screen_view/jsonschema/1-0-0\",\"data\":{\"name\":\"Bravo Cart\",\"id\":\"2c4a7e1b-6d3f-4e8a-9b0c-1d2e3f4a5b6c\",\"type\":\"Default\"}}}","aid":"shop-ios","p":"mob","tv":"ios-6.0.0","tna":"sp","eid":"e-1","dtm":"1732528800100",\#(snowplowIOSContexts)},{"e":"se","se_ca":"cart","se_ac":"add","aid":"shop-ios","p":"mob","tv":"ios-6.0.0","tna":"sp","eid":"e-2","dtm":"1732528805000",\#(snowplowIOSContexts)}]}"#
      )
    ], source: "shop-ios@iPhone15,2 · 5e8f", screen: "Bravo Cart",
    session: "c6ef3124-b53a-4b13-a233-0088f79dcbcb",
    user: nil)

  private static let snowplowIOSContexts =
    #""co":"{\"schema\":\"iglu:com.snowplowanalytics.snowplow/contexts/jsonschema/1-0-1\",\"data\":[{\"schema\":\"iglu:com.snowplowanalytics.snowplow/client_session/jsonschema/1-0-2\",\"data\":{\"userId\":\"5e8f2a7c-3b1d-4c6e-9f0a-8b7c6d5e4f3a\",\"sessionId\":\"c6ef3124-b53a-4b13-a233-0088f79dcbcb\",\"sessionIndex\":3,\"storageMechanism\":\"LOCAL_STORAGE\"}},{\"schema\":\"iglu:com.snowplowanalytics.snowplow/mobile_context/jsonschema/1-0-3\",\"data\":{\"osType\":\"ios\",\"osVersion\":\"17.2\",\"deviceManufacturer\":\"Apple\",\"deviceModel\":\"iPhone15,2\"}}]}""#

  /// The JavaScript tracker's `GET /i`: `duid` (domain user id), `sid` (its session), page views.
  static let snowplowBrowser = Fixture(
    name: "Snowplow browser",
    requests: [
      (
        "GET",
        "/i?e=pv&url=https%3A%2F%2Fshop.example%2Fcart&page=Cart&aid=shop-web&p=web&tv=js-3.24.0&duid=d1f2e3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6&sid=0f1e2d3c-4b5a-4697-8877-665544332211&vid=2",
        ""
      ),
      (
        "GET",
        "/i?e=se&se_ca=cart&se_ac=pay&aid=shop-web&p=web&tv=js-3.24.0&duid=d1f2e3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6&sid=0f1e2d3c-4b5a-4697-8877-665544332211&uid=user-5",
        ""
      ),
    ], source: "shop-web@web · d1f2", screen: "Cart", session: "0f1e2d3c-4b5a-4697-8877-665544332211",
    user: "user-5")

  /// Google's Measurement Protocol reference: a Firebase app's `app_instance_id` and the
  /// `session_id` event parameter.
  static let ga4App = Fixture(
    name: "GA4 app",
    requests: [
      (
        "POST", "/mp/collect?firebase_app_id=1:1234:ios:abcd&api_secret=s",
        #"{"app_instance_id":"cbd7e8a1f0b24c1e9d3a5b6c7d8e9f01","events":[{"name":"screen_view","params":{"screen_name":"Bravo Cart","session_id":"1732528800","engagement_time_msec":100}},{"name":"add_to_cart","params":{"session_id":"1732528800","engagement_time_msec":100}}]}"#
      )
    ], source: "ga4@cbd7", screen: "Bravo Cart", session: "1732528800", user: nil)

  /// A web stream's `client_id`, the `device` object and gtag.js's `ga_session_id`.
  static let ga4Web = Fixture(
    name: "GA4 web",
    requests: [
      (
        "POST", "/mp/collect?measurement_id=G-TEST&api_secret=s",
        #"{"client_id":"123456789.1732528800","user_id":"user-8","device":{"category":"desktop","operating_system":"Windows","browser":"Chrome"},"events":[{"name":"page_view","params":{"page_title":"Checkout","ga_session_id":"1732528800"}},{"name":"purchase","params":{"ga_session_id":"1732528800","value":12}}]}"#
      )
    ], source: "ga4@Windows · 1234", screen: "Checkout", session: "1732528800", user: "user-8")

  /// gtag.js's own requests to `/g/collect` (fields as amplitude/Amplitude-TypeScript
  /// `packages/plugin-ga-events-forwarder-browser/src/helpers.ts` parses them): the page's shared
  /// parameters in the query (`cid`, `sid`, `_p`, `dl`, `dt`), one event per body line.
  static let ga4Gtag = Fixture(
    name: "GA4 gtag",
    requests: [
      (
        "POST",
        "/g/collect?v=2&tid=G-TEST123&gtm=45je4bk0&_p=1732528800123&cid=987654321.1732528700&ul=en-us&sr=1440x900&_s=1&sid=1732528700&sct=3&seg=1&dl=https%3A%2F%2Fshop.example%2Fcart&dt=Cart&en=page_view&_ee=1",
        ""
      ),
      (
        "POST",
        "/g/collect?v=2&tid=G-TEST123&_p=1732528800123&cid=987654321.1732528700&sid=1732528700&sct=3&seg=1&dl=https%3A%2F%2Fshop.example%2Fcart&dt=Cart",
        "en=add_to_cart&ep.currency=EUR&epn.value=12.5\r\nen=scroll&epn.percent_scrolled=90"
      ),
    ], source: "ga4@9876", screen: "Cart", session: "1732528700", user: nil)

  static let all = [
    segmentIOS, segmentAndroid, segmentBrowser, rudderStackIOS, amplitudeIOS, amplitudeBrowser,
    amplitudeBrowserUntitled, mixpanelIOS, mixpanelBrowser, postHogIOS, postHogBrowser, snowplowIOS,
    snowplowBrowser, ga4App, ga4Web, ga4Gtag,
  ]
}
