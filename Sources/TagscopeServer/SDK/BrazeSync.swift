import AnalyticsHub
import AnalyticsProviders
import Foundation
import TagscopeRecording
import TagscopeVendors

/// Braze's content requests (``Vendor/braze``'s `/api/v3/content_cards/sync`,
/// `/api/v3/feature_flags/sync`, `/api/v3/template`): the SDK asking for content cards, feature
/// flags or an in-app message's template, not sending events.
///
/// Each request is one `identify` record (a kind plans do not judge as a tag), its call the SDK's
/// (`requestContentCardsRefresh`, `refreshFeatureFlags`, `requestTemplate`) with what the request
/// asks for as parameters (the sync watermarks, the template's trigger); who sent it is read as on
/// `/api/v3/data` (``BrazeEndpoint/identity(_:_:)``); the request's other fields are kept under
/// `request`, and a field Tagscope does not know under `unread`, reported. The answer is the
/// smallest one Braze's SDKs decode (see the descriptor's comment for the sources).
enum BrazeSync {
  /// Which content a request asks for.
  enum Kind: String, CaseIterable {
    case contentCards = "/api/v3/content_cards/sync"
    case featureFlags = "/api/v3/feature_flags/sync"
    case template = "/api/v3/template"

    /// The kind of `path` (with or without a last `/`), `nil` for Braze's data endpoint.
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
      }
    }

    /// The Braze SDK call that sends it.
    var method: String {
      switch self {
      case .contentCards: return "requestContentCardsRefresh"
      case .featureFlags: return "refreshFeatureFlags"
      case .template: return "requestTemplate"
      }
    }

    /// The fields that say what the request asks for: its call's parameters.
    var asked: [String] {
      switch self {
      case .contentCards: return ["last_full_sync_at", "last_card_updated_at"]
      case .featureFlags: return []
      case .template: return ["template"]
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
    var event = IngestedEvent(
      provider: Vendors.braze.rawValue, kind: .identify, name: kind.name, properties: parameters,
      time: fields["time"]?.doubleValue.flatMap { Payload.date(seconds: $0) },
      identity: BrazeEndpoint.identity([:], fields),
      call: CallDescription(method: kind.method, name: nil, parameters: parameters), raw: "",
      recordsRaw: false, credentials: ["api_key": .string(apiKey)])
    if !request.isEmpty { event.annotations.appendUnchecked("request", .object(request)) }
    if !unread.isEmpty { event.annotations.appendUnchecked("unread", .object(unread)) }
    var events = [event]
    FieldAccount.reportUnread(in: &events)
    return SDKReply(status: .ok, body: answer(kind, fields), events: events)
  }

  /// What Braze answers: no cards, no flags, no template.
  static func answer(_ kind: Kind, _ fields: Properties) -> String {
    switch kind {
    case .contentCards:
      let mark = { (key: String) -> PropertyValue in
        fields[key].flatMap { $0.doubleValue == nil ? nil : $0 } ?? .int(0)
      }
      return JSONText.string([
        "message": "success", "full_sync": true, "last_full_sync_at": mark("last_full_sync_at"),
        "last_card_updated_at": mark("last_card_updated_at"), "cards": [],
      ])
    case .featureFlags:
      return JSONText.string(["message": "success", "feature_flags": []])
    case .template:
      return JSONText.string(["message": "success"])
    }
  }
}
