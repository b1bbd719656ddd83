import AnalyticsHub
import AnalyticsProviders
import Foundation
import NIOHTTP1
import TagscopeRecording
import TagscopeVendors

/// AT Internet's legacy hits (`GET https://<log>.xiti.com/hit.xiti?s=<site>&p=<chapters::label>&…`),
/// sent by its SmartTag and mobile SDKs before Piano Analytics: one event in the query.
///
/// Parameters as at-internet/atinternet-android-sdk @ 493ce155b39bbd4b3c5faec78f3359977f0dcbf4
/// `ATMobileAnalytics/Tracker/src/main/java/com/atinternet/tracker/` names them (`Hit.java`'s
/// `HitParam`, `Core.java`'s persistent parameters, `Screen.java`, `Gesture.java`): `p` the label,
/// its chapters before it joined by `::`; `type=click` with `click` `A`, `N`, `T` or `S` a touch
/// (action, navigation, download, exit), no `type` a screen, another type (`audio`, `pub`…) an
/// event of that name with its `type` kept under `unread` and reported (``FieldAccount``), as are
/// a fourth chapter and a second, different value of any parameter (each is read by its first);
/// `stc` the custom objects (JSON), merged into the properties with any parameter that is not the
/// SDK's own, but for those the SDK adds there (``sdkCustomObjects``; the registry names the
/// session id among them); an `stc` that is not JSON is kept as sent and reported. Each hit is recorded
/// as the Piano Analytics call that replaces it (`page.display` with `page` and
/// `page_chapter1…3`, `click.action` with `click` and `click_chapter1…3`), so one plan judges both
/// SDKs; the SDK's own parameters are kept under `sdk_parameters`. A hit of events (`events`,
/// `col=2`) is a record an event (``events(_:context:sdk:identity:site:raw:account:)``). A hit
/// split in parts (`mh`) is recorded part by part, each marked, not joined again: a part's
/// sliced JSON is kept as sent and reported. Answers `200` with a GIF pixel.
struct ATInternetHitEndpoint: SDKEndpoint {
  var provider: String { Vendors.piano.rawValue }
  /// A hit is a URL; the SDK splits those over 1,600 characters (`mh`). A body is held to 64 KB.
  var bodyLimit: Int { Vendor.Limit.atInternetHit.requestBytes }

  /// A 1×1 GIF without a colour table: its every byte is ASCII, so it is a `String` body.
  static let pixel =
    "GIF89a\u{01}\u{00}\u{01}\u{00}\u{00}\u{00}\u{00},\u{00}\u{00}\u{00}\u{00}\u{01}\u{00}\u{01}\u{00}\u{00}\u{02}\u{02}D\u{01}\u{00};"

  /// The SDK's own parameters (`Hit.java`, `Core.java`): kept apart from the properties.
  static let sdkParameters: Set<String> = [
    "s", "p", "s2", "stc", "idclient", "type", "click", "pclick", "s2click", "an", "at", "ac", "ref", "vtag",
    "ptag",
    "lng", "mfmd", "manufacturer", "model", "os", "apid", "apvr", "hl", "r", "dg", "car", "cn", "ts", "dls",
    "bg",
    "atc", "ati", "gy", "gx", "xto", "xtor", "mc", "np", "mcrg", "idcart", "pdtl", "pid", "pchap", "pidt",
    "abmvc",
    "aisl", "ptype", "refstore", "tp", "m1", "mh", "col", "action", "rn", "na", "vc", "vm", "vt", "vtc",
    // `Core.java` (`olt` an offline hit's time, `mherr`), `Hit.java` (`patc`, `s2atc`, `prich`,
    // `s2rich`); `events` and `context` are read apart
    // (``events(_:context:sdk:identity:site:raw:account:)``).
    "olt", "mherr", "patc", "s2atc", "prich", "s2rich", "events", "context",
  ]

  /// The SDK's parameters read apart, not kept as sent with the others.
  static let readApart: Set<String> = ["stc", "events", "context"]

  /// What the SDK adds to `stc` beside the app's custom objects (`CoreFeatures.java`'s
  /// `lifecycle`, the crash detection's `crash`, `Core.java`'s `idType`): kept with the SDK's
  /// parameters, not the app's properties.
  static let sdkCustomObjects: Set<String> = ["lifecycle", "crash", "idType"]

  /// `click=` codes and the Piano click events they are.
  static let clicks: [String: String] = [
    "A": PianoEvent.clickAction, "N": PianoEvent.clickNavigation, "T": PianoEvent.clickDownload,
    "S": PianoEvent.clickExit,
  ]

  func replyTooLarge() -> SDKReply {
    SDKReply(
      status: .payloadTooLarge, contentType: "text/plain", body: "Hit too large", rejection: .bodyTooLarge)
  }

  func handle(_ request: ReceivedRequest) -> SDKReply {
    var fields = request.query
    if request.method == .POST, !request.body.isEmpty {
      fields += FormDecoding.pairs(String(decoding: request.body, as: UTF8.self))
    }
    let raw = fields.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    guard let site = fields.first(where: { $0.name == "s" })?.value, !site.isEmpty else {
      return Self.fail("No site id: the hit has no s=")
    }
    var first: [String: String] = [:]
    for (name, value) in fields where first[name] == nil { first[name] = value }
    var properties = Properties()
    var sdk = Properties()
    var account = FieldAccount()
    let label = first["p"].map(Self.chapters) ?? (label: "", chapters: [])
    // A screen hit (no `type`, or `screen`) is `page.display`; a touch its `click.*` event; a
    // hit of another type (`audio`, `pub`…) or touch code is recorded under its own name, its
    // `type` or `click` kept under `unread`: Tagscope does not map it.
    let type = first["type"] ?? "screen"
    let isScreen = type == "screen" || type.isEmpty
    let code = first["click"] ?? ""
    let name =
      isScreen ? PianoEvent.pageDisplay : type == "click" ? Self.clicks[code] ?? "click.\(code)" : type
    if !isScreen, type != "click" { account.note("type", .string(type)) }
    if type == "click", Self.clicks[code] == nil { account.note("click", .string(code)) }
    let prefix = type == "click" ? "click" : "page"
    properties.appendUnchecked(prefix, .string(label.label))
    for (index, chapter) in label.chapters.prefix(3).enumerated() {
      properties.appendUnchecked("\(prefix)_chapter\(index + 1)", .string(chapter))
    }
    if label.chapters.count > 3 { account.note("p", .string(first["p"] ?? "")) }
    var stcObject: Properties?
    if let stc = first["stc"] {
      if case .object(let custom)? = try? JSONParser.parse(Array(stc.utf8)) {
        for (key, value) in custom where Self.sdkCustomObjects.contains(key) {
          sdk.appendUnchecked(key, value)
        }
        properties.merge(custom.filter { !Self.sdkCustomObjects.contains($0.key) }.map { ($0.key, $0.value) })
        stcObject = custom
      } else {
        // Not JSON (a part of a hit the SDK split, `mh`): kept as sent, reported.
        account.note("stc", .string(stc))
      }
    }
    var custom: [(String, PropertyValue)] = []
    var positions: [String: Int] = [:]
    // Every parameter is read by its first value: a later, different one is kept with its place.
    account.checkRepeats(in: fields, at: "")
    var sdkSeen: Set<String> = []
    for (name, value) in fields {
      if Self.sdkParameters.contains(name) {
        if sdkSeen.insert(name).inserted, !Self.readApart.contains(name) {
          sdk.appendUnchecked(name, .string(value))
        }
      } else if positions[name] == nil {
        positions[name] = custom.count
        custom.append((name, .string(value)))
      }
    }
    properties.merge(custom)
    let identity = Self.identity(first, stc: stcObject)
    if let events = first["events"] {
      // The hit's own properties (custom parameters, `stc` objects, a label if it has one) belong
      // to none of its events: reported, as sent. Without `p`, its empty label is none of them.
      for (key, value) in properties where first["p"] != nil || key != prefix {
        account.note("hit.\(key)", value)
      }
      return Self.events(
        events, context: first["context"], sdk: sdk, identity: identity, site: site, raw: raw,
        account: account)
    }
    var violations: [RuleViolation] = []
    let time = Self.time(sdk, violations: &violations)
    var event = IngestedEvent(
      provider: Vendors.piano.rawValue, kind: isScreen ? .screen : .event,
      name: isScreen ? label.label : name, properties: properties, time: time, identity: identity,
      call: CallDescription(method: "sendEvent", name: name, parameters: properties), violations: violations,
      raw: raw, recordsRaw: false, credentials: ["s": .string(site)])
    var annotations: Properties = ["sdk_parameters": .object(sdk)]
    if let part = first["mh"] { annotations.appendUnchecked("multihit_part", .string(part)) }
    event.annotations = annotations
    account.add(to: &event)
    return SDKReply(status: .ok, contentType: "image/gif", body: Self.pixel, events: [event])
  }

  /// When a hit says it was made, from its SDK parameters `sdk`: `olt`, the time of a hit stored
  /// offline and sent later, else `ts`, each seconds since 1970 as text with their decimals
  /// (atinternet-android-sdk `Core.java`'s `getTimeStamp`, atinternet-apple-sdk `Buffer.swift`'s
  /// `%f`); one that does not read says so (``SentTime``).
  static func time(_ sdk: Properties, violations: inout [RuleViolation]) -> Date? {
    let field = SentTime.sent(sdk["olt"]) ? "olt" : "ts"
    return SentTime.read(
      sdk[field], .seconds, form: .numberOrText, field: field, provider: Vendors.piano.rawValue,
      violations: &violations)
  }

  /// `library::favorites::play_podcast` → label `play_podcast`, chapters `library`, `favorites`.
  static func chapters(_ text: String) -> (label: String, chapters: [String]) {
    let parts = text.components(separatedBy: "::")
    return (parts.last ?? "", Array(parts.dropLast()))
  }

  static func fail(_ message: String) -> SDKReply {
    SDKReply(status: .badRequest, contentType: "text/plain", body: message, rejection: .invalidPayload)
  }
}

extension ATInternetHitEndpoint {
  /// Where AT Internet's hits name their sender (``Vendor/piano``'s identity fields of `hit`).
  static let identityReader = IdentityReader(Vendor.piano, "hit")

  /// Who sent a hit: its query fields (`idclient`, unless a placeholder such as `opt-out`,
  /// `an`/`at`, `apid`, `os`, `model`), and its `stc` object read as JSON; a visitor not
  /// identified is known by `idclient`.
  static func identity(_ fields: [String: String], stc: Properties? = nil) -> DeviceIdentity {
    var identity = identityReader.identity { key in
      if key == "stc" { return stc.map(PropertyValue.object) }
      return (key == "idclient" ? PianoEndpoint.device(fields[key]) : fields[key]).map(PropertyValue.string)
    }
    if identity.userID == nil { identity.anonymousID = identity.deviceID }
    return identity
  }
}
