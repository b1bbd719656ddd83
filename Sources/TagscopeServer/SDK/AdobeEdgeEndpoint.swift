import AnalyticsHub
import AnalyticsProviders
import Foundation
import NIOHTTP1
import TagscopeRecording
import TagscopeVendors

/// Adobe Experience Platform Edge: `POST /ee/v1/interact` (the mobile Edge extension's, answered
/// with a streamed response), `/ee/v1/collect` (fire and forget, `204`) and
/// `/ee/v1/privacy/set-consent` (``AdobeEdgeConsent``), `/ee/v1/identity/acquire` (the Web SDK's
/// `getIdentity`: ``AdobeEdgeIdentityAcquire``), Media Edge's `/ee/va/v1/<event>` (the Edge
/// extension's request, read as interact), with or without a location hint
/// (`/ee/or2/v1/interact`) or the pre-production prefix (`/ee-pre-prd/v1/…`); and the Edge
/// Network Server API's `/ee/v2/interact` (one `event`, answered with plain JSON) and
/// `/ee/v2/collect` (`events` of many users, `202` with the request id, `204` when `silent`).
/// Another version (`/ee/v3/…`) or operation is refused `404` with its path and what Tagscope
/// reads (the proxy forwards it as it was and reports it), never decoded by a guess.
///
/// Read in adobe/aepsdk-edge-android @ f607561cf7301e22deaabdcdf838844127e52186 (`EdgeEndpoint`,
/// `EdgeNetworkService`, `RequestBuilder`, `EdgeJson`) and aepsdk-edge-ios's functional tests; v2
/// in Adobe's published Edge Network API contract (AdobeDocs/data-collection-apis
/// `static/api-reference.yaml` @ 03788395c2c6971dd4706c39cd13e192191702b5: `SingleEventRequest`,
/// `BatchV2Request`, `CollectV2Response`, the `datastreamId` query parameter).
/// The v1 body is `{"events":[{"xdm":{…},"data":{…},"meta":{…}}…],"meta":{…},"xdm":{identityMap,
/// implementationDetails},"query":{…}}`. Each element of `events` (or the v2 `event`) is a record:
/// a `sendEvent` call named by its `xdm.eventType`, whose parameters and properties are the
/// event's `xdm` and `data` (its `meta` and `query` too when sent); the request's `xdm`, `meta`
/// and `query` are kept beside the first event's call (`request`), the datastream (`configId`,
/// v2 `datastreamId`) and the event's index beside each (`config_id`, `event_index`), and the
/// request's path when it is not `/ee/v1/interact` with the first (`path`). A v2
/// event names its own user in its `xdm.identityMap`. A key Tagscope does not know, of the request
/// or of an event, is kept out of the call, under the record's `unread` by its place (`surprise`,
/// `events[0].extra`), and reported (``FieldAccount``); an event without `eventType` is listed in
/// `problems`.
struct AdobeEdgeEndpoint: SDKEndpoint {
  /// What an Edge path does.
  enum Operation: Sendable {
    case interact, collect, setConsent
    /// The Web SDK's `getIdentity` (``AdobeEdgeIdentityAcquire``).
    case acquireIdentity
    /// An Edge path of a version or operation Tagscope does not read: refused `404`, reported
    /// with its path (forwarded as it was by the proxy), never guessed.
    case notRead
  }

  /// The Edge API version of the path: 1 (the SDKs'), 2 (the Server API's).
  var version = 1
  /// What the path does.
  var operation: Operation

  /// Whether the path is `collect` (answered without content), not `interact`.
  var isCollect: Bool { operation == .collect }

  var provider: String { Vendors.adobe.rawValue }
  /// The registry's bound (``Vendor/Limit/adobeEdge``: none documented, 1 MB).
  var bodyLimit: Int { Vendor.Limit.adobeEdge.requestBytes }

  /// The endpoint of a registry path (the router's ``Vendor/Decoder/adobeEdge(collect:)``); the
  /// path a request names says which it is (``matching(path:)``).
  init(isCollect: Bool) { operation = isCollect ? .collect : .interact }

  init(version: Int, operation: Operation) {
    self.version = version
    self.operation = operation
  }

  /// The event keys the Edge extension writes.
  static let eventKeys: Set<String> = ["xdm", "data", "meta", "query"]
  /// The request keys the Edge extension writes.
  static let requestKeys: Set<String> = ["events", "xdm", "meta", "query"]
  /// The request keys of the Server API's v2 paths: `event` (interact) or `events` (collect).
  static let serverRequestKeys: Set<String> = ["event", "events", "meta", "query"]
  /// The query's: the datastream (`configId`, v2 `datastreamId`), the request's id, and the v2
  /// collect's `silent` (aepsdk-edge-android `EdgeNetworkService.buildUrl`, the Server API).
  static let queryKeys: Set<String> = ["configId", "datastreamId", "requestId", "silent"]

  /// Reports the fields of `request`'s query Edge does not take (``queryKeys``), and one sent
  /// twice, in `account`: of every request to Edge, whatever it asks (events, consent, identity).
  static func checkQuery(_ request: ReceivedRequest, into account: inout FieldAccount) {
    account.check(pairs: request.query, at: "query", understood: queryKeys.contains, transport: [])
    account.checkRepeats(in: request.query, at: "query", of: queryKeys.contains)
  }

  /// The datastream `request` is sent to: its query's `configId`, v2's `datastreamId`.
  static func datastream(_ request: ReceivedRequest) -> String? {
    request.queryValue("configId") ?? request.queryValue("datastreamId")
  }

  /// The endpoint of `path` when it is an Edge path (``Vendor/AdobeEdgePath``, the Adobe descriptor's grammar): `/ee`, or `/ee-pre-prd`,
  /// an optional location hint, then `/v1/interact`, `/v1/collect`, `/v1/privacy/set-consent`,
  /// `/v1/identity/acquire`, `/v2/interact`, `/v2/collect`, or Media Edge's `/va/v1/<event>` (the
  /// Edge extension's request, read as interact). Any other version or operation is an Edge path
  /// all the same, answered ``Operation/notRead``.
  static func matching(path: String) -> AdobeEdgeEndpoint? {
    guard let edge = Vendor.AdobeEdgePath(path) else { return nil }
    switch (edge.version, edge.isMedia, edge.operation) {
    case ("v1", false, "interact"), ("v1", true, _):
      return AdobeEdgeEndpoint(version: 1, operation: .interact)
    case ("v1", false, "collect"): return AdobeEdgeEndpoint(version: 1, operation: .collect)
    case ("v1", false, "privacy/set-consent"): return AdobeEdgeEndpoint(version: 1, operation: .setConsent)
    case ("v1", false, "identity/acquire"): return AdobeEdgeEndpoint(version: 1, operation: .acquireIdentity)
    case ("v2", false, "interact"): return AdobeEdgeEndpoint(version: 2, operation: .interact)
    case ("v2", false, "collect"): return AdobeEdgeEndpoint(version: 2, operation: .collect)
    default: return AdobeEdgeEndpoint(version: 0, operation: .notRead)
    }
  }

  /// Why Tagscope does not read the Edge path `path`.
  static func notReadReason(_ path: String) -> String {
    guard let edge = Vendor.AdobeEdgePath(path) else { return "\(path) is not an Edge path" }
    let media = edge.isMedia ? "Media Edge " : ""
    guard ["v1", "v2"].contains(edge.version), !(edge.isMedia && edge.version != "v1") else {
      return
        "\(path): \(media)Edge API version \(edge.version) is not one Tagscope reads (v1, v2; Media Edge v1): not decoded"
    }
    return
      "\(path): Edge \(edge.version) operation \(edge.operation) is not one Tagscope reads "
      + "(v1 interact, collect, privacy/set-consent, identity/acquire; v2 interact, collect): not decoded"
  }

  /// The path the Edge extension sends its events to without a location hint.
  static let interactPath = "/ee/v1/interact"
  /// The path the Edge extension sends its consent to without a location hint.
  static let consentPath = "/ee/v1/privacy/set-consent"

  /// The request's path as its first record keeps it (`path`), so that `tagscope export --har`
  /// sends it there again: when it is not `sdkPath` (a location hint, `collect`, the Server API's
  /// `/ee/v2/…`).
  static func keptPath(_ path: String, sdkPath: String) -> PropertyValue? {
    path == sdkPath ? nil : .string(path)
  }

  func replyTooLarge() -> SDKReply {
    Self.fail(413, "Request body over \(bodyLimit) bytes", .bodyTooLarge)
  }

  func handle(_ request: ReceivedRequest) -> SDKReply {
    // The registry's paths are routed to one endpoint each; the path itself says which.
    let edge = Self.matching(path: request.path) ?? self
    if edge.operation == .notRead {
      return Self.fail(404, Self.notReadReason(request.path), .unknownEndpoint)
    }
    // Routed with Adobe's GET-taking hits by their provider; Edge takes POST only.
    guard request.method == .POST else {
      var refused = Self.fail(405, "The Edge Network takes POST", .unknownEndpoint)
      refused.allow = "POST, OPTIONS"
      return refused
    }
    // The Web SDK's sendBeacon posts `text/plain`; the mobile SDK `application/json`.
    guard request.isJSON || request.mediaType == "text/plain" || request.mediaType == nil else {
      return Self.fail(415, "Content-Type must be application/json", .wrongContentType)
    }
    let body: PropertyValue
    do { body = try JSONParser.parse(request.body) } catch {
      return Self.fail(400, "Invalid JSON: \(error)", .malformedJSON)
    }
    guard case .object(let fields) = body else {
      return Self.fail(400, "The request must be a JSON object", .invalidPayload)
    }
    switch edge.operation {
    case .setConsent: return AdobeEdgeConsent.reply(fields, request: request)
    case .acquireIdentity: return AdobeEdgeIdentityAcquire.reply(fields, request: request)
    case .interact, .collect, .notRead: break
    }
    return edge.events(fields, request: request)
  }

  /// The records of an interact or collect request's events, and Edge's answer.
  private func events(_ fields: Properties, request: ReceivedRequest) -> SDKReply {
    let single = version == 2 && operation == .interact
    let events: [PropertyValue]
    if single {
      guard case .object? = fields["event"] else {
        return Self.fail(400, "The request must be an object with an event object", .invalidPayload)
      }
      events = [fields["event"]!]
    } else {
      guard let array = Payload.array(fields["events"]), !array.isEmpty else {
        return Self.fail(400, "The request must be an object with a non-empty events array", .invalidPayload)
      }
      events = array
    }
    // The v2 form's one event key: the other is not read (reported, not dropped).
    let known =
      version == 1
      ? Self.requestKeys : Self.serverRequestKeys.subtracting([single ? "events" : "event"])
    // A key Tagscope does not know is kept under the record's `unread` and reported, not in the
    // call: the request's once, with its first event; so is a query field, or one sent twice.
    var own = FieldAccount()
    own.check(fields, at: "", understood: known, transport: [])
    Self.checkQuery(request, into: &own)
    var shared: Properties = [:]
    for (key, value) in fields where key != "events" && key != "event" && known.contains(key) {
      shared.appendUnchecked(key, value)
    }
    let identity = Self.identity(request: fields)
    var annotations: Properties = ["request": .object(shared)]
    if let config = Self.datastream(request) { annotations["config_id"] = .string(config) }
    if let path = Self.keptPath(request.path, sdkPath: Self.interactPath) { annotations["path"] = path }
    let place = single ? "event" : "events"
    var ingested: [IngestedEvent] = []
    ingested.reserveCapacity(events.count)
    for (index, element) in events.enumerated() {
      let at = single ? place : "\(place)[\(index)]"
      guard case .object(let event) = element, case .object(let xdm)? = event["xdm"] else {
        return Self.fail(400, "\(at) must be an object with an xdm object", .invalidPayload)
      }
      var account = FieldAccount()
      account.check(event, at: at, understood: Self.eventKeys, transport: [])
      let carried =
        account.isEmpty
        ? event : Properties(event.filter { Self.eventKeys.contains($0.key) }.map { ($0.key, $0.value) })
      var problems: [String] = []
      let eventType = DeviceIdentity.present(Payload.text(xdm["eventType"]))
      if eventType == nil {
        problems.append("\(at).xdm.eventType: missing, recorded as sendEvent")
      }
      let name = eventType ?? "sendEvent"
      // A time that does not read is said as every decoder says it (`adobe.sent-time`).
      var violations: [RuleViolation] = []
      let time = SentTime.iso8601(
        xdm["timestamp"], field: "\(at).xdm.timestamp", provider: Vendors.adobe.rawValue,
        violations: &violations)
      // The request's own fields go with its first event's record only: a request of many events
      // does not write them again on every line.
      var extra: Properties = index == 0 ? annotations : [:]
      if let config = annotations["config_id"], index > 0 { extra["config_id"] = config }
      extra["event_index"] = .int(index)
      if !problems.isEmpty { extra["problems"] = .array(problems.map(PropertyValue.string)) }
      // A Server API event names its own user (a v2 collect holds many users' events).
      let sender =
        version == 2 && xdm["identityMap"] != nil ? Self.identity(request: ["xdm": .object(xdm)]) : identity
      var record = IngestedEvent(
        provider: provider, kind: .event, name: name, properties: carried,
        time: time, identity: sender,
        call: CallDescription(method: "sendEvent", name: name, parameters: carried),
        violations: violations, raw: JSONText.string(event),
        recordsRaw: false, annotations: extra, messageID: DeviceIdentity.present(Payload.text(xdm["_id"])))
      account.add(to: &record)
      ingested.append(record)
    }
    own.add(to: &ingested)
    return answer(request, events: ingested)
  }

  /// Edge's answer to an accepted request of `events`.
  private func answer(_ request: ReceivedRequest, events: [IngestedEvent]) -> SDKReply {
    let requestID = JSONText.value(.string(request.queryValue("requestId") ?? UUID().uuidString.lowercased()))
    switch (version, operation) {
    case (2, .collect) where request.queryValue("silent") != "true":
      return SDKReply(status: .accepted, body: "{\"requestId\":\(requestID)}", events: events)
    case (_, .collect):
      return SDKReply(status: .noContent, contentType: "text/plain", body: "", events: events)
    case (2, _):
      return SDKReply(status: .ok, body: "{\"requestId\":\(requestID),\"handle\":[]}", events: events)
    default:
      return SDKReply(
        status: .ok, contentType: "application/json",
        body: "\u{0}{\"requestId\":\(requestID),\"handle\":[]}\n", events: events)
    }
  }

  /// An Edge error: its problem document (`type`, `status`, `title`, `detail`).
  static func fail(_ status: Int, _ detail: String, _ reason: RejectionReason) -> SDKReply {
    let body = JSONText.string([
      "type": .string("https://ns.adobe.com/aep/errors/EXEG-0003-\(status)"), "status": .int(status),
      "title": .string("Invalid request"), "detail": .string(detail),
    ])
    return SDKReply(
      status: HTTPResponseStatus(statusCode: status), contentType: "application/problem+json", body: body,
      rejection: reason)
  }
}
