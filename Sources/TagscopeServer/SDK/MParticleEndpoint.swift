import AnalyticsHub
import AnalyticsProviders
import NIOHTTP1
import TagscopeRecording

/// mParticle's server-to-server Events API: `POST /v2/events` (one batch) and `POST /v2/bulkevents`
/// (a JSON array of at most 100 batches), as mParticle's server SDKs send them
/// (mParticle/mparticle-python-sdk `mparticle/apis/events_api.py`: basic auth `key:secret`, a
/// `Batch` of `events[]`, each `{"event_type", "data"}`, with `device_info`, `application_info`,
/// `user_identities`, `user_attributes`, `mpid`, `mp_deviceid`).
///
/// Each event is a record: `custom_event` an event named `data.event_name` (SDK method
/// `logEvent`), `screen_view` a screen named `data.screen_name` (`logScreen`), `commerce_event` an
/// event named by its product action, else its promotion action or impressions
/// (``Vendor/MParticleCommerceName``; `logCommerceEvent`), `user_attribute_change` an `identify`,
/// any other type an event named by its type. The call's parameters are the event as received, so
/// its custom attributes sit at `data.custom_attributes`. Replies `202 Accepted` with no body;
/// refusals carry mParticle's `{"errors":[{"code","message"}]}`: `401` without basic auth, `400`
/// for a body that is not a batch. A refused request records nothing. A batch without events that
/// sets user data (or holds a field not understood) is one `identify` record of its own
/// (``batchOnly(_:apiKey:)``); one that sets none records nothing. The first record of each
/// batch keeps the batch's own fields it reads (`batch`), the request's first its path (`path`):
/// what a HAR export rebuilds the request from.
///
/// mParticle's web SDK sends the same batches to `/v3/JS/<api key>/events` (or
/// `/webevents/v3/JS/<api key>/events` behind a CNAME; mParticle/mparticle-web-sdk
/// `src/batchUploader.ts`, `src/sdkToEventsApiConverter.ts`), the key in the path, `text/plain`
/// bodies from `sendBeacon`.
struct MParticleEndpoint: SDKEndpoint {
  /// `true` for `/v2/bulkevents` (an array of batches), `false` for `/v2/events` (one batch).
  var isBulk: Bool
  /// The API key a web SDK path carries (`/v3/JS/<key>/events`); `nil` for the server API, whose
  /// key is the basic auth user.
  var pathKey: String?

  /// The web SDK's path prefixes, from the registry's paths (`/v3/JS/KEY/events`).
  private static let webPrefixes = Vendor.mparticle.pathPrefixes(of: .mparticleWeb, before: "KEY/events")

  /// The endpoint of a web SDK upload path, or `nil` when `path` is not one.
  static func web(path: String) -> MParticleEndpoint? {
    for prefix in webPrefixes where path.hasPrefix(prefix) && path.hasSuffix("/events") {
      let key = path.dropFirst(prefix.count).dropLast("/events".count)
      guard !key.isEmpty, !key.contains("/") else { return nil }
      return MParticleEndpoint(isBulk: false, pathKey: String(key))
    }
    return nil
  }

  /// The fields of a batch the decoder carries: its events (each call's parameters), whom they
  /// are from (``Vendor/IdentityFields``), and what the first record keeps whole: the user
  /// attributes and identities (an `identify`'s properties; an imported data plan judges them
  /// there once per batch), the device and app (each member checked, ``MParticleBatchFields``),
  /// the consent state and data plan context, the user attributes deleted and the integrations'
  /// attributes.
  static let batchFields: Set<String> = [
    "events", "device_info", "application_info", "user_identities", "user_attributes", "mpid", "mp_deviceid",
    "consent_state", "context", "deleted_user_attributes", "integration_attributes",
  ]
  /// mParticle's transport fields (``Vendor/TransportFields/mparticle``).
  static let transport = TransportLevels(Vendor.mparticle, levels: [""])

  var provider: String { Vendors.mparticle.rawValue }
  /// 3 MB: a bound of Tagscope's (mParticle's own request size limit is not in the sources read).
  var bodyLimit: Int { Vendor.Limit.mparticleEvents.requestBytes }
  /// The most batches one `/v2/bulkevents` request takes (mParticle's Events API reference:
  /// "upload up to 100 event batches").
  static let maximumBatches = Vendor.Limit.mparticleEvents.eventsPerRequest ?? .max

  func replyTooLarge() -> SDKReply {
    Self.refuse(.payloadTooLarge, "REQUEST_TOO_LARGE", "The request body is too large", .bodyTooLarge)
  }

  func handle(_ request: ReceivedRequest) -> SDKReply {
    guard let apiKey = pathKey ?? SegmentEndpoint.basicAuthUser(request.headers) else {
      return Self.refuse(
        .unauthorized, "UNAUTHORIZED", "Missing Authorization header: basic auth with the API key and secret",
        .invalidPayload)
    }
    guard request.isJSON || request.mediaType == nil || request.mediaType == "text/plain" else {
      return Self.badRequest("Content-Type must be application/json", .wrongContentType)
    }
    let body: PropertyValue
    do { body = try JSONParser.parse(request.body) } catch {
      return Self.badRequest("The request body is not valid JSON", .malformedJSON)
    }
    let batches: [PropertyValue]
    if isBulk {
      guard let list = Payload.array(body) else {
        return Self.badRequest("/v2/bulkevents takes a JSON array of batches", .invalidPayload)
      }
      guard list.count <= Self.maximumBatches else {
        return Self.badRequest(
          "At most \(Self.maximumBatches) batches per /v2/bulkevents request", .tooManyEvents)
      }
      batches = list
    } else {
      batches = [body]
    }
    var accepted: [IngestedEvent] = []
    for (index, element) in batches.enumerated() {
      let place = isBulk ? "batch \(index)" : "the batch"
      guard let batch = Payload.objectOrNil(element) else {
        return Self.badRequest("\(place) is not an object", .invalidPayload)
      }
      let first = accepted.count
      for (position, item) in (Payload.array(batch["events"]) ?? []).enumerated() {
        guard let event = Payload.objectOrNil(item), let type = Payload.text(event["event_type"]) else {
          return Self.badRequest("\(place): events[\(position)] has no event_type", .invalidPayload)
        }
        guard let data = Payload.objectOrNil(event["data"]) else {
          return Self.badRequest("\(place): events[\(position)] has no data object", .invalidPayload)
        }
        accepted.append(Self.event(event, type: type, data: data, batch: batch, apiKey: apiKey))
      }
      var account = FieldAccount()
      account.check(
        batch, at: isBulk ? "[\(index)]" : "", understood: Self.batchFields, transport: Self.transport[""])
      MParticleBatchFields.check(batch, at: isBulk ? "[\(index)]" : "", account: &account)
      account.noteUnreadableIdentity(Self.identityReader, at: isBulk ? "[\(index)]" : "") {
        $0 == "event" ? nil : batch[$0]
      }
      if let sent = batch["events"], sent != .null, Payload.array(sent) == nil {
        account.note(isBulk ? "[\(index)].events" : "events", sent)
      }
      if accepted.count == first {
        // A batch without events still sets the user attributes and identities it carries, and
        // what it holds that is not understood is still reported.
        guard Self.setsUserData(batch) || !account.isEmpty else { continue }
        accepted.append(Self.batchOnly(batch, apiKey: apiKey))
      }
      Self.keepRequest(
        of: &accepted[first], path: first == 0 ? request.path : nil,
        batch: batch.filter { $0.key != "events" && Self.batchFields.contains($0.key) })
      account.add(to: &accepted[first])
    }
    return SDKReply(status: .accepted, body: "", events: accepted)
  }

  /// Keeps on the first record of a batch what `tagscope export --har` rebuilds its request
  /// from (``Vendor/Rebuild/mparticleBatch``): the request's `path` on its first record, and the
  /// batch's own fields it reads (`batch`: the Events API's names, or a mobile SDK's short keys).
  static func keepRequest(
    of event: inout IngestedEvent, path: String?, batch: [(key: String, value: PropertyValue)]
  ) {
    if let path { event.annotations["path"] = .string(path) }
    event.annotations["batch"] = .object(Properties(batch.map { ($0.key, $0.value) }))
  }

  /// A batch without events as one record (mParticle applies a batch's user attributes and
  /// identities whether or not it carries events; mparticle-python-sdk's `Batch` sends
  /// `"events": []` when given none): an `identify` with the batch's `user_attributes` as its
  /// properties, its call the batch (method `batch`, the plan's entry for a batch's own fields;
  /// no parameters), marked `batchOnly` so a HAR export rebuilds the batch without an event.
  static func batchOnly(_ batch: Properties, apiKey: String) -> IngestedEvent {
    var event = IngestedEvent(
      provider: Vendors.mparticle.rawValue, kind: .identify, name: "identify",
      properties: Payload.object(batch["user_attributes"]), time: nil, identity: identity(batch, data: [:]),
      call: CallDescription(method: batchMethod, name: "identify", parameters: [:]),
      raw: "", recordsRaw: false, credentials: ["api_key": .string(apiKey)], messageID: nil)
    event.annotations[batchOnlyKey] = .bool(true)
    return event
  }

  /// Whether a batch (the Events API's names) sets user data: user attributes, identities,
  /// attributes deleted, or consent. A batch without events that sets none (a device's and app's info only)
  /// records nothing.
  static func setsUserData(_ batch: Properties) -> Bool {
    ["user_attributes", "user_identities", "deleted_user_attributes", "consent_state"].contains { key in
      switch batch[key] {
      case .object(let members)?: !members.isEmpty
      case .array(let items)?: !items.isEmpty
      default: false
      }
    }
  }

  /// The call method of a batch without events (`CallCatalogue.batchMethod` in TaggingPlan).
  static let batchMethod = "batch"
  /// The annotation marking a record that stands for a batch without events.
  static let batchOnlyKey = "batchOnly"

  /// The Events API's event types (mparticle-python `models/event_base.py`'s allowed values, the
  /// Events API schema's uninstall event, and the SDKs' `uic` messages as ``MParticleNativeBatch``
  /// names them).
  static let eventTypes: Set<String> = [
    "unknown", "session_start", "session_end", "screen_view", "custom_event", "crash_report", "opt_out",
    "first_run", "pre_attribution", "push_registration", "application_state_transition", "push_message",
    "network_performance", "breadcrumb", "profile", "push_reaction", "commerce_event",
    "user_attribute_change", "user_identity_change", "uninstall",
  ]
  /// The fields of a crash report's data no commerce event has (mparticle-python
  /// `models/crash_report_event.py`): mparticle-python's `Batch` sends its `CrashReportEvent` as a
  /// `commerce_event`.
  static let crashFields = ["class_name", "stack_trace", "exception_handled", "pl_crash_report_file_base64"]

  /// One event of a batch as an ingested event. A name the event lacks is said, not guessed
  /// silently: an event type the API does not have, a custom event or screen view without its
  /// name, a commerce event that names no action (each recorded under its type), a crash report
  /// sent as a commerce event (recorded as one); custom attributes that are no object are reported.
  static func event(
    _ event: Properties, type: String, data: Properties, batch: Properties, apiKey: String
  ) -> IngestedEvent {
    let attributes = Payload.object(data["custom_attributes"])
    var kind = TagKind.event
    var named: String? = type
    var method = type
    var properties = attributes
    var violations: [RuleViolation] = []
    switch type {
    case "custom_event":
      named = Payload.string(data["event_name"])
      method = "logEvent"
    case "screen_view":
      kind = .screen
      named = Payload.string(data["screen_name"])
      method = "logScreen"
    case "commerce_event"
    where Vendor.MParticleCommerceName.of(data) == nil
      && crashFields.contains(where: { data[$0] != nil }):
      named = "crash_report"
      method = "crash_report"
      violations.append(
        .vendor(
          Vendors.mparticle.rawValue,
          "event-type",
          "A commerce_event holding a crash report (\(crashFields.filter { data[$0] != nil }.joined(separator: ", "))), "
            + "as mparticle-python's Batch labels its CrashReportEvent: recorded as crash_report."))
    case "commerce_event":
      named = Vendor.MParticleCommerceName.of(data)
      method = "logCommerceEvent"
    case "user_attribute_change":
      kind = .identify
      named = "identify"
      properties = Payload.object(batch["user_attributes"])
    case let other where !eventTypes.contains(other):
      violations.append(
        .vendor(
          Vendors.mparticle.rawValue,
          "event-type",
          "event_type \"\(Payload.excerpt(other))\" is none the Events API has: recorded as an event of that name."
        ))
    default: break
    }
    if named == nil {
      let field =
        type == "custom_event" ? "data.event_name" : type == "screen_view" ? "data.screen_name" : nil
      violations.append(
        .vendor(
          Vendors.mparticle.rawValue,
          "event-name",
          field.map { "\(type) without \($0) as text: recorded under its type." }
            ?? "\(type) names no product action, promotion action or impression: recorded under its type."))
    }
    let name = named ?? type
    let time = SentTime.read(
      data["timestamp_unixtime_ms"], .milliseconds, field: "data.timestamp_unixtime_ms",
      provider: Vendors.mparticle.rawValue, violations: &violations)
    var record = IngestedEvent(
      provider: Vendors.mparticle.rawValue, kind: kind, name: name, properties: properties, time: time,
      identity: identity(batch, data: data),
      call: CallDescription(method: method, name: name, parameters: event), violations: violations,
      raw: JSONText.string(event), recordsRaw: false,
      credentials: ["api_key": .string(apiKey)], messageID: Payload.string(data["source_message_id"]))
    var account = FieldAccount()
    account.noteUnlessObject(data["custom_attributes"], at: "data.custom_attributes")
    // The event's own ids; the batch's are its first record's.
    account.noteUnreadableIdentity(identityReader) { $0 == "event" ? .object(data) : nil }
    account.add(to: &record)
    return record
  }

  static func badRequest(_ message: String, _ reason: RejectionReason) -> SDKReply {
    refuse(.badRequest, "BAD_REQUEST", message, reason)
  }

  /// A refusal with mParticle's error body (the SDK's `ApiResponse`: `errors[]` of `code`, `message`).
  static func refuse(
    _ status: HTTPResponseStatus, _ code: String, _ message: String, _ reason: RejectionReason
  ) -> SDKReply {
    let error: Properties = ["code": .string(code), "message": .string(message)]
    return SDKReply(
      status: status, body: JSONText.string(["errors": .array([.object(error)])]), rejection: reason)
  }
}
