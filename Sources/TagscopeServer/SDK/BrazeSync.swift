import AnalyticsHub
import AnalyticsProviders
import Foundation
import TagscopeRecording
import TagscopeVendors

/// Braze's content requests (``Vendor/braze``'s `/api/v3/content_cards/sync`,
/// `/api/v3/feature_flags/sync`, `/api/v3/template`, `/api/v3/banners/sync`,
/// `/api/v3/geofence/request`) and the SDK's own traffic (`/api/v3/push/redeliver`,
/// `/api/v3/debugger/init`, `/api/v3/debugger/log`, `/api/v3/dust/config`, the iOS SDK's Live
/// Activity `/api/v3/push_token_tag`): the SDK asking for content or reporting on itself, not
/// sending events.
///
/// Each request is one `identify` record (a kind plans do not judge as a tag), its call the SDK's
/// (`requestContentCardsRefresh`, `requestBannersRefresh`, `sdkDebuggerLog`…) with what the request
/// asks for or carries as parameters (the sync watermarks, the template's trigger, the banner
/// placements, the debugger's log lines); who sent it is read as on `/api/v3/data`
/// (``BrazeEndpoint/identity(_:_:)``); the request's other fields are kept under `request`, and a
/// field Tagscope does not know under `unread`, reported. The answer is the smallest one Braze's
/// SDKs decode (see the descriptor's comment for the sources). The Android SDK reads every answer
/// with one parser (`com.braze.models.response.g`, decompiled, code index id 53804501108): each
/// key optional (`error`, `auth_error`, `feature_flags`, `last_sync_at`, `banners`, `triggers`,
/// `config`, `templated_message`, `geofences`, `mite`), an answer without `error` a success, and
/// `message` never read. So a geofence refresh is answered with no geofences (`geofences: []`),
/// and the paths whose keys' content no public source shows (banners, redelivery, debugger, DUST,
/// push token tags) `{"message":"success"}`, a success without content to that parser, as
/// Braze's public mock answers the syncs.
enum BrazeSync {
  /// Which content a request asks for, or which of the SDK's own requests it is.
  enum Kind: String, CaseIterable {
    case contentCards = "/api/v3/content_cards/sync"
    case featureFlags = "/api/v3/feature_flags/sync"
    case template = "/api/v3/template"
    case banners = "/api/v3/banners/sync"
    case geofences = "/api/v3/geofence/request"
    case pushRedelivery = "/api/v3/push/redeliver"
    case debuggerStart = "/api/v3/debugger/init"
    case debuggerLog = "/api/v3/debugger/log"
    case dustConfig = "/api/v3/dust/config"
    case pushTokenTag = "/api/v3/push_token_tag"

    /// The kind of `path` (with or without a last `/`), `nil` for Braze's event paths.
    init?(path: String) {
      let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
      self.init(rawValue: trimmed)
    }

    /// The record's name.
    var name: String {
      switch self {
      case .contentCards: return "content_cards_sync"
      case .featureFlags: return "feature_flags_sync"
      case .template: return "template"
      case .banners: return "banners_sync"
      case .geofences: return "geofences_refresh"
      case .pushRedelivery: return "push_redelivery"
      case .debuggerStart: return "sdk_debugger_start"
      case .debuggerLog: return "sdk_debugger_log"
      case .dustConfig: return "dust_config"
      case .pushTokenTag: return "live_activity_push_token_tag"
      }
    }

    /// The Braze SDK call that sends it (the SDK's own, for the requests no app calls).
    var method: String {
      switch self {
      case .contentCards: return "requestContentCardsRefresh"
      case .featureFlags: return "refreshFeatureFlags"
      case .template: return "requestTemplate"
      case .banners: return "requestBannersRefresh"
      case .geofences: return "requestGeofences"
      case .pushRedelivery: return "requestPushRedelivery"
      case .debuggerStart: return "sdkDebuggerStart"
      case .debuggerLog: return "sdkDebuggerLog"
      case .dustConfig: return "requestDustConfig"
      case .pushTokenTag: return "launchActivity"
      }
    }

    /// The fields that say what the request asks for or carries: its call's parameters.
    var asked: [String] {
      switch self {
      case .contentCards: return ["last_full_sync_at", "last_card_updated_at"]
      case .featureFlags, .debuggerStart, .dustConfig: return []
      case .template: return ["template"]
      case .banners: return ["placements", "pending_dismissals", "time_ms"]
      case .geofences: return ["location_event"]
      case .pushRedelivery: return ["campaign_ids", "last_sync_at", "dedupe_ids"]
      case .debuggerLog: return ["data"]
      case .pushTokenTag: return ["tag"]
      }
    }
  }

  /// The request fields every content request may carry besides what it asks for
  /// (`generateRequiredRequestFields`, a config request's `respond_with`, the Web SDK's
  /// `sdk_metadata`).
  static let requestFields: Set<String> = [
    "api_key", "device_id", "user_id", "time", "sdk_version", "sdk_flavor", "sdk_metadata", "app_version",
    "app_version_code", "device", "respond_with",
  ]

  /// The record of a content request's `fields` and Braze's answer to it.
  static func reply(_ fields: Properties, apiKey: String, kind: Kind) -> SDKReply {
    let asked = Set(kind.asked)
    let parameters = Properties(fields.filter { asked.contains($0.key) }.map { ($0.key, $0.value) })
    let request = Properties(fields.filter { requestFields.contains($0.key) }.map { ($0.key, $0.value) })
    let unread = Properties(
      fields.filter { !asked.contains($0.key) && !requestFields.contains($0.key) }.map {
        ("request.\($0.key)", $0.value)
      })
    var violations: [RuleViolation] = []
    let time = SentTime.read(
      fields["time"], .seconds, field: "time", provider: Vendors.braze.rawValue, violations: &violations)
    var event = IngestedEvent(
      provider: Vendors.braze.rawValue, kind: .identify, name: kind.name, properties: parameters,
      time: time,
      identity: BrazeEndpoint.identity([:], fields),
      call: CallDescription(method: kind.method, name: nil, parameters: parameters), violations: violations,
      raw: "", recordsRaw: false, credentials: ["api_key": .string(apiKey)])
    if !request.isEmpty { event.annotations.appendUnchecked("request", .object(request)) }
    if !unread.isEmpty { event.annotations.appendUnchecked("unread", .object(unread)) }
    var events = [event]
    FieldAccount.reportUnread(in: &events)
    return SDKReply(status: .ok, body: answer(kind, fields), events: events)
  }

  /// What Braze answers: no cards, no flags, no template, nothing else.
  static func answer(_ kind: Kind, _ fields: Properties) -> String {
    switch kind {
    case .contentCards:
      // Not `flatMap { … ? nil : $0 }`: there `nil` is a `PropertyValue` literal (`.null`), not none.
      let mark = { (key: String) -> PropertyValue in
        guard let value = fields[key], value.doubleValue != nil else { return .int(0) }
        return value
      }
      return JSONText.string([
        "message": "success", "full_sync": true, "last_full_sync_at": mark("last_full_sync_at"),
        "last_card_updated_at": mark("last_card_updated_at"), "cards": [],
      ])
    case .featureFlags:
      return JSONText.string(["message": "success", "feature_flags": []])
    case .geofences:
      return JSONText.string(["message": "success", "geofences": []])
    case .template, .banners, .pushRedelivery, .debuggerStart, .debuggerLog, .dustConfig, .pushTokenTag:
      return JSONText.string(["message": "success"])
    }
  }
}
