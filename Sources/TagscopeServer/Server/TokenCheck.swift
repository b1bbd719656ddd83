import AnalyticsHub
import NIOHTTP1
import TagscopeVendors

/// The `--token` check, for native streams and HTTP requests alike: compared in constant time on
/// the UTF-8 bytes (a decomposed `é` is not a precomposed one; the number 12345 is not "12345").
///
/// An HTTP request passes with `Authorization: Bearer <token>`, an `X-Tagscope-Token` header, a
/// `token` query parameter or one where a vendor's SDK sends its key (``Vendor/Shape/queryKeys``:
/// GA4's `api_secret`), or when every event it carries has the token
/// in its SDK's own credential field: Segment's write key (body or basic auth), Amplitude's and
/// PostHog's `api_key`, Mixpanel's `token`, mParticle's API key (basic auth).
struct TokenCheck: Sendable {
  private let expected: [UInt8]

  /// A check for `token`; `nil` when no token is required.
  init?(_ token: String?) {
    guard let token else { return nil }
    expected = Array(token.utf8)
  }

  /// Whether `text` is the token, byte for byte, in time independent of where they differ.
  func matches<Text: StringProtocol>(_ text: Text) -> Bool {
    let given = Array(text.utf8)
    var difference = UInt8(given.count == expected.count ? 0 : 1)
    for index in 0..<expected.count {
      difference |= expected[index] ^ (index < given.count ? given[index] : ~expected[index])
    }
    return difference == 0
  }

  /// Whether a JSON value is the token (strings only).
  func matches(_ value: PropertyValue?) -> Bool {
    guard case .string(let text)? = value else { return false }
    return matches(text)
  }

  /// The query parameters where SDKs send their key (GA4's `api_secret`): the registry's.
  static let vendorQueryKeys = Set(Vendors.endpoints.flatMap(\.shape.queryKeys))

  /// Whether the request carries the token in a header or the query.
  func authorizes(headers: HTTPHeaders, query: [(name: String, value: String)]) -> Bool {
    for value in headers[canonicalForm: "authorization"] {
      let parts = value.split(separator: " ", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == "bearer", matches(parts[1]) { return true }
    }
    if headers[canonicalForm: "x-tagscope-token"].contains(where: { matches($0) }) { return true }
    return query.contains {
      ($0.name == "token" || Self.vendorQueryKeys.contains($0.name)) && matches($0.value)
    }
  }

  /// Whether a request to the proxy carries the token as its `Proxy-Authorization`: Basic with
  /// the token as password (any user name: what a device's proxy settings send) or Bearer.
  func authorizesProxy(headers: HTTPHeaders) -> Bool {
    for value in headers[canonicalForm: "proxy-authorization"] {
      let parts = value.split(separator: " ", maxSplits: 1)
      guard parts.count == 2 else { continue }
      switch parts[0].lowercased() {
      case "bearer" where matches(parts[1]): return true
      case "basic":
        guard let decoded = Base64.decode(parts[1]), let colon = decoded.firstIndex(of: UInt8(ascii: ":"))
        else { continue }
        if matches(String(decoding: decoded[(colon + 1)...], as: UTF8.self)) { return true }
      default: continue
      }
    }
    return false
  }

  /// Whether every event carries the token in one of its SDK credential fields.
  /// Whether every one of a batch's `credentials` (each event carries one) matches.
  func authorizes(credentials: Set<String>) -> Bool {
    !credentials.isEmpty && credentials.allSatisfy { matches($0) }
  }

  func authorizes(events: [IngestedEvent]) -> Bool {
    !events.isEmpty && events.allSatisfy { event in event.credentials.contains { matches($0.value) } }
  }
}
