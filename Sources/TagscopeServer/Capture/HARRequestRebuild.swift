import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeVendors

/// The request an SDK sent for a wire record, rebuilt from the record (a recording keeps the SDK's
/// messages, its credential and the vendor's answer, not the request): the vendor's own host and
/// event path, and a body its decoder reads back into the same record.
struct HARRequestRebuild {
  /// `request.method`.
  var method: String
  /// `request.url`.
  var url: String
  /// `request.postData.mimeType`.
  var mimeType: String
  /// `request.postData.text`.
  var body: String
  /// How it was rebuilt, for the entry's `comment`.
  var comment: String

  /// The vendors whose requests are rebuilt.
  static let providers: Set<String> = [
    Vendors.segment.rawValue, Vendors.amplitude.rawValue, Vendors.posthog.rawValue, Vendors.mixpanel.rawValue,
    Vendors.ga4.rawValue,
  ]

  /// The request for `output`, an SDK's output of record `seq` whose `raw` is what listen kept of
  /// the request; `nil` for a vendor not rebuilt.
  static func request(for output: ProviderOutput, raw: String, seq: UInt64) -> HARRequestRebuild? {
    let messages = output.calls.map { PropertyValue.object($0.parameters) }
    let note = "rebuilt by tagscope export from record \(seq): "
    switch output.provider {
    case Vendors.segment.rawValue:
      var body: Properties = ["batch": .array(messages)]
      if let key = output.extra["writeKey"] { body["writeKey"] = key }
      return json(
        "https://api.segment.io/v1/batch", body, note + "its messages in one batch, with its write key")
    case Vendors.amplitude.rawValue:
      var body = Properties()
      if let key = output.extra["api_key"] { body["api_key"] = key }
      body["events"] = .array(messages)
      return json(
        "https://api2.amplitude.com/2/httpapi", body,
        note + "its events in one HTTP V2 request, with its API key")
    case Vendors.posthog.rawValue:
      var body = Properties()
      if let key = output.extra["api_key"] { body["api_key"] = key }
      body["batch"] = .array(messages)
      return json("https://us.i.posthog.com/batch/", body, note + "its events in one batch, with its API key")
    case Vendors.mixpanel.rawValue:
      return mixpanel(output, note: note)
    case Vendors.ga4.rawValue where output.calls.first?.method == "gtag" && !raw.isEmpty:
      return gtag(raw: raw, note: note)
    default:
      return nil
    }
  }

  private static func json(_ url: String, _ body: Properties, _ comment: String) -> HARRequestRebuild {
    HARRequestRebuild(
      method: "POST", url: url, mimeType: "application/json", body: JSONText.string(body), comment: comment)
  }

  /// Mixpanel's `/track` (`data=` the event, its token back among its properties) or `/engage`
  /// (`data=` the profile update, which keeps its `$token`).
  private static func mixpanel(_ output: ProviderOutput, note: String) -> HARRequestRebuild? {
    guard let call = output.calls.first else { return nil }
    let path: String
    let message: Properties
    switch call.method {
    case "track":
      var properties = Properties()
      if let token = output.extra["token"] { properties["token"] = token }
      properties.merge(call.parameters.map { ($0.key, $0.value) })
      message = ["event": .string(call.name ?? ""), "properties": .object(properties)]
      path = "/track"
    case "engage":
      message = call.parameters
      path = "/engage"
    default:
      return nil
    }
    return HARRequestRebuild(
      method: "POST", url: "https://api.mixpanel.com" + path, mimeType: "application/x-www-form-urlencoded",
      body: "data=" + formEncoded(JSONText.string(message)),
      comment: note + "its message as the data= form field, with its token")
  }

  /// gtag.js's `/g/collect` hit from `raw`, as listen keeps it: the query's fields (their values
  /// decoded), then the body after a newline. The fields are encoded again; the body is as sent.
  private static func gtag(raw: String, note: String) -> HARRequestRebuild {
    let (query, body) =
      raw.firstIndex(of: "\n").map { (raw[..<$0], raw[raw.index(after: $0)...]) } ?? (raw[...], ""[...])
    let fields = query.split(separator: "&", omittingEmptySubsequences: true).map { field in
      guard let equals = field.firstIndex(of: "=") else { return formEncoded(String(field)) }
      return formEncoded(String(field[..<equals])) + "="
        + formEncoded(String(field[field.index(after: equals)...]))
    }
    return HARRequestRebuild(
      method: "POST", url: "https://www.google-analytics.com/g/collect?" + fields.joined(separator: "&"),
      mimeType: "text/plain;charset=UTF-8", body: String(body),
      comment: note
        + "the hit listen kept, its query fields encoded again (one entry for the records of one hit)")
  }

  /// `text` percent-encoded for a form field (unreserved characters kept).
  static func formEncoded(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count * 2)
    let hex = Array("0123456789ABCDEF".utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count * 3)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        bytes.append(byte)
      default:
        bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0f)]]
      }
    }
    out = String(decoding: bytes, as: UTF8.self)
    return out
  }
}
