import AnalyticsHub
import AnalyticsProviders
import TagscopeRecording

/// mParticle's IDSync calls, which the iOS and Android SDKs make before they upload: `POST
/// /v1/identify`, `/v1/login`, `/v1/logout` and `/v1/<mpid>/modify` to `identity.mparticle.com`
/// (`identity.<pod>.mparticle.com`, `tracking-identity.<pod>…` on iOS), or the same under
/// `/identity/v1/` behind a custom base URL. Read from mParticle/mparticle-android-sdk
/// `MParticleIdentityClientImpl.java` (the request: `client_sdk`, `environment`,
/// `known_identities` — `device_application_stamp`, `android_uuid`, `customerid`, `email`… —,
/// `previous_mpid`, `identity_changes` of `identity_type`, `old_value`, `new_value` for modify),
/// `IdentityHttpResponse.java` and mParticle/mparticle-apple-sdk `MPIdentityDTO.m` (the reply:
/// `mpid` as text, `context`, `is_logged_in`), `MPNetworkCommunication.m` (the URLs).
///
/// An SDK that gets no identity never uploads, so each call is answered `200` with an mpid stable
/// per device (derived from its device application stamp, else its Android or vendor id) and
/// recorded as an identify record named after the call, its properties the identities sent. A
/// field the SDKs do not send (of the request, `client_sdk` or an identity change) is kept under
/// the record's `unread` by its place and reported (``FieldAccount``).
struct MParticleIdentityEndpoint: SDKEndpoint {
  /// `identify`, `login`, `logout` or `modify`.
  var action: String
  /// The mpid a modify path names.
  var pathMPID: String?

  /// The SDKs' identity path prefixes, from the registry's paths (`/v1/identify`…,
  /// `/v1/MPID/modify`).
  private static let prefixes = Vendor.mparticle.pathPrefixes(of: .mparticleIdentity, before: "identify")

  /// The endpoint of an identity path, or `nil` when `path` is not one (`/v1/identify` is also
  /// Segment's: ``SegmentOrMParticleIdentify`` tells them apart).
  static func matching(path: String) -> MParticleIdentityEndpoint? {
    for prefix in prefixes where path.hasPrefix(prefix) {
      let rest = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
      if rest.count == 1, ["identify", "login", "logout"].contains(rest[0]) {
        return MParticleIdentityEndpoint(action: String(rest[0]))
      }
      if rest.count == 2, rest[1] == "modify", !rest[0].isEmpty {
        return MParticleIdentityEndpoint(action: "modify", pathMPID: String(rest[0]))
      }
    }
    return nil
  }

  /// Whether `body` is an IDSync request rather than a Segment identify.
  static func isIdentityRequest(_ body: Properties) -> Bool {
    body["client_sdk"] != nil || body["known_identities"] != nil || body["identity_changes"] != nil
  }

  /// The request's fields the SDKs send (`MParticleIdentityClientImpl.java` `getBaseJson`,
  /// `getIdentityChangesJson`; `MPIdentityApiRequest.m`), kept in the call.
  static let requestFields: Set<String> = [
    "client_sdk", "environment", "request_id", "request_timestamp_ms", "previous_mpid", "known_identities",
    "identity_changes",
  ]
  /// The fields of one of a modify's `identity_changes`.
  static let changeFields: Set<String> = ["identity_type", "old_value", "new_value"]
  /// The fields of `client_sdk`.
  static let clientFields: Set<String> = ["platform", "sdk_vendor", "sdk_version"]

  var provider: String { Vendors.mparticle.rawValue }
  var bodyLimit: Int { Vendor.Limit.mparticleNative.requestBytes }

  func replyTooLarge() -> SDKReply { MParticleEndpoint(isBulk: false).replyTooLarge() }

  func handle(_ request: ReceivedRequest) -> SDKReply {
    guard request.isJSON || request.mediaType == nil else {
      return MParticleEndpoint.badRequest("Content-Type must be application/json", .wrongContentType)
    }
    guard let parsed = try? JSONParser.parse(request.body) else {
      return MParticleEndpoint.badRequest("The request body is not valid JSON", .malformedJSON)
    }
    guard let body = Payload.objectOrNil(parsed) else {
      return MParticleEndpoint.badRequest("The identity request is not an object", .invalidPayload)
    }
    // A field Tagscope does not know is kept under the record's `unread` by its place, not in the call.
    var account = FieldAccount()
    account.check(body, at: "", understood: Self.requestFields, transport: [])
    for (index, change) in (Payload.array(body["identity_changes"]) ?? []).enumerated() {
      guard case .object(let fields) = change else { continue }
      account.check(fields, at: "identity_changes[\(index)]", understood: Self.changeFields, transport: [])
    }
    if let sdk = Payload.objectOrNil(body["client_sdk"]) {
      account.check(sdk, at: "client_sdk", understood: Self.clientFields, transport: [])
    }
    let carried =
      account.isEmpty
      ? body : Properties(body.filter { Self.requestFields.contains($0.key) }.map { ($0.key, $0.value) })
    let known = Payload.object(body["known_identities"])
    var identities = known
    for change in Payload.array(body["identity_changes"]) ?? [] {
      let fields = Payload.object(change)
      guard let type = Payload.string(fields["identity_type"]) else { continue }
      identities[type] = fields["new_value"] ?? .null
    }
    let sent = Self.identityReader.identity { $0 == "identities" ? .object(identities) : body[$0] }
    let deviceID = sent.deviceID
    let mpid = pathMPID ?? Self.mpid(device: deviceID ?? Payload.string(body["previous_mpid"]) ?? "")
    let userID = sent.userID
    let loggedIn = action != "logout" && userID != nil
    var credentials: Properties = [:]
    if let key = request.headers.first(name: "x-mp-key") { credentials["api_key"] = .string(key) }
    var record = IngestedEvent(
      provider: Vendors.mparticle.rawValue, kind: .identify, name: action, properties: identities, time: nil,
      identity: DeviceIdentity(
        deviceID: deviceID, platform: sent.platform,
        userID: action == "logout" ? nil : userID,
        anonymousID: mpid),
      call: CallDescription(method: action, name: userID ?? action, parameters: carried),
      raw: JSONText.string(body), recordsRaw: false,
      credentials: credentials)
    account.add(to: &record)
    let reply: Properties = [
      "context": "tagscope", "mpid": .string(mpid), "is_ephemeral": false, "is_logged_in": .bool(loggedIn),
      "matched_identities": .object([:]), "change_results": [],
    ]
    return SDKReply(status: .ok, body: JSONText.string(reply), events: [record])
  }

  /// A positive 63-bit profile id derived from `device` (FNV-1a), the same for a device on every run.
  static func mpid(device: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in device.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return String(max(1, hash & 0x7FFF_FFFF_FFFF_FFFF))
  }
}

/// `POST /v1/identify` is both Segment's (and RudderStack's) identify and mParticle's IDSync
/// identify: a body with `client_sdk`, `known_identities` or `identity_changes` is mParticle's.
struct SegmentOrMParticleIdentify: SDKEndpoint {
  var provider: String { "\(Vendors.segment)|\(Vendors.mparticle)" }
  var bodyLimit: Int {
    max(
      SegmentEndpoint(impliedType: "identify").bodyLimit,
      MParticleIdentityEndpoint(action: "identify").bodyLimit)
  }

  func replyTooLarge() -> SDKReply { SegmentEndpoint(impliedType: "identify").replyTooLarge() }

  func handle(_ request: ReceivedRequest) -> SDKReply {
    if case .object(let body)? = try? JSONParser.parse(request.body),
      MParticleIdentityEndpoint.isIdentityRequest(body)
    {
      return MParticleIdentityEndpoint(action: "identify").handle(request)
    }
    return SegmentEndpoint(impliedType: "identify").handle(request)
  }
}
