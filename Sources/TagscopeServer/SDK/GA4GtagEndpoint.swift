import AnalyticsHub
import AnalyticsProviders
import Foundation
import TagscopeRecording

/// gtag.js's own collection requests (`/g/collect`, protocol `v=2`): the page's shared parameters
/// in the query string, one event there (`en`) or one per line of the body, each line's
/// parameters over the shared ones.
///
/// Fields as gtag.js sends them (Google documents no reference; read in
/// amplitude/Amplitude-TypeScript `packages/plugin-ga-events-forwarder-browser/src/helpers.ts` and
/// `constants.ts`, which parse these requests): `tid` the measurement id, `cid` the client id,
/// `uid` the user id, `sid` the session id (`ga_session_id`), `_p` the page load (a hash: not a
/// time), `dl`/`dt` the page's location and title, `en` the event name, `ep.`/`epn.` event parameters (text/number),
/// `up.`/`upn.` user properties. Answers `204` as Google does.
struct GA4GtagEndpoint: SDKEndpoint {
  /// GA4's transport fields (``Vendor/TransportFields/ga4``: gtag's own, at the hit's root).
  static let transport = TransportLevels(Vendor.ga4, levels: [""])

  /// Whether the decoder carries the hit field `name`: the event's name and parameters, the page,
  /// who sent it (``Vendor/IdentityFields``).
  static func understood(_ name: String) -> Bool {
    ["en", "dl", "dt", "sid", "cid", "uid"].contains(name) || name.hasPrefix("ep.") || name.hasPrefix("epn.")
  }

  var provider: String { Vendors.ga4.rawValue }
  var bodyLimit: Int { Vendor.Limit.ga4Collect.requestBytes }

  func replyTooLarge() -> SDKReply {
    SDKReply(
      status: .payloadTooLarge, contentType: "text/plain", body: "Request body exceeds 130kB",
      rejection: .bodyTooLarge)
  }

  func handle(_ request: ReceivedRequest) -> SDKReply {
    let body = String(decoding: request.body, as: UTF8.self)
    let lines = body.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).filter { !$0.isEmpty }
    let shared = request.query
    let raw =
      request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
      + (body.isEmpty ? "" : "\n" + body)
    let hits = lines.isEmpty ? [shared] : lines.map { shared + FormDecoding.pairs(String($0)) }
    var account = FieldAccount()
    account.check(pairs: shared, at: "", understood: Self.understood, transport: Self.transport[""])
    for (index, line) in lines.enumerated() {
      account.check(
        pairs: FormDecoding.pairs(String(line)), at: "lines[\(index)]", understood: Self.understood,
        transport: Self.transport[""])
    }
    var events: [IngestedEvent] = []
    for hit in hits {
      var fields: [String: String] = [:]
      for (name, value) in hit { fields[name] = value }
      guard let name = fields["en"], !name.isEmpty else { continue }
      events.append(Self.event(name: name, fields: fields, in: hit, raw: raw))
    }
    account.add(to: &events)
    let rejection: RejectionReason? = events.isEmpty ? .invalidPayload : nil
    return SDKReply(
      status: .noContent, contentType: "text/plain", body: "", events: events, rejection: rejection)
  }

  /// One hit's event: its `ep.`/`epn.` parameters in the hit's order (the last of a repeated
  /// one), the page as `page_location`/`page_title` (as GA4 reports them), a `page_view` is a
  /// screen named by its title. `fields` is `pairs` by name.
  static func event(
    name: String, fields: [String: String], in pairs: [(name: String, value: String)], raw: String
  ) -> IngestedEvent {
    var params = Properties()
    for (key, value) in pairs where fields[key] == value {
      if key.hasPrefix("ep.") {
        params[String(key.dropFirst(3))] = .string(value)
      } else if key.hasPrefix("epn.") {
        params[String(key.dropFirst(4))] = Payload.number(value).map(PropertyValue.double) ?? .string(value)
      }
    }
    if let location = fields["dl"] { params["page_location"] = .string(location) }
    if let title = fields["dt"] { params["page_title"] = .string(title) }
    if let session = fields["sid"] { params["ga_session_id"] = .string(session) }
    let isPage = name == "page_view"
    let identity = Self.identity(fields)
    return IngestedEvent(
      provider: Vendors.ga4.rawValue, kind: isPage ? .screen : .event,
      name: isPage ? fields["dt"].flatMap(DeviceIdentity.present) ?? fields["dl"] ?? name : name,
      properties: params, time: nil, identity: identity,
      call: CallDescription(method: "gtag", name: name, parameters: params), raw: raw)
  }
}
