import AnalyticsHub

/// The short keys of a message of mParticle's iOS and Android SDKs the decoder carries, and the
/// Events API name each is carried under in the record's call (mparticle-python-sdk's models:
/// `EventData`, `AppEvent`, `ScreenViewEvent`, `CommerceEvent`, `ProductAction`, `Product`,
/// `PromotionAction`, `Promotion`, `ProductImpression`,
/// `GeoLocation`, `DeviceCurrentState`, `UserIdentityChangeEvent`, `SessionEndEvent`,
/// `ApplicationStateTransitionEvent`, `BreadcrumbEvent`, `OptOutEvent`, `PushRegistrationEvent`;
/// the Events API schema's `CrashReportEvent`, `PushMessageEvent`, `NetworkPerformanceEvent`,
/// ``MParticleBatchFields``). A key with no Events API field (a crash's signal `csg`, a push's
/// action title `an`, category `acid` and content id, a token's type `tot`) is reported.
///
/// Keys as mParticle/mparticle-android-sdk @ eb2b4c8 `Constants.kt` (`MessageKey`, `Commerce`)
/// and mParticle/mparticle-apple-sdk @ 86fa647 `MPIConstants.m` name them. A key of a message in
/// neither these tables nor mParticle's transport fields (``Vendor/TransportFields/mparticle``) is
/// reported by its place (`msgs[2].zz`).
enum MParticleNativeKeys {
  /// The keys every message type carries: its time, session, attributes, flags, location and the
  /// device's state when it was logged (its type `dt` and id `id` are read, not renamed).
  static let common = [
    "ct": "timestamp_unixtime_ms", "sid": "session_uuid", "attrs": "custom_attributes",
    "flags": "custom_flags",
    "lc": "location", "cs": "device_current_state",
  ]

  /// The keys a message of each SDK message type carries beside ``common``.
  static let byType: [String: [String: String]] = [
    "e": ["n": "event_name", "et": "custom_event_type"],
    "v": ["n": "screen_name"],
    // Android `MPCommerceMessage.java` `addCommerceEventInfo`, iOS `MPCommerceEvent.m`
    // `dictionaryRepresentation`: the product action, promotion action, impressions, screen,
    // currency and non-interaction flag.
    "cm": [
      "pd": "product_action", "pm": "promotion_action", "pi": "product_impressions", "sn": "screen_name",
      "cu": "currency_code", "ni": "is_non_interactive",
    ],
    "uac": ["n": "user_attribute_name", "nv": "new", "ov": "old", "d": "deleted", "na": "is_new_attribute"],
    "uic": ["ni": "new", "oi": "old"],
    "se": ["sl": "session_duration_ms"],
    "ast": ["t": "application_transition_type", "ifr": "is_first_run", "iu": "is_upgrade"],
    "bc": ["l": "label", "sn": "session_number"],
    "o": ["s": "is_opted_out"],
    "pr": ["to": "registration_token", "r": "register"],
    // Android `MessageManager.java` (`logErrorEvent`, `logNetworkPerformanceEvent`,
    // `logNotification`); iOS `MPIConstants.m` (`kMPCrashing*`, `kMPTopmostContext`,
    // `kMPPLCrashReport`, `kMPPush*`), `Network/MPNetworkPerformance.m`.
    "x": [
      "s": "severity", "c": "class_name", "m": "message", "st": "stack_trace", "eh": "exception_handled",
      "sn": "session_number", "tc": "topmost_context", "plc": "pl_crash_report_file_base64",
      "iba": "ios_image_base_address", "is": "ios_image_size",
    ],
    "pm": [
      "t": "push_message_type", "pay": "push_notification_payload", "as": "application_state",
      "bhv": "push_message_behavior", "aid": "action_identifier", "to": "push_message_token", "n": "network",
    ],
    "npe": [
      "v": "http_verb", "url": "url", "te": "time_elapsed", "bi": "bytes_in", "bo": "bytes_out",
      "rc": "response_code", "d": "data",
    ],
  ]

  /// A product's keys (`pd.pl[]`, `pi[].pl[]`: Android `Product.java` `toString`, iOS
  /// `MPProduct.m` `kMPProduct*`) under the Events API's `Product` names.
  private static let product = [
    "id": "id", "nm": "name", "br": "brand", "ca": "category", "va": "variant", "ps": "position",
    "pr": "price", "qt": "quantity", "cc": "coupon_code", "tpa": "total_product_amount",
    "act": "added_to_cart_time_ms", "attrs": "custom_attributes",
  ]

  /// The keys of an object a message key holds, by its place in the message (`[]` an element of
  /// a list): a location (`lc`), the device's state (`cs`), a product action (`pd`) and its
  /// products, a promotion action (`pm`: Android `Constants.kt` `PROMOTION_ACTION_OBJECT`,
  /// `MPCommerceMessage.java` `getPromotionJson`; iOS `MPPromotion.m` `kMPPM*`) and its
  /// promotions, the impressions (`pi`, each `pil` and its products `pl`: Android
  /// `IMPRESSION_OBJECT`, iOS `MPCommerceEvent.m` `kMPCEImpressions`), a user identity (`ni`,
  /// `oi`). A promotion's `pl` and a product action's are told apart by where they are.
  static let nested: [String: [String: String]] = [
    "lc": ["lat": "latitude", "lng": "longitude", "acc": "accuracy"],
    "cs": [
      "tss": "time_since_start_ms", "bl": "battery_level", "dct": "data_connection_type",
      "ant": "data_connection_type_detail", "gps": "gps_state", "tsm": "total_system_memory_usage_bytes",
      "fds": "disk_space_free_bytes", "sma": "system_memory_available_bytes", "sml": "system_memory_low",
      "smt": "system_memory_threshold_bytes", "ama": "application_memory_available_bytes",
      "amm": "application_memory_max_bytes", "amt": "application_memory_total_bytes",
      "so": "device_orientation", "sbo": "status_bar_orientation",
    ],
    "pd": [
      "an": "action", "cs": "checkout_step", "co": "checkout_options", "pal": "product_action_list",
      "pls": "product_list_source", "ti": "transaction_id", "ta": "affiliation", "tr": "total_amount",
      "tt": "tax_amount", "ts": "shipping_amount", "tcc": "coupon_code", "pl": "products",
    ],
    "pd.pl[]": product,
    "pm": ["an": "action", "pl": "promotions"],
    "pm.pl[]": ["id": "id", "nm": "name", "cr": "creative", "ps": "position"],
    "pi[]": ["pil": "product_impression_list", "pl": "products"],
    "pi[].pl[]": product,
    "ni": ["n": "identity_type", "i": "identity", "dfs": "timestamp_unixtime_ms", "f": "created_this_batch"],
    "oi": ["n": "identity_type", "i": "identity", "dfs": "timestamp_unixtime_ms", "f": "created_this_batch"],
  ]

  /// Each carried message field by its place in a batch (`msgs[].pd.pl[].nm`), with the Events
  /// API names it may be carried under: what the corpus walk looks for in a record's call.
  static let carriedAs: [String: [String]] = {
    var names: [String: Set<String>] = [:]
    for table in [common] + byType.values.map({ $0 }) {
      for (short, long) in table { names["msgs[].\(short)", default: []].insert(long) }
    }
    for (place, table) in nested {
      for (short, long) in table { names["msgs[].\(place).\(short)", default: []].insert(long) }
    }
    names["msgs[].dt"] = ["event_type"]
    return names.mapValues { $0.sorted() }
  }()

  /// The object at `value` with its keys named in `table` renamed; with `nesting` (the place in
  /// the message of `object`, `""` for the message), the keys of its nested objects (``nested``)
  /// too. A key in neither `table` nor `transport` is noted in `account` at `place`.
  static func renamed(
    _ object: Properties, _ table: [String: String], at place: String, transport: Set<String> = [],
    nesting: String? = nil, account: inout FieldAccount
  ) -> Properties {
    var out = Properties()
    for member in object {
      guard let name = table[member.key] else {
        if !transport.contains(member.key) { account.note("\(place).\(member.key)", member.value) }
        continue
      }
      guard let nesting else {
        out[name] = member.value
        continue
      }
      let inner = nesting.isEmpty ? member.key : "\(nesting).\(member.key)"
      out[name] = carried(member.value, nesting: inner, at: "\(place).\(member.key)", account: &account)
    }
    return out
  }

  /// `value` at the place `nesting` of a message, its members renamed when ``nested`` names an
  /// object there (or each element of a list of them, `nesting[]`); attributes stay as sent.
  private static func carried(
    _ value: PropertyValue, nesting: String, at place: String, account: inout FieldAccount
  ) -> PropertyValue {
    switch value {
    case .object(let members):
      guard let table = nested[nesting] else { return value }
      return .object(renamed(members, table, at: place, nesting: nesting, account: &account))
    case .array(let elements):
      let element = nesting + "[]"
      guard let table = nested[element] else { return value }
      return .array(
        elements.enumerated().map { index, item in
          guard case .object(let members) = item else { return item }
          return .object(
            renamed(members, table, at: "\(place)[\(index)]", nesting: element, account: &account))
        })
    default:
      return value
    }
  }
}
