import AnalyticsHub
import AnalyticsProviders
import TagscopeRecording

/// What mParticle's iOS and Android SDKs upload: `POST /v2/<api key>/events` to
/// `nativesdks.mparticle.com` (Android; `nativesdks.<pod>.mparticle.com` and
/// `tracking-nativesdks.<pod>.mparticle.com` on iOS, the pod the API key's prefix), or
/// `/nativeevents/v2/<api key>/events` behind a custom base URL; a gzip'd JSON batch signed with
/// `x-mp-signature` (an HMAC of the API secret, which Tagscope cannot check: it is recorded as
/// received). Read from mParticle/mparticle-android-sdk `MParticleBaseClientImpl.java` (`EVENTS`),
/// `MParticleApiClientImpl.java` (`sendMessageBatch`), `NetworkOptionsManager.java`, and
/// mParticle/mparticle-apple-sdk `MPNetworkCommunication.m` (`eventURLForUpload:`),
/// `MPURLRequestBuilder.m`.
///
/// The batch is the SDKs' short-key shape (``MParticleNativeBatch``); each message becomes the
/// record the Events API's event of the same type gives, so one imported mParticle plan judges
/// both. The reply is `202` with a response header batch (`{"dt":"rh"}`): both SDKs read the body
/// as JSON (Android logs it, iOS parses an `rh` for cookies). A refused request records nothing.
struct MParticleNativeEndpoint: SDKEndpoint {
  /// The API key the path carries.
  var apiKey: String

  /// The SDKs' upload path prefixes, from the registry's paths (`/v2/KEY/events`).
  private static let prefixes = Vendor.mparticle.pathPrefixes(of: .mparticleNative, before: "KEY/events")

  /// The endpoint of an SDK upload path, or `nil` when `path` is not one.
  static func matching(path: String) -> MParticleNativeEndpoint? {
    for prefix in prefixes where path.hasPrefix(prefix) && path.hasSuffix("/events") {
      guard path.count > prefix.count + "/events".count else { return nil }
      let key = path.dropFirst(prefix.count).dropLast("/events".count)
      guard !key.contains("/") else { return nil }
      return MParticleNativeEndpoint(apiKey: String(key))
    }
    return nil
  }

  var provider: String { Vendors.mparticle.rawValue }
  var bodyLimit: Int { Vendor.Limit.mparticleNative.requestBytes }

  func replyTooLarge() -> SDKReply { MParticleEndpoint(isBulk: false).replyTooLarge() }

  func handle(_ request: ReceivedRequest) -> SDKReply {
    guard request.isJSON || request.mediaType == nil else {
      return MParticleEndpoint.badRequest("Content-Type must be application/json", .wrongContentType)
    }
    let body: PropertyValue
    do { body = try JSONParser.parse(request.body) } catch {
      return MParticleEndpoint.badRequest("The request body is not valid JSON", .malformedJSON)
    }
    guard let header = Payload.objectOrNil(body) else {
      return MParticleEndpoint.badRequest("The batch is not an object", .invalidPayload)
    }
    guard let messages = header["msgs"].map(Payload.array) ?? [] else {
      return MParticleEndpoint.badRequest("msgs is not an array", .invalidPayload)
    }
    var account = Self.headerAccount(header)
    let batch = MParticleNativeBatch.serverBatch(header, account: &account)
    var accepted: [IngestedEvent] = []
    for (position, item) in messages.enumerated() {
      guard let message = Payload.objectOrNil(item), let type = Payload.text(message["dt"]) else {
        return MParticleEndpoint.badRequest("msgs[\(position)] has no dt (message type)", .invalidPayload)
      }
      var fields = FieldAccount()
      let (eventType, data) = MParticleNativeBatch.serverEvent(
        message, type: type, at: "msgs[\(position)]", transport: Self.transport["msgs[]"], account: &fields)
      let event: Properties = ["event_type": .string(eventType), "data": .object(data)]
      var ingested = MParticleEndpoint.event(event, type: eventType, data: data, batch: batch, apiKey: apiKey)
      // The SDK's own message, which the call (the Events API's form of it) does not repeat.
      ingested.raw = JSONText.string(message)
      ingested.recordsRaw = true
      ingested.messageID = Payload.text(message["id"])
      fields.add(to: &ingested)
      accepted.append(ingested)
    }
    if accepted.isEmpty, MParticleEndpoint.setsUserData(batch) || !account.isEmpty {
      // A batch without messages still sets the user attributes and identities it carries, and
      // what its header holds that is not understood is still reported.
      accepted.append(MParticleEndpoint.batchOnly(batch, apiKey: apiKey))
    }
    if !accepted.isEmpty {
      // The batch's own fields its records' app, device and user are read from, kept whole on its
      // first record (the identities and ids a record's identity does not hold among them), and the
      // request's path, for HAR export's rebuild.
      MParticleEndpoint.keepRequest(
        of: &accepted[0], path: request.path,
        batch: header.filter { $0.key != "msgs" && MParticleNativeBatch.headerFields.contains($0.key) })
    }
    account.add(to: &accepted)
    return SDKReply(status: .accepted, body: #"{"dt":"rh"}"#, events: accepted)
  }

  /// mParticle's transport fields (``Vendor/TransportFields/mparticle``) of a batch's header, app
  /// and device info, user identities and messages.
  static let transport = TransportLevels(Vendor.mparticle, levels: ["", "ai", "di", "ui[]", "msgs[]"])

  /// The batch header's own fields not understood: its keys, its app and device info's, each
  /// user identity's.
  static func headerAccount(_ header: Properties) -> FieldAccount {
    var account = FieldAccount()
    account.check(header, at: "", understood: MParticleNativeBatch.headerFields, transport: transport[""])
    account.check(
      Payload.object(header["ai"]), at: "ai", understood: Set(MParticleNativeBatch.appNames.keys),
      transport: transport["ai"])
    account.check(
      Payload.object(header["di"]), at: "di", understood: Set(MParticleNativeBatch.deviceNames.keys),
      transport: transport["di"])
    for (index, item) in (Payload.array(header["ui"]) ?? []).enumerated() {
      account.check(
        Payload.object(item), at: "ui[\(index)]", understood: MParticleNativeBatch.identityFields,
        transport: transport["ui[]"])
    }
    return account
  }
}
