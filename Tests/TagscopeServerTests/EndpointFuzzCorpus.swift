import NIOHTTP1

/// How a fuzzed request carries its bytes, one per content encoding or request form an endpoint
/// takes.
enum FuzzCarrier: String, CaseIterable {
  /// A POST body, `application/json`.
  case json
  /// A POST body, `text/plain` (analytics.js, mParticle's web SDK, `sendBeacon`).
  case textPlain
  /// A POST body, `application/x-www-form-urlencoded` (`data=` JSON or base64 JSON).
  case form
  /// A JSON body sent with `Content-Encoding: gzip`.
  case gzip
  /// A JSON body sent with `Content-Encoding: deflate` (zlib).
  case deflate
  /// The bytes are the query string of a GET (Snowplow's pixel, Mixpanel's and PostHog's GET forms).
  case getQuery
  /// The bytes are the query string of a POST without a body (gtag.js's `g/collect`).
  case postQuery
}

/// One request form of one route: its carrier, what else the request holds, and the seeds mutated.
struct FuzzForm {
  var carrier: FuzzCarrier
  var seeds: [String]
  /// Query parameters every request of this form has (GA4's `measurement_id`, `api_secret`).
  var query: [(name: String, value: String)] = []
  /// `Authorization`, for the APIs that refuse a request without it (mParticle's basic auth).
  var authorization: String?
}

/// The seeds of every SDK event route, keyed by the path ``ListenEndpoints/eventPaths`` lists: the
/// request shapes the official SDKs send, read in their sources (each named beside its seeds).
/// `EndpointFuzzTests` fails when a listed route has no entry here, so a new endpoint cannot be
/// left out of the fuzzing pass.
enum EndpointFuzzCorpus {
  // segmentio/analytics-python `segment/analytics/request.py` (a `batch` of messages with a
  // `writeKey`); analytics-swift's `/v1/b` is the same batch.
  static let segmentBatch = [
    #"{"batch":[{"type":"track","event":"Order Completed","userId":"u1","messageId":"m1","timestamp":"2026-11-21T10:00:00.000Z","properties":{"total":9.99,"products":[{"id":"p1","price":4.5}]},"context":{"library":{"name":"analytics-python","version":"2.3.3"}}},{"type":"identify","anonymousId":"a1","traits":{"email":"x@y.z"}}],"writeKey":"k","sentAt":"2026-11-21T10:00:01.000Z"}"#,
    #"{"batch":[{"type":"screen","name":"Home","userId":"u","properties":{}},{"type":"group","groupId":"g","userId":"u"},{"type":"alias","previousId":"a","userId":"u"}]}"#,
  ]

  /// One message of `type`, as analytics.js posts it to its single-message paths.
  static func segmentMessage(_ type: String) -> [String] {
    let fields: String
    switch type {
    case "track": fields = #""event":"Clicked","properties":{"plan":"pro","price":9.5}"#
    case "screen", "page": fields = #""name":"Pricing","properties":{"path":"/pricing"}"#
    case "identify": fields = #""userId":"u1","traits":{"plan":"pro","email":"x@y.z"}"#
    case "group": fields = #""groupId":"g1","traits":{"name":"Acme"}"#
    default: fields = #""previousId":"a1","userId":"u1""#
    }
    return [
      #"{"type":"\#(type)",\#(fields),"anonymousId":"a1","messageId":"m1","timestamp":"2026-11-21T10:00:00.000Z","context":{"library":{"name":"analytics.js","version":"next-1.70.0"}},"writeKey":"k"}"#
    ]
  }

  // Firebase Analytics' uploads (`/a`): protobuf batches as the Android and iOS SDKs write them
  // (`Tests/Fixtures/firebase-upload`), kept to bytes under 0x80 so a seed is a string: an app's
  // event and user property; the SDK's screen view and session.
  static let firebaseUpload = [
    "\u{A}W\u{8}\u{1}\u{12}-\u{A}\u{9}\u{A}\u{2}_o\u{12}\u{3}app\u{A}\u{C}\u{A}\u{6}button\u{12}\u{2}ok\u{A}\u{9}\u{A}\u{5}count\u{18}\u{5}\u{12}\u{3}tap\u{18}d \u{0}\u{1A}\u{E}\u{8}d\u{12}\u{4}plan\u{1A}\u{4}goldB\u{7}androidr\u{B}com.example",
    "\u{A}J\u{8}\u{1}\u{12})\u{A}\u{A}\u{A}\u{2}_o\u{12}\u{4}auto\u{A}\u{B}\u{A}\u{3}_sc\u{12}\u{4}Main\u{A}\u{7}\u{A}\u{3}_si\u{18}\u{7}\u{12}\u{3}_vs\u{18}e\u{1A}\u{A}\u{8}d\u{12}\u{4}_sid *B\u{3}iosR\u{A}iPhone15,2",
  ]

  // Adobe Experience Platform Edge's `interact`/`collect` bodies (aepsdk-edge-ios's functional
  // tests, aepsdk-edge-android `RequestBuilder`) and the Analytics extension's hits
  // (aepsdk-analytics-android `ContextDataUtilTests.kt`, `AnalyticsHitProcessorTests.kt`): see
  // `AdobeWireFixtures`.
  static let adobeEdge = [AdobeWireFixtures.edgeInteract, AdobeWireFixtures.edgeTwoEvents]
  static let adobeHits = [AdobeWireFixtures.actionHit, AdobeWireFixtures.lifecycleHit]

  // amplitude/Amplitude-Python `amplitude/http_client.py`: `api_key`, `events`, `options`.
  static let amplitude = [
    #"{"api_key":"k","events":[{"event_type":"Play Podcast","user_id":"u1","device_id":"d1","time":1795255204210,"event_properties":{"title":"S","duration":1830},"user_properties":{"$set":{"plan":"pro"}},"insert_id":"i1"}],"options":{"min_id_length":1}}"#
  ]
  // Amplitude's Batch API (an `events` array) and posthog-python's `batch` upload.
  static let batch = [
    #"{"api_key":"k","events":[{"event_type":"E","user_id":"user-1","time":1795255204210}]}"#,
    #"{"api_key":"phc_k","batch":[{"event":"$pageview","distinct_id":"d","properties":{"$current_url":"https://x"},"timestamp":"2026-11-21T10:00:00Z"}]}"#,
  ]
  // mixpanel/mixpanel-python `mixpanel/__init__.py`: JSON messages, sent as a `data=` form field.
  static let mixpanel = [
    #"[{"event":"Play","properties":{"token":"t","distinct_id":"d","time":1795255204,"$insert_id":"i","title":"S"}}]"#,
    #"{"event":"Signup","properties":{"token":"t","distinct_id":"d"}}"#,
  ]
  static let mixpanelForm = [
    "data=W3siZXZlbnQiOiJQbGF5IiwicHJvcGVydGllcyI6eyJ0b2tlbiI6InQiLCJkaXN0aW5jdF9pZCI6ImQifX1d&verbose=1",
    "data=%5B%7B%22event%22%3A%22Play%22%2C%22properties%22%3A%7B%22token%22%3A%22t%22%7D%7D%5D",
  ]
  static let mixpanelEngage = [
    #"[{"$token":"t","$distinct_id":"d","$set":{"plan":"pro"}}]"#,
    #"{"$token":"t","$group_key":"company","$group_id":"acme","$set":{"size":10}}"#,
  ]
  static let mixpanelEngageForm = [
    "data=eyIkdG9rZW4iOiJ0IiwiJGRpc3RpbmN0X2lkIjoiZCIsIiRzZXQiOnsicGxhbiI6InBybyJ9fQ%3D%3D"
  ]
  // PostHog/posthog-python `posthog/request.py` (`api_key`, `event`, `distinct_id`) and
  // posthog-js's `data=` form and GET forms.
  static let postHog = [
    #"{"api_key":"phc_k","event":"$identify","distinct_id":"d","properties":{"$set":{"email":"e"}},"timestamp":"2026-11-21T10:00:00Z"}"#,
    #"[{"api_key":"phc_k","event":"$pageview","distinct_id":"d","properties":{"$current_url":"https://x"}}]"#,
  ]
  static let postHogForm = [
    "data=eyJhcGlfa2V5IjoicGhjX2siLCJldmVudCI6IiRwYWdldmlldyIsImRpc3RpbmN0X2lkIjoiZCJ9&compression=base64"
  ]
  // snowplow/snowplow-python-tracker `snowplow_tracker/emitters.py`: `payload_data` with a `data`
  // array (POST), or one event's fields as a query string (GET, the pixel).
  static let snowplow = [
    #"{"schema":"iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4","data":[{"e":"se","se_ca":"shop","se_ac":"add","se_va":"2.5","p":"mob","tv":"py-1.0.0","eid":"0b7d3e2a-4a7e-4d59-9e0d-1b6a0d9f4d10","dtm":"1795255204210","aid":"app","uid":"u","cx":"eyJzY2hlbWEiOiJpZ2x1OmNvbS5zbm93cGxvd2FuYWx5dGljcy5zbm93cGxvdy9jb250ZXh0cy9qc29uc2NoZW1hLzEtMC0wIiwiZGF0YSI6W119"},{"e":"ue","ue_pr":"{\"schema\":\"iglu:com.snowplowanalytics.snowplow/unstruct_event/jsonschema/1-0-0\",\"data\":{\"schema\":\"iglu:com.acme/play/jsonschema/1-0-0\",\"data\":{\"title\":\"S\"}}}","p":"web","tv":"js-3"}]}"#
  ]
  static let snowplowQuery = [
    "e=pv&url=https%3A%2F%2Fexample.com%2F&page=Home&p=web&tv=js-3.5.0&aid=app&eid=0b7d3e2a-4a7e-4d59-9e0d-1b6a0d9f4d10&dtm=1795255204210",
    "e=se&se_ca=shop&se_ac=add&se_va=2.5&p=mob&tv=py-1.0.0&cx=eyJzY2hlbWEiOiJpZ2x1OmNvbS5zbm93cGxvd2FuYWx5dGljcy5zbm93cGxvdy9jb250ZXh0cy9qc29uc2NoZW1hLzEtMC0wIiwiZGF0YSI6W119",
    "e=ue&ue_px=eyJzY2hlbWEiOiJpZ2x1OmNvbS5zbm93cGxvd2FuYWx5dGljcy5zbm93cGxvdy91bnN0cnVjdF9ldmVudC9qc29uc2NoZW1hLzEtMC0wIiwiZGF0YSI6eyJzY2hlbWEiOiJpZ2x1OmNvbS5hY21lL3BsYXkvanNvbnNjaGVtYS8xLTAtMCIsImRhdGEiOnsidGl0bGUiOiJTIn19fQ&p=web&tv=js-3",
  ]
  // mParticle/mparticle-python-sdk `mparticle/apis/events_api.py`: a `Batch` (basic auth `k:s`).
  static let mParticle = [
    #"{"events":[{"data":{"event_name":"Choose Item","custom_event_type":"other","custom_attributes":{"quantity":2,"milk":true},"timestamp_unixtime_ms":1795255204210},"event_type":"custom_event"},{"data":{"screen_name":"Home"},"event_type":"screen_view"},{"data":{"product_action":{"action":"purchase","total_amount":3.5}},"event_type":"commerce_event"}],"device_info":{"platform":"iOS","ios_idfv":"0b8e1c2a-5d7f-4e36-9a41-6c2f3d8e0001"},"application_info":{"application_name":"Freddy's"},"user_identities":{"customerid":"c1"},"mpid":600868121729048600,"mp_deviceid":"0b8e1c2a-5d7f-4e36-9a41-6c2f3d8e0001","environment":"development"}"#
  ]
  static let mParticleBulk = [
    #"[{"events":[{"data":{"event_name":"E","custom_attributes":{"a":"b"}},"event_type":"custom_event"}],"mpid":"1"},{"events":[{"data":{"session_id":7},"event_type":"session_start"}],"user_attributes":{"tier":"gold"}}]"#
  ]
  // mParticle/mparticle-apple-sdk and mparticle-android-sdk upload batches (`MPMessage`/`MessageKey`
  // short keys: `msgs`, `dt`, `n`, `attrs`…; attribute values always text), gzip'd, to
  // `/v2/KEY/events`; the same batch as Tests/Fixtures/mparticle-native/ios-batch.json, shortened,
  // and the iOS SDK's own recorded batches (``MParticleNativeSeeds``: events, purchase, consent, errors).
  static let mParticleNative =
    [
      #"{"dt":"h","id":"5B9A2D63-8E0B-4C5C-9B2E-0F6A1C3D7E11","ct":1764112800000,"a":"us1-abc","mpid":6008681217290486000,"das":"7A1E3C44-2B9D-4F6E-8C0A-55D1E2F3A4B6","ai":{"an":"Freddy's","av":"1.0","apn":"com.mparticle.SmartypeExample","env":2},"di":{"dp":"iOS","vid":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"},"ua":{"tier":"gold"},"ui":[{"n":1,"i":"cust-42"}],"msgs":[{"dt":"ss","id":"0C1D2E3F-0000-4000-8000-000000000001","ct":1764112790000,"sid":"9F3B1C2D-7E4A-4B5C-8D6E-1A2B3C4D5E6F"},{"dt":"v","ct":1764112795000,"n":"Home","el":0},{"dt":"e","ct":1764112798000,"n":"Choose Item","et":"Other","attrs":{"quantity":"2","milk":"true","item":"cortado"}}]}"#
    ]
    + MParticleNativeSeeds.iOS + MParticleNativeSeeds.iOSConsentAndErrors
  // The same SDKs' IDSync requests (`MParticleIdentityClientImpl`, `MPIdentityApiRequest`):
  // `client_sdk` plus `known_identities` for identify/login/logout, `identity_changes` for modify.
  static let mParticleIdentity = [
    #"{"client_sdk":{"platform":"android","sdk_vendor":"mparticle","sdk_version":"5.62.0"},"environment":"development","request_id":"0b8e1c2a-5d7f-4e36-9a41-6c2f3d8e0002","request_timestamp_ms":1764112800000,"previous_mpid":"6008681217290486000","known_identities":{"device_application_stamp":"7A1E3C44-2B9D-4F6E-8C0A-55D1E2F3A4B6","customerid":"cust-42","email":"ann@example.com"}}"#
  ]
  static let mParticleModify = [
    #"{"client_sdk":{"platform":"ios"},"request_id":"r","request_timestamp_ms":1764112800000,"identity_changes":[{"identity_type":"email","old_value":null,"new_value":"bo@example.com"}]}"#
  ]

  // The GA4 Measurement Protocol (google-analytics Measurement Protocol reference, as
  // `amplitude`'s GA forwarder and the Firebase docs send it): JSON with the credentials in the query.
  static let ga4 = [
    #"{"client_id":"c.1","user_id":"u","timestamp_micros":1795255204210000,"user_properties":{"tier":{"value":"gold"}},"events":[{"name":"play_podcast","params":{"title":"S","engagement_time_msec":100,"items":[{"item_id":"i"}]}}]}"#,
    #"{"client_id":"c","events":[{"name":"_bad name","params":{"x":[1,2]}}]}"#,
  ]
  static let ga4Query = [("measurement_id", "G-TEST"), ("api_secret", "s")]
  // gtag.js's `g/collect` (fields as amplitude/Amplitude-TypeScript's GA events forwarder reads
  // them): shared parameters in the query, one event per body line.
  static let gtagQuery = [
    "v=2&tid=G-TEST&cid=1.2&sid=1795255204&_p=123&en=page_view&dl=https%3A%2F%2Fexample.com%2F&dt=Home&ep.section=top&epn.value=2.5&up.tier=gold"
  ]
  static let gtagLines = [
    "en=scroll&epn.percent_scrolled=90\nen=click&ep.link_url=https%3A%2F%2Fx.org&_et=12"
  ]

  private static func segment(_ seeds: [String]) -> [FuzzForm] {
    [
      FuzzForm(carrier: .json, seeds: seeds), FuzzForm(carrier: .textPlain, seeds: seeds),
      FuzzForm(carrier: .gzip, seeds: seeds),
    ]
  }

  private static func mixpanel(_ seeds: [String], form: [String]) -> [FuzzForm] {
    [
      FuzzForm(carrier: .json, seeds: seeds), FuzzForm(carrier: .form, seeds: form),
      FuzzForm(carrier: .getQuery, seeds: form), FuzzForm(carrier: .gzip, seeds: seeds),
      FuzzForm(carrier: .form, seeds: form, query: mixpanelJSQuery),
    ]
  }

  // mixpanel-js posts its `data=` form to `/track/?ip=1&_=<ms>` (with `verbose=1` when asked):
  // the request options of ``Vendor/TransportFields/mixpanel``.
  static let mixpanelJSQuery = [("ip", "1"), ("_", "1764112800000"), ("verbose", "1")]
  // posthog-js posts its JSON to `/e/?ip=1&_=<ms>&ver=<version>`: the request options of
  // ``Vendor/TransportFields/posthog``.
  static let postHogJSQuery = [("ip", "1"), ("_", "1764112800000"), ("ver", "1.200.0")]

  private static let postHogForms = [
    FuzzForm(carrier: .json, seeds: postHog), FuzzForm(carrier: .form, seeds: postHogForm),
    FuzzForm(carrier: .getQuery, seeds: postHogForm), FuzzForm(carrier: .gzip, seeds: postHog),
    FuzzForm(carrier: .json, seeds: postHog, query: postHogJSQuery),
  ]

  private static let mParticleWeb = [
    FuzzForm(carrier: .textPlain, seeds: mParticle), FuzzForm(carrier: .json, seeds: mParticle),
    FuzzForm(carrier: .gzip, seeds: mParticle),
  ]

  private static let mParticleMobile = [
    FuzzForm(carrier: .gzip, seeds: mParticleNative), FuzzForm(carrier: .json, seeds: mParticleNative),
  ]

  private static func mParticleIdSync(_ seeds: [String]) -> [FuzzForm] {
    [FuzzForm(carrier: .json, seeds: seeds), FuzzForm(carrier: .gzip, seeds: seeds)]
  }

  private static func withAuthorization(_ carriers: [FuzzCarrier], _ seeds: [String]) -> [FuzzForm] {
    carriers.map { FuzzForm(carrier: $0, seeds: seeds, authorization: "Basic azpz") }
  }

  // braze-inc/braze-roku-sdk `sdk_files/source/BrazeSDK.brs` @ 0d970016 (`createEventObject`,
  // `createAttributeObject`, `generateRequiredRequestFields`); a Web SDK 2.5.2 body.
  static let braze = [
    #"{"events":[{"name":"ce","data":{"n":"add_to_cart","p":{"sku":"A1","price":9.5}},"time":1625831075.239,"session_id":"s-1","user_id":"u1"},{"name":"p","data":{"pid":"sku1","c":"USD","p":9.99,"q":1,"pr":{"k":"v"}},"time":1700000000,"session_id":"s-1"},{"name":"ss","data":{},"time":1700000000,"session_id":"s-1"},{"name":"se","data":{"d":42},"time":1700000001,"session_id":"s-1"},{"name":"inc","data":{"key":"n","value":1},"time":1700000002}],"attributes":[{"user_id":"u1","custom":{"language":"en","gone":null}},{"first_name":"Ada"}],"api_key":"k","time":1625831079,"sdk_version":"2.5.2","device_id":"d-1","user_id":"u1"}"#
  ]

  // at-internet/piano-analytics-android `model/EventsRequest.kt`, `EventPropertiesJsonAdapter.kt`.
  static let piano = [
    #"{"events":[{"name":"page.display","data":{"page":"home","page_chapter1":"a","app_sessionid":"s-1","user_id":"u1","device_model":"Pixel 7"}},{"name":"click.action","data":{"click":"play","n:duration":1830,"s:episode":"42","a:s:tags":["x"]}}]}"#
  ]

  // at-internet/atinternet-android-sdk `BuilderTest.java` line 334, and a click hit (`Gesture.java`).
  static let atInternetQuery = [
    #"s=552987&p=page--page2&array=[{"test":"value"}]&test=value&stc={"key1":"value1","obj":{"subkey":"subvalue"}}"#,
    "s=552987&idclient=v-1&an=42&type=click&click=A&p=library::favorites::play_podcast&apid=com.example",
  ]

  // paypal/paypal-ios `AnalyticsEventData.swift` @ 600a97a5 (one event); braintree/braintree_android
  // `AnalyticsApi.kt` @ 6c325088 (a batch).
  static let fpti = [
    #"{"events":{"event_params":{"app_id":"com.example","partner_client_id":"AYx","c_sdk_ver":"2.0.1","comp":"ppcpclientsdk","event_name":"paypal-web-payments:checkout:started","is_simulator":true,"mobile_device_model":"arm64","platform":"iOS","order_id":"5O1","correlation_id":null,"t":"1764410000123.456","tenant_name":"PayPal"}}}"#,
    #"{"events":[{"batch_params":{"app_id":"com.example","comp":"braintreeclientsdk","session_id":"s-1","tokenization_key":"k","venmo_installed":false},"event_params":[{"event_name":"paypal:tokenize:started","t":1764410004000,"is_vault":true,"context_id":"BA-1"},{"event_name":"paypal:tokenize:succeeded","t":1764410005000,"e":"cl","category":"checkout"}]}]}"#,
  ]

  /// The forms of every route, by the path `tagscope help listen` lists (`KEY` for a key in it).
  static let forms: [String: [FuzzForm]] = [
    "/v1/batch": segment(segmentBatch), "/v1/import": segment(segmentBatch), "/v1/b": segment(segmentBatch),
    "/beacon/v1/batch": segment(segmentBatch),
    "/v1/track": segment(segmentMessage("track")), "/v1/t": segment(segmentMessage("track")),
    "/v1/screen": segment(segmentMessage("screen")), "/v1/s": segment(segmentMessage("screen")),
    "/v1/page": segment(segmentMessage("page")), "/v1/p": segment(segmentMessage("page")),
    "/v1/identify": segment(segmentMessage("identify")) + mParticleIdSync(mParticleIdentity),
    "/v1/i": segment(segmentMessage("identify")),
    "/v1/group": segment(segmentMessage("group")), "/v1/g": segment(segmentMessage("group")),
    "/v1/alias": segment(segmentMessage("alias")), "/v1/a": segment(segmentMessage("alias")),
    "/a": [
      FuzzForm(carrier: .form, seeds: firebaseUpload), FuzzForm(carrier: .gzip, seeds: firebaseUpload),
    ],
    "/2/httpapi": [FuzzForm(carrier: .json, seeds: amplitude), FuzzForm(carrier: .gzip, seeds: amplitude)],
    "/batch": [
      FuzzForm(carrier: .json, seeds: batch), FuzzForm(carrier: .gzip, seeds: batch),
      FuzzForm(carrier: .deflate, seeds: batch),
    ],
    "/track": mixpanel(mixpanel, form: mixpanelForm), "/import": mixpanel(mixpanel, form: mixpanelForm),
    "/engage": mixpanel(mixpanelEngage, form: mixpanelEngageForm),
    "/groups": mixpanel(mixpanelEngage, form: mixpanelEngageForm),
    "/capture": postHogForms, "/e": postHogForms, "/i/v0/e": postHogForms,
    "/com.snowplowanalytics.snowplow/tp2": [
      FuzzForm(carrier: .json, seeds: snowplow), FuzzForm(carrier: .gzip, seeds: snowplow),
      FuzzForm(carrier: .getQuery, seeds: snowplowQuery),
    ],
    "/i": [FuzzForm(carrier: .getQuery, seeds: snowplowQuery)],
    "/v2/events": withAuthorization([.json, .gzip, .deflate], mParticle),
    "/v2/bulkevents": withAuthorization([.json, .gzip], mParticleBulk),
    "/v3/JS/KEY/events": mParticleWeb, "/webevents/v3/JS/KEY/events": mParticleWeb,
    "/v2/KEY/events": mParticleMobile, "/nativeevents/v2/KEY/events": mParticleMobile,
    "/v1/login": mParticleIdSync(mParticleIdentity), "/v1/logout": mParticleIdSync(mParticleIdentity),
    "/v1/MPID/modify": mParticleIdSync(mParticleModify),
    "/identity/v1/identify": mParticleIdSync(mParticleIdentity),
    "/identity/v1/login": mParticleIdSync(mParticleIdentity),
    "/identity/v1/logout": mParticleIdSync(mParticleIdentity),
    "/identity/v1/MPID/modify": mParticleIdSync(mParticleModify),
    "/mp/collect": [
      FuzzForm(carrier: .json, seeds: ga4, query: ga4Query),
      FuzzForm(carrier: .gzip, seeds: ga4, query: ga4Query),
    ],
    "/debug/mp/collect": [
      FuzzForm(carrier: .json, seeds: ga4, query: ga4Query),
      FuzzForm(carrier: .gzip, seeds: ga4, query: ga4Query),
    ],
    "/g/collect": [
      FuzzForm(carrier: .postQuery, seeds: gtagQuery),
      FuzzForm(
        carrier: .textPlain, seeds: gtagLines, query: [("v", "2"), ("tid", "G-TEST"), ("cid", "1.2")]),
    ],
    "/api/v3/data": [
      FuzzForm(carrier: .json, seeds: braze), FuzzForm(carrier: .textPlain, seeds: braze),
      FuzzForm(carrier: .gzip, seeds: braze),
    ],
    "/event": [
      FuzzForm(carrier: .json, seeds: piano, query: [("s", "447850"), ("idclient", "v-1")]),
      FuzzForm(carrier: .textPlain, seeds: piano, query: [("s", "447850"), ("idclient", "v-1")]),
    ],
    "/hit.xiti": [FuzzForm(carrier: .getQuery, seeds: atInternetQuery)],
    "/v1/tracking/events": [FuzzForm(carrier: .json, seeds: fpti), FuzzForm(carrier: .gzip, seeds: fpti)],
    "/v1/tracking/batch/events": [
      FuzzForm(carrier: .json, seeds: fpti), FuzzForm(carrier: .gzip, seeds: fpti),
    ],
    "/ee/v1/interact": [
      FuzzForm(carrier: .json, seeds: adobeEdge, query: [("configId", "c-1")]),
      FuzzForm(carrier: .gzip, seeds: adobeEdge),
    ],
    "/ee/v1/collect": [FuzzForm(carrier: .textPlain, seeds: adobeEdge)],
    "/ee/v1/privacy/set-consent": [
      FuzzForm(
        carrier: .json,
        seeds: [AdobeEdgeConsentAndV2Tests.consent("n"), AdobeEdgeConsentAndV2Tests.consent("y")])
    ],
    "/ee/v2/interact": [FuzzForm(carrier: .json, seeds: [AdobeEdgeConsentAndV2Tests.serverInteract])],
    "/ee/v2/collect": [FuzzForm(carrier: .json, seeds: [AdobeEdgeConsentAndV2Tests.serverCollect])],
    "/api/v3/content_cards/sync": [FuzzForm(carrier: .json, seeds: [BrazeContentRequestTests.contentCards])],
    "/api/v3/feature_flags/sync": [FuzzForm(carrier: .json, seeds: [BrazeContentRequestTests.featureFlags])],
    "/api/v3/template": [FuzzForm(carrier: .json, seeds: [BrazeContentRequestTests.template])],
    "/api/v3/push/delivery_events": [FuzzForm(carrier: .json, seeds: [BrazeSDKPathTests.pushDeliveries])],
    "/api/v3/geofence/report": [FuzzForm(carrier: .json, seeds: [BrazeSDKPathTests.geofenceReport])],
    "/api/v3/banners/sync": [FuzzForm(carrier: .json, seeds: [BrazeSDKPathTests.banners])],
    "/api/v3/geofence/request": [FuzzForm(carrier: .json, seeds: [BrazeSDKPathTests.geofences])],
    "/api/v3/push/redeliver": [FuzzForm(carrier: .json, seeds: [BrazeSDKPathTests.redelivery])],
    "/api/v3/debugger/init": [FuzzForm(carrier: .json, seeds: [BrazeSDKPathTests.debuggerStart])],
    "/api/v3/debugger/log": [FuzzForm(carrier: .json, seeds: [BrazeSDKPathTests.debuggerLog])],
    "/api/v3/dust/config": [FuzzForm(carrier: .json, seeds: [BrazeSDKPathTests.dust])],
    "/api/v3/push_token_tag": [FuzzForm(carrier: .json, seeds: [BrazeSDKPathTests.pushTokenTag])],
    "/ee/v1/identity/acquire": [FuzzForm(carrier: .json, seeds: [AdobeEdgePathTests.acquire])],
    "/b/ss/RSID/0/VERSION/sRANDOM": [
      FuzzForm(carrier: .form, seeds: adobeHits), FuzzForm(carrier: .getQuery, seeds: adobeHits),
    ],
  ]
}
