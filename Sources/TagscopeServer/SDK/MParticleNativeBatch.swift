import AnalyticsHub
import AnalyticsProviders

/// The short keys of the batches mParticle's iOS and Android SDKs upload, turned into the Events
/// API's names (those ``MParticleEndpoint`` reads), so both give the same records.
///
/// Keys as mParticle/mparticle-android-sdk `Constants.kt` (`MessageKey`, `MessageType`,
/// `Commerce`) and mParticle/mparticle-apple-sdk `MPIConstants.m`, `MPApplication.m` name them:
/// a batch (`dt: "h"`) holds `msgs`, app info `ai` (`an`, `apn`), device info `di` (`dp`, `dmdl`,
/// `vid`, `anid`), user attributes `ua`, user identities `ui` (`[{"n": type, "i": value}]`),
/// `mpid` and the device application stamp `das`; a message has its type `dt`, name `n`, event
/// type `et`, attributes `attrs`, flags `flags`, time `ct` (ms), session `sid`, a commerce event's
/// product action `pd.an`, a user attribute change's `n`, `nv`, `ov`, `d`, `na`.
///
/// Both SDKs send every attribute value as text (Android `getCustomAttributeStrings`, iOS
/// `transformValuesToString`: `true`/`false`, numbers by their decimal text), and the records keep
/// it as sent: a text attribute `"1"` stays text. An imported mParticle plan says its values
/// arrive as text (`valuesAsText`), so its `number` and `boolean` attributes take that text.
enum MParticleNativeBatch {
  /// The Events API's `event_type` of each SDK message type.
  static let eventTypes: [String: String] = [
    "e": "custom_event", "v": "screen_view", "cm": "commerce_event", "ss": "session_start",
    "se": "session_end", "uac": "user_attribute_change", "uic": "user_identity_change",
    "ast": "application_state_transition", "bc": "breadcrumb", "o": "opt_out", "x": "crash_report",
    "pr": "push_registration", "pm": "push_message", "npe": "network_performance", "fr": "first_run",
    "pro": "profile",
  ]

  /// The batch's fields ``serverBatch(_:account:)`` and the endpoint read (the messages, app and
  /// device info, user attributes and identities, mpid, device application stamp, consent state
  /// `con`, data plan context `ctx`, user attributes deleted `uad`, integration attributes `ia`).
  static let headerFields: Set<String> = [
    "msgs", "ai", "di", "ua", "ui", "mpid", "das", "con", "ctx", "uad", "ia",
  ]

  /// The keys of a consent purpose (`con.gdpr.<purpose>`, `con.ccpa.data_sale_opt_out`) under the
  /// Events API's names (Android `Constants.kt` `CONSENT_STATE_*`, `MessageBatch.java`
  /// `addConsentState`; iOS `MPIConstants.m` `kMPConsentState*`).
  static let consentNames = [
    "c": "consented", "d": "document", "ts": "timestamp_unixtime_ms", "l": "location", "h": "hardware_id",
  ]
  /// The data plan context's keys (`ctx.dpln`: Android `DATA_PLAN_*`, iOS `kMPDataPlan*Key`) under
  /// the Events API's names (`context.data_plan`).
  static let dataPlanNames = ["id": "plan_id", "v": "plan_version"]

  /// The app info (`ai`) keys carried (the record's app), under the Events API's names.
  static let appNames = ["an": "application_name", "apn": "package"]
  /// The device info (`di`) keys carried (the record's device, platform and model), under the
  /// Events API's names (iOS's advertising id `aid`, Android's `gaid`).
  static let deviceNames = [
    "dp": "platform", "dmdl": "device_model", "vid": "ios_idfv", "anid": "android_uuid",
    "aid": "ios_advertising_id", "gaid": "android_advertising_id",
  ]
  /// The keys of a user identity (`ui[]`) carried: its type and value.
  static let identityFields: Set<String> = ["n", "i"]

  /// The Events API's user identity names of the SDKs' identity types
  /// (``Vendor/MParticleIdentityType``).
  static let identityTypes = Vendor.MParticleIdentityType.names

  /// The batch's app, device, user, mpid, consent and data plan fields under the Events API's
  /// names; a consent or data plan key not carried is noted in `account` by its place.
  static func serverBatch(_ header: Properties, account: inout FieldAccount) -> Properties {
    let app = Payload.object(header["ai"])
    let device = Payload.object(header["di"])
    var identities: Properties = [:]
    for (index, item) in (Payload.array(header["ui"]) ?? []).enumerated() {
      let identity = Payload.object(item)
      guard let value = identity["i"] else {
        // No value (or not an identity object): nothing to carry, but not dropped unsaid.
        account.note("ui[\(index)]", item)
        continue
      }
      guard case .int(let type)? = identity["n"], let name = identityTypes[type] else {
        // A type no SDK names: its identity is not dropped unsaid.
        account.note("ui[\(index)].n", identity["n"] ?? .null)
        continue
      }
      identities[name] = value
    }
    var batch: Properties = [
      "application_info": .object(renamed(app, appNames)),
      "device_info": .object(renamed(device, deviceNames)),
      "user_identities": .object(identities),
      "user_attributes": .object(Payload.object(header["ua"])),
    ]
    batch["mpid"] = header["mpid"]
    batch["mp_deviceid"] = header["das"]
    batch["deleted_user_attributes"] = header["uad"]
    batch["integration_attributes"] = header["ia"]
    if header["con"] != nil {
      batch["consent_state"] = .object(consentState(header["con"], account: &account))
    }
    if header["ctx"] != nil { batch["context"] = .object(context(header["ctx"], account: &account)) }
    return batch
  }

  /// The consent state `con` (`{"gdpr": {purpose: {c, d, ts, l, h}}, "ccpa": {…}}`) under the
  /// Events API's names.
  private static func consentState(_ value: PropertyValue?, account: inout FieldAccount) -> Properties {
    var state = Properties()
    let regulations = MParticleBatchFields.check(
      value, at: "con", MParticleBatchFields.regulations, [], &account)
    for (regulation, purposes) in regulations where MParticleBatchFields.regulations.contains(regulation) {
      var named = Properties()
      let place = "con.\(regulation)"
      for (purpose, consent) in MParticleBatchFields.check(purposes, at: place, nil, [], &account) {
        let members = MParticleBatchFields.check(consent, at: "\(place).\(purpose)", nil, [], &account)
        named[purpose] = .object(
          MParticleNativeKeys.renamed(members, consentNames, at: "\(place).\(purpose)", account: &account))
      }
      state[regulation] = .object(named)
    }
    return state
  }

  /// The data plan context `ctx` (`{"dpln": {id, v}}`) under the Events API's names.
  private static func context(_ value: PropertyValue?, account: inout FieldAccount) -> Properties {
    let members = MParticleBatchFields.check(value, at: "ctx", ["dpln"], [], &account)
    guard members["dpln"] != nil else { return [:] }
    let plan = MParticleBatchFields.check(members["dpln"], at: "ctx.dpln", nil, [], &account)
    return [
      "data_plan": .object(
        MParticleNativeKeys.renamed(plan, dataPlanNames, at: "ctx.dpln", account: &account))
    ]
  }

  /// The Events API `event_type` and `data` of one SDK message of type `type`, at `place` in the
  /// batch (`msgs[2]`): each key of ``MParticleNativeKeys`` under its Events API name; a key
  /// neither carried nor in `transport` (mParticle's transport fields of a message) is noted in
  /// `account` by its place.
  static func serverEvent(
    _ message: Properties, type: String, at place: String, transport: Set<String>, account: inout FieldAccount
  ) -> (type: String, data: Properties) {
    let eventType = eventTypes[type] ?? type
    let table = MParticleNativeKeys.common.merging(MParticleNativeKeys.byType[type] ?? [:]) { $1 }
    var data = MParticleNativeKeys.renamed(
      message, table, at: place, transport: transport.union(["dt", "id"]), nesting: "", account: &account)
    if let kind = Payload.text(message["et"]), eventType == "custom_event" {
      data["custom_event_type"] = .string(snakeCase(kind))
    }
    for side in ["new", "old"] {
      guard case .object(var identity)? = data[side], case .int(let kind)? = identity["identity_type"] else {
        continue
      }
      identity["identity_type"] = .string(identityTypes[kind] ?? String(kind))
      data[side] = .object(identity)
    }
    return (eventType, data)
  }

  /// The members of `object` named in `names`, under their new names, in `object`'s order.
  private static func renamed(_ object: Properties, _ names: [String: String]) -> Properties {
    Properties(object.compactMap { member in names[member.key].map { ($0, member.value) } })
  }

  /// `UserContent` → `user_content`: the Events API's spelling of the SDKs' event type names.
  static func snakeCase(_ name: String) -> String {
    var result = ""
    for character in name {
      if character.isUppercase, !result.isEmpty { result.append("_") }
      result.append(contentsOf: character.lowercased())
    }
    return result
  }
}
