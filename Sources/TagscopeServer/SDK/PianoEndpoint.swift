import AnalyticsHub
import AnalyticsProviders
import Foundation
import NIOHTTP1
import TagscopeRecording
import TagscopeVendors

/// Piano Analytics' collection endpoint (`POST https://<collect domain>/event?s=<site>&idclient=<visitor>`):
/// a JSON body `{"events": [{"name": "page.display", "data": {…}}]}`.
///
/// Read from at-internet/piano-analytics-android @ f3351cb99253fe82db771acfb54aacdbf2582380
/// (`SendTask.kt`, `Configuration.kt`, `EventPropertiesJsonAdapter.kt`, `model/Property.kt`) and
/// `model/PropertyName.kt` @ 1119dc4febfbf3fda467782bac1a1814b0cf330c; at-internet/piano-analytics-js
/// @ 4aa564734ca53e4b0862ef1bb836f84027074b5f `src/core/steps/build.step.js` (its `text/plain`
/// body). A property whose type the app forced is sent as `<type>:<key>` (`s:`, `n:`, `f:`, `d:`,
/// `b:`, `a:s:`…): recorded under its key, the type kept under `forced_types`. Each event is the
/// in-app `sendEvent` call with the app's properties (``PianoProperties``); the properties the SDK
/// adds (device, app, session, privacy, user) name the sender and are kept under
/// `sdk_properties`. Any other field, of the body, the query or an event, is kept under the
/// record's `unread` by its place (`extra`, `query.x`, `events[1].meta`) and reported
/// (``FieldAccount``). A `page.display` is a screen named by its `page`. The SDK reads no answer:
/// `200` with an empty body. No request limit is published; a body is held to the registry's
/// (`Vendor.Limit.pianoCollect`, 1 MB).
struct PianoEndpoint: SDKEndpoint {
  /// The body's fields the decoder reads (the SDKs send no other, `SendTask.kt`, `build.step.js`).
  static let requestFields: Set<String> = ["events"]
  /// The query's: the site and the visitor.
  static let queryFields: Set<String> = ["s", "idclient"]
  /// An event's: its name and its properties (``PianoProperties``).
  static let eventFields: Set<String> = ["name", "data"]

  var provider: String { Vendors.piano.rawValue }
  var bodyLimit: Int { Vendor.Limit.pianoCollect.requestBytes }

  func replyTooLarge() -> SDKReply {
    Self.fail(.payloadTooLarge, "The request body is over 1 MB", .bodyTooLarge)
  }

  func handle(_ request: ReceivedRequest) -> SDKReply {
    // The Apple SDK sets no type: URLSession sends its JSON as a form (the body still parses).
    guard request.isJSON || request.mediaType == "text/plain" || request.isForm || request.mediaType == nil
    else {
      return Self.fail(.badRequest, "Content-Type must be application/json or text/plain", .wrongContentType)
    }
    guard let site = request.queryValue("s"), !site.isEmpty else {
      return Self.fail(.badRequest, "No site id: the query has no s=", .invalidPayload)
    }
    let body: PropertyValue
    do { body = try JSONParser.parse(request.body) } catch {
      return Self.fail(.badRequest, "Invalid JSON: \(error)", .malformedJSON)
    }
    guard case .object(let fields) = body, let events = Payload.array(fields["events"]) else {
      return Self.fail(.badRequest, "The body must be an object with an events array", .invalidPayload)
    }
    // The request's own fields (its body's and query's) are reported once, with its first record.
    var own = FieldAccount()
    own.check(fields, at: "", understood: Self.requestFields, transport: [])
    own.check(pairs: request.query, at: "query", understood: Self.queryFields.contains, transport: [])
    own.checkRepeats(in: request.query, at: "query", of: Self.queryFields.contains)
    var credentials: Properties = ["s": .string(site)]
    if let visitor = request.queryValue("idclient") { credentials["idclient"] = .string(visitor) }
    var accepted: [IngestedEvent] = []
    for (index, element) in events.enumerated() {
      let place = "events[\(index)]"
      guard case .object(let event) = element else {
        return Self.fail(.badRequest, "\(place) is not an object", .invalidPayload)
      }
      guard let name = Payload.text(event["name"]), !name.isEmpty else {
        return Self.fail(.badRequest, "\(place) has no name", .invalidPayload)
      }
      if event["data"] != nil, Payload.objectOrNil(event["data"]) == nil {
        return Self.fail(.badRequest, "\(place).data is not an object", .invalidPayload)
      }
      var account = FieldAccount()
      account.check(event, at: place, understood: Self.eventFields, transport: [])
      let split = PianoProperties(Payload.object(event["data"]))
      for (sent, value) in split.repeated { account.note("\(place).data.\(sent)", value) }
      let identity = Self.identity(split.sdk, visitor: request.queryValue("idclient"))
      var ingested = split.record(
        name: name, identity: identity, raw: JSONText.string(event), credentials: credentials, place: place)
      account.add(to: &ingested)
      accepted.append(ingested)
    }
    if accepted.isEmpty, !own.isEmpty {
      // No event, but fields Tagscope does not read: recorded, not dropped.
      accepted.append(
        IngestedEvent(
          provider: Vendors.piano.rawValue, kind: .event, name: "request", properties: [:], time: nil,
          identity: Self.identity([:], visitor: request.queryValue("idclient")),
          call: CallDescription(method: "request", name: nil, parameters: [:]), raw: "", recordsRaw: false,
          credentials: credentials))
    }
    own.add(to: &accepted)
    return SDKReply(status: .ok, contentType: "text/plain", body: "", events: accepted)
  }

  static func fail(_ status: HTTPResponseStatus, _ message: String, _ reason: RejectionReason) -> SDKReply {
    SDKReply(status: status, contentType: "text/plain", body: message, rejection: reason)
  }
}
