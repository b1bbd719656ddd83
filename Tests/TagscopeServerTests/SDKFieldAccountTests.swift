import AnalyticsHub
import Foundation
import NIOHTTP1
import TagscopeRecording
import TagscopeTestSupport
import TagscopeVendors
import XCTest

@testable import TagscopeServer

/// Every field of an SDK request is carried into its records or reported, with its place, as not
/// understood (issue 44: "loud at the edge"): a field a decoder does not read is kept under the
/// record's `unread` annotation with an `sdk.field-not-understood` violation, never dropped.
final class SDKFieldAccountTests: XCTestCase {
  /// The vendors whose decoders keep the account; the walk over the corpus asserts it for them.
  static let accounted: Set<String> = [
    "segment", "rudderstack", "amplitude", "ga4", "posthog", "snowplow", "mparticle", "braze", "mixpanel",
    "fpti", "piano", "adobe",
  ]
  /// Fields a vendor's decoder carries decoded or under another name, in its call's parameters or
  /// annotations (Snowplow's base64 and JSON parts, gtag's page, Edge's `configId`, mParticle's
  /// mobile short keys in the Events API's names, ``MParticleNativeKeys/carriedAs``), by their
  /// name or their place without indices (`msgs[].pd.an`).
  static let decodedAs: [String: [String: [String]]] = [
    "snowplow": [
      "cx": ["contexts"], "co": ["contexts"], "ue_px": ["unstruct_event"], "ue_pr": ["unstruct_event"],
    ],
    "ga4": ["dl": ["page_location"]],
    "adobe": ["configId": ["config_id"]],
    "mparticle": MParticleNativeKeys.carriedAs,
  ]

  // MARK: One unknown field per vendor

  func testASegmentBatchReportsItsOwnUnknownFieldsOnItsFirstRecord() throws {
    let body =
      #"{"batch":[{"type":"track","event":"A","userId":"u"},{"type":"track","event":"B","userId":"u"}],"#
      + #""writeKey":"k","sentAt":"2026-11-21T10:00:01.000Z","context":{"ip":"1.2.3.4"},"integrations":{"All":false}}"#
    let events = try XCTUnwrap(endpointReply("/v1/batch", body: body)).events
    XCTAssertEqual(events.count, 2)
    XCTAssertEqual(Self.unread(events[0]), ["context", "integrations"])
    XCTAssertEqual(Self.reported(events[0]), ["2 fields not understood"])
    XCTAssertEqual(Self.unread(events[1]), [], "a request's own fields are reported once")
    XCTAssertEqual(Payload.object(events[0].annotations["unread"])["context"], .object(["ip": "1.2.3.4"]))
  }

  func testAnAmplitudeRequestReportsAnUnknownField() throws {
    let body =
      #"{"api_key":"k","events":[{"event_type":"E","user_id":"user-1"}],"client_upload_time":"x","#
      + #""options":{"min_id_length":1},"library":"amplitude-x/1.0"}"#
    let events = try XCTUnwrap(endpointReply("/2/httpapi", body: body)).events
    XCTAssertEqual(events.count, 1)
    XCTAssertEqual(Self.unread(events[0]), ["library"])
    XCTAssertEqual(Self.reported(events[0]), ["1 field not understood"])
  }

  func testAGA4RequestReportsItsAndItsEventsUnknownFieldsWithTheirPlace() throws {
    let body =
      #"{"client_id":"c","user_properties":{"tier":{"value":"gold"}},"validation_behavior":"ENFORCE_RECOMMENDATIONS","#
      + #""events":[{"name":"a","params":{"x":1}},{"name":"b","params":{},"items":[1]}]}"#
    let events = try XCTUnwrap(
      endpointReply("/mp/collect", body: body, query: [("measurement_id", "G-1"), ("api_secret", "s")])
    ).events
    XCTAssertEqual(events.count, 2)
    XCTAssertEqual(Self.unread(events[0]), ["user_properties"])
    XCTAssertEqual(Self.unread(events[1]), ["events[1].items"])
  }

  func testAPostHogBatchReportsAnUnknownField() throws {
    let body =
      #"{"api_key":"phc_k","sent_at":"2026-11-21T10:00:00Z","batch":[{"event":"e","distinct_id":"d"}],"#
      + #""gzip":true}"#
    let events = try XCTUnwrap(endpointReply("/batch", body: body)).events
    XCTAssertEqual(events.count, 1)
    XCTAssertEqual(Self.unread(events[0]), ["gzip"])
  }

  /// A recorded request keeps what its decoder did not understand on its record's output, and the
  /// server's summary line counts it with its first place.
  func testListenKeepsTheFieldsOnTheRecordAndCountsThemInItsSummary() async throws {
    let (server, collector) = try await startServer()
    let body =
      #"{"batch":[{"type":"track","event":"A","userId":"u"}],"context":{"ip":"1.2.3.4"},"sentAt":"x"}"#
    let reply = try httpRequest(port: server.port, path: "/v1/batch", body: body)
    let records = collector.waitForRecords(1)
    try await server.shutdown()
    XCTAssertEqual(reply?.status, 200)
    let output = try XCTUnwrap(records.first?.outputs.first)
    XCTAssertEqual(output.extra["unread"], .object(["context": .object(["ip": "1.2.3.4"])]))
    XCTAssertEqual(output.violations.map(\.rule), ["sdk.field-not-understood"])
    let seq = try XCTUnwrap(records.first?.seq)
    XCTAssertTrue(
      server.statistics.summary.contains("fields not understood: 1 (first: record \(seq) segment context)"),
      server.statistics.summary)
  }

  func testASnowplowPostReportsAnUnknownEnvelopeField() throws {
    let body =
      #"{"schema":"iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4","#
      + #""data":[{"e":"pv","url":"https://x","p":"web","tv":"js-3"}],"stm":"1795255204210"}"#
    let events = try XCTUnwrap(endpointReply("/com.snowplowanalytics.snowplow/tp2", body: body)).events
    XCTAssertEqual(events.count, 1)
    XCTAssertEqual(Self.unread(events[0]), ["stm"])
  }

  func testAnMParticleBatchReportsItsUnknownFieldsOnItsFirstRecord() throws {
    let body =
      #"{"events":[{"data":{"event_name":"E"},"event_type":"custom_event"}],"environment":"development","#
      + #""partner_identity":"p","mpid":"1"}"#
    let reply = try XCTUnwrap(endpointReply("/v2/events", body: body, authorization: "Basic azpz"))
    XCTAssertEqual(reply.events.count, 1)
    XCTAssertEqual(Self.unread(reply.events[0]), ["partner_identity"])
    let attributes = body.replacingOccurrences(
      of: #""mpid""#, with: #""user_attributes":{"tier":"gold"},"mpid""#)
    let withAttributes = try XCTUnwrap(
      endpointReply("/v2/events", body: attributes, authorization: "Basic azpz"))
    XCTAssertEqual(
      Self.unread(withAttributes.events[0]), ["partner_identity"],
      "a batch's user attributes are carried (a data plan judges them), with or without identify")
    let bulk = "[" + body + "," + body + "]"
    let batches = try XCTUnwrap(endpointReply("/v2/bulkevents", body: bulk, authorization: "Basic azpz"))
    XCTAssertEqual(batches.events.map(Self.unread), [["[0].partner_identity"], ["[1].partner_identity"]])
  }

  func testAnMParticleMobileBatchReportsAnUnknownHeaderField() throws {
    let body =
      #"{"dt":"h","id":"b","ct":1764112800000,"a":"k","mpid":1,"#
      + #""msgs":[{"dt":"e","ct":1764112798000,"n":"Choose Item","et":"Other"}],"lc":{"lat":1}}"#
    let events = try XCTUnwrap(endpointReply("/v2/us1-abc/events", body: body)).events
    XCTAssertEqual(events.count, 1)
    XCTAssertEqual(Self.unread(events[0]), ["lc"])
  }

  func testBrazeReportsTheFieldsItKeepsUnread() throws {
    let body =
      #"{"api_key":"k","time":1795255204,"device_id":"d","sdk_version":"2.5.2","app_version":"1","#
      + #""events":[{"name":"ce","data":{"n":"Play","p":{"a":1},"zz":1},"time":1795255204}],"respond_with":{}}"#
    let events = try XCTUnwrap(endpointReply("/api/v3/data", body: body)).events
    let unread = events.flatMap(Self.unread)
    XCTAssertTrue(unread.contains("events[0].data.zz"), "\(unread)")
    XCTAssertTrue(events.allSatisfy { Self.unread($0).isEmpty == Self.reported($0).isEmpty })
    XCTAssertFalse(events.flatMap(Self.reported).isEmpty)
  }

  func testAGtagHitReportsItsUserPropertiesAndUnknownFieldsByPlace() throws {
    let reply = try XCTUnwrap(
      endpointReply(
        "/g/collect", body: "en=scroll&epn.percent_scrolled=90&_et=12",
        query: [("v", "2"), ("tid", "G-1"), ("cid", "1.2"), ("up.tier", "gold"), ("ul", "en-us")],
        contentType: "text/plain"))
    XCTAssertEqual(reply.events.count, 1)
    XCTAssertEqual(Self.unread(reply.events[0]), ["up.tier", "ul", "lines[0]._et"])
    XCTAssertEqual(Payload.object(reply.events[0].annotations["unread"])["up.tier"], "gold")
  }

  /// A gtag hit's parameters keep the hit's order: they were read through a dictionary, so the
  /// same hit gave its properties in another order in each process (a HAR imported twice gave two
  /// recordings).
  func testAGtagHitsParametersKeepTheHitsOrder() throws {
    let names = ["h", "c", "f", "a", "g", "d", "b", "e"]
    let body = "en=play&" + names.map { "ep.\($0)=\($0)" }.joined(separator: "&") + "&epn.n=1&ep.c=again"
    let reply = try XCTUnwrap(
      endpointReply(
        "/g/collect", body: body, query: [("v", "2"), ("tid", "G-1"), ("cid", "1.2")],
        contentType: "text/plain"))
    let keys = reply.events.first?.properties.map(\.key) ?? []
    XCTAssertEqual(keys, ["h", "f", "a", "g", "d", "b", "e", "n", "c"])
    XCTAssertEqual(reply.events.first?.properties["c"], .string("again"))
  }

  func testAFirebaseUploadReportsItsUnknownProtobufFieldsOnItsFirstRecord() throws {
    // `EndpointFuzzCorpus.firebaseUpload[0]` with field 99 (varint 5) added to the batch.
    let body = Array(EndpointFuzzCorpus.firebaseUpload[0].utf8) + [0x98, 0x06, 0x05]
    let events = try FirebaseUploadEndpoint.decode(body).get()
    XCTAssertGreaterThan(events.count, 1)
    XCTAssertEqual(Self.unread(events[0]), ["upload field 99"])
    XCTAssertEqual(Self.reported(events[0]), ["1 field not understood"])
    XCTAssertEqual(Self.unread(events[1]), [])
  }

  func testAMixpanelMessageReportsItsUnknownFieldsByItsPlace() throws {
    let body =
      #"[{"event":"A","properties":{"token":"t","distinct_id":"d"}},{"event":"B","properties":{},"$os":"iOS"}]"#
    let events = try XCTUnwrap(endpointReply("/track", body: body)).events
    XCTAssertEqual(events.map(Self.unread), [[], ["data[1].$os"]])
  }

  // MARK: The corpus, key by key

  /// Every seed request of every SDK route (``EndpointFuzzCorpus``: the shapes the official SDKs
  /// send, read in their sources), in each of its forms (a JSON body plain or compressed, a query
  /// string, a form body), key by key: each leaf field is carried into a record, one of its
  /// vendor's transport fields, or reported with its place. Run with `TAGSCOPE_KEY_FIGURES=1` for
  /// the figures of each route and form.
  func testEveryFieldOfEveryCorpusRequestIsCarriedOrReported() throws {
    let figures = ProcessInfo.processInfo.environment["TAGSCOPE_KEY_FIGURES"] == "1"
    var walked: [FuzzCarrier: Int] = [:]
    for (listed, forms) in EndpointFuzzCorpus.forms.sorted(by: { $0.key < $1.key }) {
      let path = listed.replacingOccurrences(of: "KEY", with: "us1-abc").replacingOccurrences(
        of: "MPID", with: "6008681217290486000")
      for form in forms {
        for seed in form.seeds {
          guard let found = Self.fields(of: seed, carrier: form.carrier).map({ $0 + Self.queryLeaves(form) }),
            let reply = EndpointFuzzTests.reply(path, form, Array(seed.utf8)), reply.rejection == nil,
            let provider = reply.events.first?.provider
          else { continue }
          let account = Self.account(found, reply.events, vendor: Vendors.vendor(named: provider))
          if figures {
            print(
              "\(listed) \(form.carrier) \(provider): \(account.keys) keys, \(account.carried) carried, "
                + "\(account.transport) transport, \(account.reported.count) reported, "
                + "\(account.missing.count) neither \(account.missing)")
          }
          guard Self.accounted.contains(provider) else { continue }
          walked[form.carrier, default: 0] += 1
          XCTAssertEqual(
            account.missing, [], "\(listed) \(form.carrier): fields neither carried nor reported in \(seed)")
        }
      }
    }
    XCTAssertGreaterThan(walked[.json] ?? 0, 5)
    for carrier in [FuzzCarrier.gzip, .getQuery, .postQuery, .form] {
      XCTAssertGreaterThan(walked[carrier] ?? 0, 0, "no \(carrier) request walked")
    }
  }

  // MARK: Helpers

  /// The places `event`'s `unread` annotation names.
  static func unread(_ event: IngestedEvent) -> [String] {
    FieldAccount.places(in: event.annotations)
  }

  /// The start of each `sdk.field-not-understood` violation's message.
  static func reported(_ event: IngestedEvent) -> [String] {
    event.violations.filter { $0.rule == "sdk.field-not-understood" }.map {
      String($0.message.prefix { $0 != "," && $0 != ":" })
    }
  }

  /// The account of `body` in the records `events` made of it.
  struct Account {
    var keys = 0
    var carried = 0
    var transport = 0
    var reported: [String] = []
    var missing: [String] = []
  }

  /// The leaf fields of a seed as `carrier` sends it, by place: a JSON body's (compressed or not),
  /// a query's or form's fields (``pairLeaves(_:)``); `nil` for a body that is neither (protobuf).
  static func fields(of seed: String, carrier: FuzzCarrier) -> [(String, PropertyValue)]? {
    var found: [(String, PropertyValue)] = []
    switch carrier {
    case .json, .textPlain, .gzip, .deflate:
      guard let body = try? JSONParser.parse(seed) else { return nil }
      leaves(body, at: "", into: &found)
    case .form, .getQuery, .postQuery:
      // A form-encoded body or query, not a binary one (Firebase's protobuf `/a`).
      let pairs = FormDecoding.pairs(seed)
      guard !pairs.isEmpty, pairs.allSatisfy({ $0.name.allSatisfy(Self.isNameCharacter) }) else { return nil }
      for pair in pairs where pair.name == "data" {
        // A `data=` field is the JSON body, plain or base64 (Mixpanel's, PostHog's): walked as one.
        guard let body = decodedBody(pair.value) else { return nil }
        leaves(body, at: "", into: &found)
      }
      found += pairLeaves(pairs.filter { $0.name != "data" })
    }
    return found
  }

  /// The fields of the query string a request of `form` carries beside its body (GA4's
  /// `measurement_id`, posthog-js's `ver`), by place: `query.<name>`.
  static func queryLeaves(_ form: FuzzForm) -> [(String, PropertyValue)] {
    pairLeaves(form.query).map { ("query.\($0.0)", $0.1) }
  }

  /// Whether `character` may be in a query field's name (`ep.section`, `$token`, `p[4]`).
  static func isNameCharacter(_ character: Character) -> Bool {
    character.isASCII && (character.isLetter || character.isNumber || "._$:-[]".contains(character))
  }

  /// A `data=` field's JSON, as sent or base64 (with or without padding).
  static func decodedBody(_ text: String) -> PropertyValue? {
    if let body = try? JSONParser.parse(text) { return body }
    let padded = text + String(repeating: "=", count: (4 - text.count % 4) % 4)
    guard let data = Data(base64Encoded: padded) else { return nil }
    return try? JSONParser.parse(Array(data))
  }

  /// A query's or form's fields by place: its name; under Adobe's nested levels (`c.`, `a.` …
  /// `.a`, `.c`) the dotted path (`c.a.action`); a value that is a JSON object or array (AT
  /// Internet's `stc`) is its leaves under its name.
  static func pairLeaves(_ pairs: [(name: String, value: String)]) -> [(String, PropertyValue)] {
    var levels: [String] = []
    var found: [(String, PropertyValue)] = []
    for (name, value) in pairs {
      if name.count > 1, name.hasSuffix("."), !name.hasPrefix(".") {
        levels.append(String(name.dropLast()))
      } else if name.count > 1, name.hasPrefix("."), levels.last == String(name.dropFirst()) {
        levels.removeLast()
      } else if value.hasPrefix("{"), case .object(let members)? = try? JSONParser.parse(value) {
        leaves(.object(members), at: name, into: &found)
      } else {
        found.append(((levels + [name]).joined(separator: "."), .string(value)))
      }
    }
    return found
  }

  static func account(_ found: [(String, PropertyValue)], _ events: [IngestedEvent], vendor: Vendor?)
    -> Account
  {
    let unread = events.flatMap { FieldAccount.places(in: $0.annotations) }
    let renamed = decodedAs[vendor?.id.rawValue ?? ""] ?? [:]
    var account = Account()
    for (path, value) in found {
      account.keys += 1
      // A query field of a body request is named `query.<name>` or by its name alone.
      let bare = path.hasPrefix("query.") ? String(path.dropFirst("query.".count)) : path
      if unread.contains(where: { place in
        [path, bare].contains { $0 == place || $0.hasPrefix(place + ".") || $0.hasPrefix(place + "[") }
      }) {
        account.reported.append(path)
      } else if events.contains(where: { event in
        keys(path).contains { key in values(value).contains { carries(event, key: key, value: $0) } }
      })
        || (renamed[Vendor.TransportFields.withoutIndices(path)] ?? renamed[leafKey(path) ?? ""]).map({
          names in
          events.contains { event in
            names.contains { holdsKey(.object(event.call.parameters), $0) || event.annotations[$0] != nil }
          }
        }) ?? false
      {
        account.carried += 1
      } else if vendor.map({
        $0.transportFields.contains(path: path) || $0.transportFields.contains(path: bare)
      })
        ?? false
      {
        account.transport += 1
      } else {
        account.missing.append(path)
      }
    }
    return account
  }

  /// Every scalar (or empty object or array) of `value`, by its path.
  static func leaves(_ value: PropertyValue, at path: String, into found: inout [(String, PropertyValue)]) {
    switch value {
    case .object(let members) where !members.isEmpty:
      for member in members {
        leaves(member.value, at: path.isEmpty ? member.key : "\(path).\(member.key)", into: &found)
      }
    case .array(let elements) where !elements.isEmpty:
      for (index, element) in elements.enumerated() { leaves(element, at: "\(path)[\(index)]", into: &found) }
    default:
      found.append((path, value))
    }
  }

  /// The names the field at `path` may be carried under: its own, and for a dotted path its
  /// dotted tails (Adobe's context data `c.a.action` is carried as `a.action`).
  static func keys(_ path: String) -> [String?] {
    guard let leaf = leafKey(path) else { return [nil] }
    let parts = path.split(separator: ".")
    guard parts.count > 1, !path.contains("[") else { return [leaf] }
    return [leaf] + (1..<parts.count - 1).map { parts[$0...].joined(separator: ".") }
  }

  /// `value`, and the number a query's text reads as (gtag's `epn.value=2.5` is carried as 2.5).
  static func values(_ value: PropertyValue) -> [PropertyValue] {
    guard case .string(let text) = value, let number = Double(text) else { return [value] }
    return [value, .double(number)] + (Int(text).map { [.int($0)] } ?? [])
  }

  /// The name of the field at `path`, `nil` for an array's element.
  static func leafKey(_ path: String) -> String? {
    guard !path.hasSuffix("]") else { return nil }
    return path.split(separator: ".").last.map(String.init)
  }

  /// Whether `event`'s record holds `value` under `key` (anywhere, for an array element): in its
  /// call, properties, credentials, annotations, identity or time.
  static func carries(_ event: IngestedEvent, key: String?, value: PropertyValue) -> Bool {
    let places: [Properties] = [
      event.call.parameters, event.properties, event.credentials, event.annotations,
    ]
    if places.contains(where: { holds(.object($0), key: key, value: value) }) { return true }
    // Piano's typed keys (`n:duration`) are carried under their names.
    if let key, let colon = key.firstIndex(of: ":"),
      places.contains(where: {
        holds(.object($0), key: String(key[key.index(after: colon)...]), value: value)
      })
    {
      return true
    }
    // A call named by the field (Braze's attributes: `setCustomAttribute` `language`, `value`).
    if let key, event.call.name == key,
      value == .null || holds(.object(event.call.parameters), key: nil, value: value)
        || event.call.parameters.contains(where: { $0.value == value })
    {
      return true
    }
    let identity = event.identity
    let texts = [
      identity.deviceID, identity.app, identity.platform, identity.model, identity.userID,
      identity.anonymousID,
      identity.previousID, identity.sessionID, event.name, event.call.name, event.messageID,
    ]
    if let text = Payload.string(value), texts.contains(text) { return true }
    if let time = event.time, let number = value.doubleValue {
      return [1, 1_000, 1_000_000].contains { abs(number / $0 - time.timeIntervalSince1970) < 0.001 }
    }
    return false
  }

  /// Whether `container` has a member named `key` at any depth.
  static func holdsKey(_ container: PropertyValue, _ key: String) -> Bool {
    switch container {
    case .object(let members): return members.contains { $0.key == key || holdsKey($0.value, key) }
    case .array(let elements): return elements.contains { holdsKey($0, key) }
    default: return false
    }
  }

  /// Whether `container` holds `value` under `key` at any depth (an array's element when `key` is `nil`).
  static func holds(_ container: PropertyValue, key: String?, value: PropertyValue) -> Bool {
    switch container {
    case .object(let members):
      return members.contains { member in
        (key == nil || member.key == key) && member.value == value
          || holds(member.value, key: key, value: value)
      }
    case .array(let elements):
      return elements.contains { (key == nil && $0 == value) || holds($0, key: key, value: value) }
    default:
      return false
    }
  }
}
