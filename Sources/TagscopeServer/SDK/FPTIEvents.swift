import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeVendors

/// PayPal FPTI's event containers and events (``FPTIEndpoint``) as the hub's `FPTICall`s: method
/// `event`, the event's `event_name` its name, its own tags (`order_id`, `button_type`,
/// `context_id`…, and `e` and `category` first when sent) its parameters, `t` (milliseconds since
/// 1970, a number or a decimal string) its time.
///
/// What the SDKs add to every event is kept beside the call, not in it: the SDK's and app's tags
/// (``contextFields``) and `t` as sent under `context`, a batch's `batch_params` once under `batch_params` on its
/// first event, the merchant's keys (``credentialFields``) as credentials. Field names as
/// paypal/paypal-ios `AnalyticsEventData.swift`, paypal/paypal-android `TrackingEventData.kt`,
/// braintree/braintree_ios `FPTIBatchData.swift` and braintree/braintree_android `AnalyticsApi.kt`
/// write them (commits in ``Vendor/fpti``'s comment). A field of a container or of `batch_params`
/// Tagscope does not know, and an `event_name` or `t` of another type, is kept under `unread`
/// with its place (`events[0].batch_params.x`).
///
/// The hub's FPTI rules (`FPTIRules`) are checked by listen as for every provider: PayPal's SDKs
/// send no event type (`e`), which those rules do not require.
enum FPTIEvents {
  /// A container or event whose shape is not FPTI's: the request is refused with this message.
  struct Problem: Error {
    let message: String

    init(_ message: String) { self.message = message }
  }

  /// The tags the SDKs add to every event or batch: the app, the device, the SDK and the
  /// merchant's environment, and a Braintree batch's session.
  static let contextFields: Set<String> = [
    "app_id", "app_name", "c_sdk_ver", "client_os", "comp", "device_manufacturer", "mobile_device_model",
    "merchant_sdk_env", "event_source", "ios_package_manager", "is_simulator", "mapv", "platform",
    "tenant_name",
    "session_id", "merchant_id", "api_integration_type", "drop_in_sdk_ver", "paypal_installed",
    "venmo_installed",
    "product_name", "space_key",
  ]

  /// The merchant's keys: its client id (PayPal SDKs), a Braintree tokenization key or a client
  /// token's authorization fingerprint (`auth_fingerprint` on iOS).
  static let credentialFields: Set<String> = [
    "partner_client_id", "tokenization_key", "authorization_fingerprint", "auth_fingerprint",
  ]

  /// A container's own fields.
  static let containerFields: Set<String> = ["batch_params", "event_params"]

  /// Where FPTI's events name their sender (``Vendor/fpti``'s identity fields).
  static let identityReader = IdentityReader(Vendor.fpti, "event")

  /// The records of the container `value` at `place` (`events`, `events[2]`): one per event of its
  /// `event_params` (an object, or an array of them), with its `batch_params`; the container's and
  /// batch's fields not understood noted in `account`.
  static func container(_ value: PropertyValue, place: String, account: inout FieldAccount)
    -> Result<[IngestedEvent], Problem>
  {
    guard case .object(let container) = value else { return .failure(Problem("\(place) is not an object")) }
    var batch = Properties()
    if let params = container["batch_params"] {
      guard case .object(let object) = params else {
        return .failure(Problem("\(place).batch_params is not an object"))
      }
      batch = object
    }
    var events: [(place: String, fields: Properties)] = []
    switch container["event_params"] {
    case .object(let event)?: events = [("\(place).event_params", event)]
    case .array(let values)?:
      for (index, element) in values.enumerated() {
        guard case .object(let event) = element else {
          return .failure(Problem("\(place).event_params[\(index)] is not an object"))
        }
        events.append(("\(place).event_params[\(index)]", event))
      }
    case nil: return .failure(Problem("\(place) has no event_params"))
    default: return .failure(Problem("\(place).event_params must be an object or an array of objects"))
    }
    account.check(container, at: place, understood: containerFields, transport: [])
    account.check(
      batch, at: "\(place).batch_params", understood: contextFields.union(credentialFields), transport: [])
    var records = events.map { event($0.fields, place: $0.place, batch: batch) }
    let carried = Properties(batch.filter { contextFields.contains($0.key) }.map { ($0.key, $0.value) })
    if !records.isEmpty, !carried.isEmpty {
      records[0].annotations.appendUnchecked("batch_params", .object(carried))
    }
    return .success(records)
  }

  /// The record of the event `fields` at `place`, in a batch with `batch_params` `batch`.
  static func event(_ fields: Properties, place: String, batch: Properties) -> IngestedEvent {
    var account = FieldAccount()
    var parameters = Properties()
    var context = Properties()
    var credentials = Properties(
      batch.filter { credentialFields.contains($0.key) }.map { ($0.key, $0.value) })
    var name = ""
    var time: Date?
    for (key, value) in fields {
      switch key {
      case "event_name":
        if let text = Payload.string(value) {
          name = text
        } else {
          account.note("\(place).event_name", value)
        }
      case "t":
        // The record's time, and kept as sent (a string or a number, past the millisecond).
        guard let date = timestamp(value) else {
          account.note("\(place).t", value)
          continue
        }
        time = date
        context.appendUnchecked(key, value)
      case _ where credentialFields.contains(key): credentials[key] = value
      case _ where contextFields.contains(key): context.appendUnchecked(key, value)
      default: parameters.appendUnchecked(key, value)
      }
    }
    let envelope = ["e", "category"].compactMap { key in parameters[key].map { (key, $0) } }
    if !envelope.isEmpty {
      let rest = parameters.filter { $0.key != "e" && $0.key != "category" }.map { ($0.key, $0.value) }
      parameters = Properties(envelope + rest)
    }
    var record = IngestedEvent(
      provider: Vendors.fpti.rawValue, kind: .event, name: name, properties: parameters, time: time,
      identity: identityReader.identity { fields[$0] ?? batch[$0] },
      call: CallDescription(method: "event", name: name, parameters: parameters), raw: "",
      credentials: credentials)
    // The call, context and credentials hold the event whole (its time is the record's).
    record.recordsRaw = false
    if !context.isEmpty { record.annotations.appendUnchecked("context", .object(context)) }
    account.add(to: &record)
    return record
  }

  /// The record of a request with no event but fields Tagscope does not read (`raw`, the body).
  static func request(_ raw: String) -> IngestedEvent {
    IngestedEvent(
      provider: Vendors.fpti.rawValue, kind: .event, name: "request", properties: [:], time: nil,
      identity: DeviceIdentity(), call: CallDescription(method: "request", name: nil, parameters: [:]),
      raw: raw)
  }

  /// `t`: milliseconds since 1970, a number (braintree_android) or a decimal string (paypal-ios
  /// writes `String(Date().timeIntervalSince1970 * 1000)`, paypal-android a `Long`'s digits).
  static func timestamp(_ value: PropertyValue) -> Date? {
    let milliseconds: Double?
    switch value {
    case .int(let number): milliseconds = Double(number)
    case .double(let number): milliseconds = number
    case .string(let text): milliseconds = Payload.number(text)
    default: milliseconds = nil
    }
    return milliseconds.flatMap { Payload.date(seconds: $0 / 1000) }
  }
}
