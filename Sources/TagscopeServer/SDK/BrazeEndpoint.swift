import AnalyticsHub
import AnalyticsProviders
import Foundation
import NIOHTTP1
import TagscopeRecording
import TagscopeVendors

/// Braze's SDK data endpoint (`POST https://sdk.<cluster>/api/v3/data`, `/api/v3/data/` from the
/// Web SDK): one JSON object with the request's `api_key`, `device_id`, `user_id`, `time`,
/// `sdk_version`, an `events` array and an `attributes` array.
///
/// Read from braze-inc/braze-roku-sdk `sdk_files/source/BrazeSDK.brs` @ 0d97001684dab47d28580ea61fdd1076e9c6bac8
/// (`createEventObject`, `createAttributeObject`, `generateRequiredRequestFields`), the only Braze
/// SDK whose request building is published, and a real Web SDK 2.5.2 body (see the tests'
/// fixtures). Each event and each attribute becomes a record whose call is the Braze Swift SDK's
/// (``BrazeEvents``), so a plan judges the wire and the in-app hub alike. The request's own fields
/// are kept once, in its first record's output under `request`; a field Tagscope does not read is
/// kept under `unread`, named by its place (`events[2].data.x`). Braze publishes no request
/// limit: a body is held to the registry's (`Vendor.Limit.brazeData`, 1 MB). Answers `200` with
/// `{}` (no success body is published; the SDKs read only what they asked for under
/// `respond_with`). The content requests (`/api/v3/content_cards/sync`, `feature_flags/sync`,
/// `template`, `banners/sync`, `geofence/request`) and the SDK's own (`push/redeliver`,
/// `debugger/init`, `debugger/log`, `dust/config`, `push_token_tag`) come here too, and are ``BrazeSync``'s. The
/// Android SDK's push deliveries (`/api/v3/push/delivery_events`: `events` of type `pd`) are read
/// as a data request, its geofence transition report (`/api/v3/geofence/report`: one
/// `geofence_event` of type `g`) as one of a single event.
struct BrazeEndpoint: SDKEndpoint {
  var provider: String { Vendors.braze.rawValue }
  var bodyLimit: Int { Vendor.Limit.brazeData.requestBytes }

  /// The request's own fields (every other is reported under `unread`).
  static let requestFields: Set<String> = [
    "api_key", "device_id", "user_id", "time", "sdk_version", "sdk_flavor", "app_version", "app_version_code",
    "device", "events", "attributes", "respond_with", "template",
    // The Android SDK's data request (`com.braze.requests.f`, code index id 3910759788).
    "sdk_metadata",
  ]

  /// The Android SDK's geofence transition report (one `geofence_event`, not `events`).
  static let geofenceReport = "/api/v3/geofence/report"

  /// `path` without a last `/`.
  static func trimmed(_ path: String) -> String {
    path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
  }

  func replyTooLarge() -> SDKReply {
    Self.fail(.payloadTooLarge, "The request body is over 1 MB", .bodyTooLarge)
  }

  func handle(_ request: ReceivedRequest) -> SDKReply {
    let fields: Properties
    switch JSONObjectBody.read(request) {
    case .success(let object): fields = object
    case .failure(let refusal): return Self.fail(refusal.status, refusal.message, refusal.reason)
    }
    let apiKey = Payload.text(fields["api_key"]) ?? request.headers.first(name: "x-braze-api-key")
    guard let apiKey, !apiKey.isEmpty else {
      return Self.fail(.badRequest, "No api_key in the body or X-Braze-Api-Key header", .invalidPayload)
    }
    if let kind = BrazeSync.Kind(path: request.path) {
      return BrazeSync.reply(fields, apiKey: apiKey, kind: kind)
    }
    // A geofence report carries its one event as `geofence_event`; the other paths an array.
    let isReport = Self.trimmed(request.path) == Self.geofenceReport
    if isReport, Payload.objectOrNil(fields["geofence_event"]) == nil {
      return Self.fail(.badRequest, "geofence_event must be an object", .invalidPayload)
    }
    let events = isReport ? [fields["geofence_event"]!] : fields["events"].map { Payload.array($0) } ?? []
    let attributes = fields["attributes"].map { Payload.array($0) } ?? []
    guard let events else { return Self.fail(.badRequest, "events must be an array", .invalidPayload) }
    guard let attributes else {
      return Self.fail(.badRequest, "attributes must be an array", .invalidPayload)
    }
    // A report's `events` are not read (its one event is `geofence_event`): reported, not dropped.
    let known =
      isReport ? Self.requestFields.union(["geofence_event"]).subtracting(["events"]) : Self.requestFields
    let unread = Properties(
      fields.filter { !known.contains($0.key) }.map { ("request.\($0.key)", $0.value) })
    let context = BrazeEvents.RequestContext(fields: fields, apiKey: apiKey)
    var accepted: [IngestedEvent] = []
    for (index, element) in events.enumerated() {
      let place = isReport ? "geofence_event" : "events[\(index)]"
      guard case .object(let event) = element else {
        return Self.fail(.badRequest, "\(place) is not an object", .invalidPayload)
      }
      guard let code = Payload.text(event["name"]), !code.isEmpty else {
        return Self.fail(.badRequest, "\(place) has no name (its type code)", .invalidPayload)
      }
      accepted.append(BrazeEvents.event(code: code, event, place: place, context))
    }
    for (index, element) in attributes.enumerated() {
      guard case .object(let attribute) = element else {
        return Self.fail(.badRequest, "attributes[\(index)] is not an object", .invalidPayload)
      }
      accepted += BrazeEvents.attributes(attribute, place: "attributes[\(index)]", context)
    }
    BrazeEvents.addRequest(fields, unread: unread, to: &accepted, context)
    FieldAccount.reportUnread(in: &accepted)
    return SDKReply(status: .ok, body: "{}", events: accepted)
  }

  /// A refusal with Braze's error shape (`{"error": …}`).
  static func fail(_ status: HTTPResponseStatus, _ message: String, _ reason: RejectionReason) -> SDKReply {
    SDKReply(status: status, body: JSONText.string(["error": .string(message)]), rejection: reason)
  }
}
