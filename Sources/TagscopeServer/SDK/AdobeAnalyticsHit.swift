import AnalyticsHub
import AnalyticsProviders
import Foundation
import TagscopeRecording

/// The Adobe Analytics mobile extension's hits: `POST /b/ss/<rsids>/<0|10>/<version>/s<random>`,
/// a form body (`ndh=1&…`, GET's query read alike) of variables and nested context data
/// (``AdobeHitFields``).
///
/// Read in adobe/aepsdk-analytics-android @ c9e67af6147c1d2b215e8dd54c3bc6eb6abd50a5
/// (`AnalyticsHitProcessor.kt`, `AnalyticsExtension.kt` processAnalyticsVars/ContextData,
/// `ContextDataUtil.java`). Recorded as the hub's ``AdobeCall`` records them, so one plan judges
/// both: `pe=lnk_o` with `pev2=AMACTION:…` is a `trackAction` event named by its `a.action`;
/// `pev2=ADBINTERNAL:…` (Lifecycle, crash, deep link) the SDK's own, an `internalAction` call the
/// rules leave alone; any other hit a `trackState` screen named by `pageName`. A call's
/// parameters are the app's context data; the SDK's `a.` keys are kept beside the call
/// (`sdk_context_data`), with the variables (`variables`) and the report suite and path
/// (`report_suites`); what did not read as the SDK writes it is listed in `problems` with its
/// place (a time, as every decoder's, is an `adobe.sent-time` violation), a variable neither
/// Tagscope nor the SDKs' transport knows is kept under `unread` by its name and reported
/// (``FieldAccount``). Every field being there, the record does not keep
/// the hit's text again (``IngestedEvent/recordsRaw``): a line holds a value twice, not three
/// times. Answers `200` with a 1×1 GIF, as Adobe's
/// servers do; a body that is no hit (no field), or nests its levels deeper than
/// ``AdobeHitFields/depthLimit``, gets `400`.
struct AdobeAnalyticsHit: SDKEndpoint {
  var provider: String { Vendors.adobe.rawValue }
  /// The registry's bound (``Vendor/Limit/adobeHit``: none documented, 1 MB; a hit holds one call).
  var bodyLimit: Int { Vendor.Limit.adobeHit.requestBytes }

  /// The path prefix of every hit.
  static let prefix = "/b/ss/"
  /// The method of the SDK's own hits.
  static let internalAction = "internalAction"
  /// A transparent 1×1 GIF (26 bytes, no colour table) as text: every byte is ASCII.
  static let gif =
    "GIF89a\u{1}\u{0}\u{1}\u{0}\u{0}\u{0}\u{0},\u{0}\u{0}\u{0}\u{0}\u{1}\u{0}\u{1}\u{0}\u{0}\u{2}\u{2}D\u{1}\u{0};"

  /// The endpoint of `path` when it is a hit's (`/b/ss/` and a report suite).
  static func matching(path: String) -> AdobeAnalyticsHit? {
    guard path.hasPrefix(prefix), path.count > prefix.count else { return nil }
    return AdobeAnalyticsHit()
  }

  func replyTooLarge() -> SDKReply {
    SDKReply(
      status: .payloadTooLarge, contentType: "text/plain", body: "Hit over \(bodyLimit) bytes",
      rejection: .bodyTooLarge)
  }

  func handle(_ request: ReceivedRequest) -> SDKReply {
    let text = String(decoding: request.body, as: UTF8.self)
    let pairs = request.method == .GET || request.body.isEmpty ? request.query : FormDecoding.pairs(text)
    guard !pairs.isEmpty else {
      return SDKReply(
        status: .badRequest, contentType: "text/plain", body: "An Adobe Analytics hit has no field",
        rejection: .invalidPayload)
    }
    let raw =
      request.method == .GET || request.body.isEmpty
      ? request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&") : text
    let fields = AdobeHitFields(pairs)
    if let tooDeep = fields.tooDeep {
      return SDKReply(
        status: .badRequest, contentType: "text/plain", body: "Adobe Analytics hit refused: \(tooDeep)",
        rejection: .invalidPayload)
    }
    var event = Self.event(fields, path: request.path, raw: raw)
    if !(request.method == .GET || request.body.isEmpty), !request.query.isEmpty {
      // A posted hit is its body: its URL's query is not read (kept, reported).
      var query = FieldAccount()
      query.check(pairs: request.query, at: "query", understood: { _ in false }, transport: [])
      query.add(to: &event)
    }
    return SDKReply(status: .ok, contentType: "image/gif", body: Self.gif, events: [event])
  }

  /// The event one hit's `fields` are, received at `path`.
  static func event(_ fields: AdobeHitFields, path: String, raw: String) -> IngestedEvent {
    let hitKind = fields.variable("pe")
    let linkEvent = hitKind == "lnk_o"
    // AppMeasurement's download and exit links (`lnk_d`, `lnk_e`; the mobile SDK sends only
    // `lnk_o`) are the link they name; another `pe` is no hit kind Tagscope knows: reported.
    let otherLink = hitKind == "lnk_d" || hitKind == "lnk_e"
    let link = fields.variable("pev2") ?? ""
    var app: [(String, PropertyValue)] = []
    var sdk: [(String, PropertyValue)] = []
    for (key, value) in fields.contextData {
      if key.hasPrefix("a.") { sdk.append((key, value)) } else { app.append((key, value)) }
    }
    let sdkData = Properties(sdk)
    let method: String
    let name: String
    let kind: TagKind
    var parameters = Properties(app)
    if linkEvent, link.hasPrefix("ADBINTERNAL:") {
      method = internalAction
      name = Payload.string(sdkData["a.internalaction"]) ?? String(link.dropFirst("ADBINTERNAL:".count))
      kind = .event
      parameters = fields.contextData
    } else if otherLink {
      method = "trackLink"
      name = fields.variable("pev2") ?? fields.variable("pev1") ?? ""
      kind = .event
    } else if linkEvent {
      method = "trackAction"
      let linkName = link.hasPrefix("AMACTION:") ? String(link.dropFirst("AMACTION:".count)) : link
      name = Payload.string(sdkData["a.action"]) ?? linkName
      kind = .event
    } else {
      method = "trackState"
      name = fields.variable("pageName") ?? ""
      kind = .screen
    }
    var problems = fields.problems
    if let hitKind, !linkEvent, !otherLink {
      problems.append(
        "pe=\(Payload.excerpt(hitKind)): a hit kind Tagscope does not read, taken as a page view")
    }
    if kind == .screen, fields.variable("pageName") == nil {
      problems.append("pageName: none, the view unnamed")
    }
    // A time that does not read is said as every decoder says it (`adobe.sent-time`).
    var violations: [RuleViolation] = []
    let time = SentTime.read(
      fields.variable("ts").map(PropertyValue.string), .seconds, form: .numberOrText, field: "ts",
      provider: Vendors.adobe.rawValue, violations: &violations)
    var annotations: Properties = [
      "variables": .object(fields.variables), "report_suites": .string(reportSuites(path)),
    ]
    // The path's mode when it is not the usual `0`: `10` asks for Audience Manager's answer.
    if let mode = pathMode(path), mode != "0" { annotations["path_mode"] = .string(mode) }
    if method != internalAction, !sdkData.isEmpty { annotations["sdk_context_data"] = .object(sdkData) }
    if !problems.isEmpty { annotations["problems"] = .array(problems.map(PropertyValue.string)) }
    var event = IngestedEvent(
      provider: Vendors.adobe.rawValue, kind: kind, name: name, properties: parameters, time: time,
      identity: identity(fields), call: CallDescription(method: method, name: name, parameters: parameters),
      violations: violations, raw: raw, recordsRaw: false, annotations: annotations)
    var account = FieldAccount()
    for (key, value) in fields.unread { account.note(key, value) }
    account.add(to: &event)
    return event
  }

  /// The report suites of a hit's path (`rsid1,rsid2` of `/b/ss/rsid1,rsid2/0/IOSN…/s123`).
  static func reportSuites(_ path: String) -> String {
    String(path.dropFirst(prefix.count).prefix { $0 != "/" })
  }

  /// The mode of a hit's path (`10` of `/b/ss/rsid/10/IOSN…/s123`), `nil` when it has none.
  static func pathMode(_ path: String) -> String? {
    let parts = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count > 1, !parts[1].isEmpty else { return nil }
    return String(parts[1].prefix { $0 != "?" })
  }
}
