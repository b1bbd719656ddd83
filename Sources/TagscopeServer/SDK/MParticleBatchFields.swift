import AnalyticsHub
import AnalyticsProviders

/// The documented members of the objects an mParticle Events API batch holds beside its events:
/// its `device_info` (`DeviceInformation`), `application_info` (`ApplicationInformation`),
/// `consent_state` (`ConsentState`: `gdpr` and `ccpa` purposes, each `GDPRConsentState` /
/// `CCPAConsentState`) and `context` (`BatchContext`: `data_plan`, `location`), as mParticle's
/// Events API schema names them (docs.mparticle.com/schema/mparticle.inbound.eventsapi.schema.json,
/// read at api-evangelist/mparticle @ d05ccbd `json-schema/mparticle-eventsapi-schema.json`; the
/// same names as mParticle/mparticle-python-sdk @ 6772fc2 `mparticle/models/device_information.py`,
/// `application_information.py`). The decoders keep these objects whole on a batch's first
/// record; a member not documented is reported by its place (`device_info.foo`), as the mobile
/// header's `di`/`ai` keys are.
enum MParticleBatchFields {
  /// `DeviceInformation`'s members.
  static let deviceInfo: Set<String> = [
    "brand", "product", "device", "android_uuid", "device_manufacturer", "platform", "os_version",
    "device_model", "screen_height", "screen_width", "screen_dpi", "device_country", "locale_language",
    "locale_country", "network_country", "network_carrier", "network_code", "network_mobile_country_code",
    "timezone_offset", "build_identifier", "http_header_user_agent", "ios_advertising_id",
    "att_authorization_status", "att_timestamp_unixtime_ms", "push_token", "cpu_architecture", "is_tablet",
    "push_notification_sound_enabled", "push_notification_vibrate_enabled", "radio_access_technology",
    "supports_telephony", "has_nfc", "bluetooth_enabled", "bluetooth_version", "ios_idfv",
    "android_advertising_id", "build_version_release", "limit_ad_tracking", "amp_id", "is_dst",
    "roku_advertising_id", "roku_publisher_id", "microsoft_advertising_id", "microsoft_publisher_id",
    "fire_advertising_id",
  ]

  /// `ApplicationInformation`'s members.
  static let applicationInfo: Set<String> = [
    "application_name", "application_version", "application_build_number", "install_referrer", "package",
    "os",
    "apple_search_ads_attributes",
  ]

  /// `ConsentState`'s regulations, each an object of purposes.
  static let regulations: Set<String> = ["gdpr", "ccpa"]
  /// The members of one consent purpose (`GDPRConsentState`, `CCPAConsentState`).
  static let purpose: Set<String> = [
    "consented", "document", "timestamp_unixtime_ms", "location", "hardware_id",
  ]
  /// `BatchContext`'s members.
  static let context: Set<String> = ["data_plan", "location"]
  /// `DataPlanContext`'s members.
  static let dataPlan: Set<String> = ["plan_id", "plan_version"]
  /// `GeoLocation`'s members.
  static let location: Set<String> = ["latitude", "longitude", "accuracy"]

  /// The batch's fields these objects are under.
  static let objects: Set<String> = ["device_info", "application_info", "consent_state", "context"]

  /// mParticle's transport fields (``Vendor/TransportFields/mparticle``) of these objects.
  static let transport = TransportLevels(Vendor.mparticle, levels: ["application_info", "device_info"])

  /// Notes in `account` each member of `batch`'s ``objects`` (at `place`, `""` or `[2]` for a
  /// bulk request's batch) the Events API does not document, and an object that is not one.
  static func check(_ batch: Properties, at place: String, account: inout FieldAccount) {
    func at(_ name: String) -> String { place.isEmpty ? name : "\(place).\(name)" }
    check(batch["device_info"], at: at("device_info"), deviceInfo, transport["device_info"], &account)
    check(
      batch["application_info"], at: at("application_info"), applicationInfo, transport["application_info"],
      &account)
    for (regulation, purposes) in check(
      batch["consent_state"], at: at("consent_state"), regulations, [], &account)
    {
      let regulationPlace = at("consent_state.\(regulation)")
      for (name, consent) in check(purposes, at: regulationPlace, nil, [], &account) {
        check(consent, at: "\(regulationPlace).\(name)", purpose, [], &account)
      }
    }
    let found = check(batch["context"], at: at("context"), context, [], &account)
    check(found["data_plan"], at: at("context.data_plan"), dataPlan, [], &account)
    check(found["location"], at: at("context.location"), location, [], &account)
  }

  /// The object `value` at `place`, its members not in `understood` (any, when `nil`) nor in
  /// `transport` noted in `account`; a value that is not an object (nor absent, nor `null`) is
  /// noted whole, and read as empty.
  @discardableResult
  static func check(
    _ value: PropertyValue?, at place: String, _ understood: Set<String>?, _ transport: Set<String>,
    _ account: inout FieldAccount
  ) -> Properties {
    switch value {
    case nil, .null?: return [:]
    case .object(let members)?:
      if let understood { account.check(members, at: place, understood: understood, transport: transport) }
      return members
    case let other?:
      account.note(place, other)
      return [:]
    }
  }
}
