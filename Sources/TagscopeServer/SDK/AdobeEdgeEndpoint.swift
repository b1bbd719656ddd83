import AnalyticsHub
import AnalyticsProviders
import Foundation
import NIOHTTP1
import TagscopeRecording

/// Adobe Experience Platform Edge: `POST /ee/v1/interact` (the mobile Edge extension's, answered
/// with a streamed response) and `/ee/v1/collect` (fire and forget, `204`), with or without a
/// location hint (`/ee/or2/v1/interact`) or the pre-production prefix (`/ee-pre-prd/v1/…`).
///
/// Read in adobe/aepsdk-edge-android @ f607561cf7301e22deaabdcdf838844127e52186 (`EdgeEndpoint`,
/// `EdgeNetworkService`, `RequestBuilder`, `EdgeJson`) and aepsdk-edge-ios's functional tests.
/// The body is `{"events":[{"xdm":{…},"data":{…},"meta":{…}}…],"meta":{…},"xdm":{identityMap,
/// implementationDetails},"query":{…}}`. Each element of `events` is a record: a `sendEvent`
/// call named by its `xdm.eventType`, whose parameters and properties are the event's `xdm` and
/// `data` (its `meta` and `query` too when sent); the request's `xdm`, `meta` and `query` are kept
/// beside the first event's call (`request`), the `configId` (datastream) and the event's index
/// beside each (`config_id`, `event_index`). A key Tagscope does not know, an event without
/// `eventType`, is kept and listed in `problems` with its place (the first 50).
struct AdobeEdgeEndpoint: SDKEndpoint {
  /// Whether the path is `collect` (answered `204`), not `interact`.
  let isCollect: Bool

  var provider: String { Vendors.adobe.rawValue }
  /// The registry's bound (``Vendor/Limit/adobeEdge``: none documented, 1 MB).
  var bodyLimit: Int { Vendor.Limit.adobeEdge.requestBytes }

  /// The event keys the Edge extension writes.
  static let eventKeys: Set<String> = ["xdm", "data", "meta", "query"]
  /// The request keys the Edge extension writes.
  static let requestKeys: Set<String> = ["events", "xdm", "meta", "query"]

  /// The endpoint of `path` when it is an Edge path: `/ee`, or `/ee-pre-prd`, an optional
  /// location hint, then `/v1/interact` or `/v1/collect`.
  static func matching(path: String) -> AdobeEdgeEndpoint? {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 4 || parts.count == 5, parts[0].isEmpty,
      parts[1] == "ee" || parts[1] == "ee-pre-prd",
      parts[parts.count - 2] == "v1",
      parts[parts.count - 1] == "interact" || parts[parts.count - 1] == "collect"
    else { return nil }
    if parts.count == 5, parts[2].isEmpty || !parts[2].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" })
    {
      return nil
    }
    return AdobeEdgeEndpoint(isCollect: parts[parts.count - 1] == "collect")
  }

  func replyTooLarge() -> SDKReply {
    Self.fail(413, "Request body over \(bodyLimit) bytes", .bodyTooLarge)
  }

  func handle(_ request: ReceivedRequest) -> SDKReply {
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
    guard case .object(let fields) = body, let events = Payload.array(fields["events"]), !events.isEmpty
    else {
      return Self.fail(400, "The request must be an object with a non-empty events array", .invalidPayload)
    }
    var requestProblems: [String] = []
    for (key, _) in fields
    where !Self.requestKeys.contains(key) && requestProblems.count < AdobeHitFields.problemLimit {
      requestProblems.append(
        "request key \(AdobeHitFields.excerpt(key)): not one Tagscope knows, kept in request")
    }
    var shared: Properties = [:]
    for (key, value) in fields where key != "events" { shared.appendUnchecked(key, value) }
    let identity = Self.identity(request: fields)
    var annotations: Properties = ["request": .object(shared)]
    if let config = request.queryValue("configId") { annotations["config_id"] = .string(config) }
    var ingested: [IngestedEvent] = []
    ingested.reserveCapacity(events.count)
    for (index, element) in events.enumerated() {
      guard case .object(let event) = element, case .object(let xdm)? = event["xdm"] else {
        return Self.fail(400, "events[\(index)] must be an object with an xdm object", .invalidPayload)
      }
      var problems = index == 0 ? requestProblems : []
      for (key, _) in event
      where !Self.eventKeys.contains(key) && problems.count < AdobeHitFields.problemLimit {
        problems.append("events[\(index)].\(AdobeHitFields.excerpt(key)): not a key Tagscope knows, kept")
      }
      let eventType = DeviceIdentity.present(Payload.text(xdm["eventType"]))
      if eventType == nil {
        problems.append("events[\(index)].xdm.eventType: missing, recorded as sendEvent")
      }
      let name = eventType ?? "sendEvent"
      // The request's own fields go with its first event's record only: a request of many events
      // does not write them again on every line.
      var extra: Properties = index == 0 ? annotations : [:]
      if let config = annotations["config_id"], index > 0 { extra["config_id"] = config }
      extra["event_index"] = .int(index)
      if !problems.isEmpty { extra["problems"] = .array(problems.map(PropertyValue.string)) }
      ingested.append(
        IngestedEvent(
          provider: provider, kind: .event, name: name, properties: event,
          time: Payload.text(xdm["timestamp"]).flatMap(ISO8601Timestamp.date(from:)), identity: identity,
          call: CallDescription(method: "sendEvent", name: name, parameters: event),
          raw: JSONText.string(event),
          recordsRaw: false, annotations: extra, messageID: DeviceIdentity.present(Payload.text(xdm["_id"]))))
    }
    if isCollect {
      return SDKReply(status: .noContent, contentType: "text/plain", body: "", events: ingested)
    }
    let requestID = JSONText.value(.string(request.queryValue("requestId") ?? UUID().uuidString.lowercased()))
    return SDKReply(
      status: .ok, contentType: "application/json",
      body: "\u{0}{\"requestId\":\(requestID),\"handle\":[]}\n", events: ingested)
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
