import AnalyticsHub
import NIOHTTP1
import TagscopeRecording
import TagscopeVendors

/// PayPal's tracking API as PayPal's mobile SDKs post FPTI events to it (``Vendor/fpti``):
/// `POST /v1/tracking/events` with one event, `{"events":{"event_params":{…}}}` (paypal-ios,
/// paypal-android), and `POST /v1/tracking/batch/events` with a batch,
/// `{"events":[{"batch_params":{…},"event_params":[{…},…]}]}` (braintree_ios, braintree_android).
/// Either shape is read on either path.
///
/// Each event becomes a record whose call is the hub's `FPTICall` (``FPTIEvents``), so one plan
/// judges the wire and the in-app hub alike. Answers `200` with `{}`: PayPal publishes no answer of
/// its tracking API, and its SDKs read only the status (paypal-ios `AnalyticsService` logs a
/// failure, braintree_ios `BTAnalyticsService` the same). A refusal takes PayPal REST's error
/// shape (`name`, `message`): an assumption, the tracking API's own is not published. A request
/// over the registry's bound (`Vendor.Limit.fptiTracking`, 1 MB) gets `413`.
struct FPTIEndpoint: SDKEndpoint {
  var provider: String { Vendors.fpti.rawValue }
  var bodyLimit: Int { Vendor.Limit.fptiTracking.requestBytes }

  func replyTooLarge() -> SDKReply {
    Self.fail(.payloadTooLarge, "The request body is over 1 MB", .bodyTooLarge)
  }

  func handle(_ request: ReceivedRequest) -> SDKReply {
    let fields: Properties
    switch JSONObjectBody.read(request) {
    case .success(let object): fields = object
    case .failure(let refusal): return Self.fail(refusal.status, refusal.message, refusal.reason)
    }
    let containers: [(place: String, value: PropertyValue)]
    switch fields["events"] {
    case .object(let container)?: containers = [("events", .object(container))]
    case .array(let values)?: containers = values.enumerated().map { ("events[\($0.offset)]", $0.element) }
    case nil:
      return Self.fail(
        .badRequest, "No events (an object with event_params, or an array of them)", .invalidPayload)
    default: return Self.fail(.badRequest, "events must be an object or an array", .invalidPayload)
    }
    var account = FieldAccount()
    account.check(fields, at: "", understood: ["events"], transport: [])
    var accepted: [IngestedEvent] = []
    for container in containers {
      switch FPTIEvents.container(container.value, place: container.place, account: &account) {
      case .success(let events): accepted += events
      case .failure(let problem): return Self.fail(.badRequest, problem.message, .invalidPayload)
      }
    }
    if accepted.isEmpty, !account.isEmpty {
      // Nothing but fields Tagscope does not read: a record of its own, not dropped.
      accepted.append(FPTIEvents.request(JSONText.string(fields)))
    }
    account.add(to: &accepted)
    return SDKReply(status: .ok, body: "{}", events: accepted)
  }

  /// A refusal with PayPal REST's error shape (`{"name": "INVALID_REQUEST", "message": …}`).
  static func fail(_ status: HTTPResponseStatus, _ message: String, _ reason: RejectionReason) -> SDKReply {
    SDKReply(
      status: status,
      body: JSONText.string(["name": "INVALID_REQUEST", "message": .string(message)]), rejection: reason)
  }
}
