import AnalyticsHub
import AnalyticsProvidersCore

/// A call of the Batch iOS SDK v2 (`BatchProfile`, `BatchProfileEditor`).
///
/// Recorded shape: `method` is the case name; `name` is the event name (`trackEvent`), the
/// attribute key (`setAttribute`, value under `value`), the tag collection (`addTag`/`removeTag`,
/// tag under `tag`) or the custom user ID (`identify`). Event attributes carry the label under
/// `$label` and the tags under `$tags`, as `BatchEventAttributes` sends them.
public enum BatchCall: ProviderCall, Hashable {
  /// `BatchProfile.trackEvent(name:attributes:)` with an optional label and tags.
  case trackEvent(name: String, label: String?, tags: [String], attributes: Properties)
  /// `editor.setAttribute(_:forKey:)`.
  case setAttribute(key: String, value: PropertyValue)
  /// `editor.removeAttribute(key:)`.
  case removeAttribute(key: String)
  /// `editor.addToArray(key:value:)` on a tag collection.
  case addTag(String, collection: String)
  /// `editor.removeFromArray(key:value:)` on a tag collection.
  case removeTag(String, collection: String)
  /// `BatchProfile.identify(_:)`; `nil` logs out.
  case identify(customID: String?)

  public var method: String {
    switch self {
    case .trackEvent: return "trackEvent"
    case .setAttribute: return "setAttribute"
    case .removeAttribute: return "removeAttribute"
    case .addTag: return "addTag"
    case .removeTag: return "removeTag"
    case .identify: return "identify"
    }
  }

  public var name: String? {
    switch self {
    case .trackEvent(let name, _, _, _): return name
    case .setAttribute(let key, _), .removeAttribute(let key): return key
    case .addTag(_, let collection), .removeTag(_, let collection): return collection
    case .identify(let id): return id
    }
  }

  public var parameters: Properties {
    switch self {
    case .trackEvent(_, let label, let tags, let attributes):
      var parameters: Properties = [:]
      if let label { parameters["$label"] = .string(label) }
      if !tags.isEmpty { parameters["$tags"] = .array(tags.map(PropertyValue.string)) }
      return parameters.isEmpty ? attributes : parameters.merging(attributes)
    case .setAttribute(_, let value): return ["value": value]
    case .addTag(let tag, _), .removeTag(let tag, _): return ["tag": .string(tag)]
    case .removeAttribute, .identify: return [:]
    }
  }
}

/// The Batch SDK's API, for an app to plug the real SDK in.
public protocol BatchAdapter: SDKAdapter where Call == BatchCall {
  func trackEvent(name: String, label: String?, tags: [String], attributes: Properties)
  func setAttribute(key: String, value: PropertyValue)
  func removeAttribute(key: String)
  func addTag(_ tag: String, collection: String)
  func removeTag(_ tag: String, collection: String)
  func identify(customID: String?)
}

extension BatchAdapter {
  public func deliver(_ call: BatchCall) {
    switch call {
    case .trackEvent(let name, let label, let tags, let attributes):
      trackEvent(name: name, label: label, tags: tags, attributes: attributes)
    case .setAttribute(let key, let value): setAttribute(key: key, value: value)
    case .removeAttribute(let key): removeAttribute(key: key)
    case .addTag(let tag, let collection): addTag(tag, collection: collection)
    case .removeTag(let tag, let collection): removeTag(tag, collection: collection)
    case .identify(let id): identify(customID: id)
    }
  }
}

/// Batch: a provider with its rules attached; push and in-app messaging, so it defaults to the
/// `marketing` consent category.
public enum Batch {
  /// The default provider identifier.
  public static let id: ProviderID = BatchRules.providerID

  /// A Batch provider whose calls are checked against ``BatchRules``.
  public static func provider<T: Taxonomy, Adapter: SDKAdapter>(
    id: ProviderID = id, category: ConsentCategory = .marketing,
    environment: EnvironmentSwitch = EnvironmentSwitch(),
    adapter: Adapter, mapping: @escaping Mapping<T, BatchCall>
  ) -> Provider<T> where Adapter.Call == BatchCall {
    ProviderFactory.make(
      id: id, category: category, environment: environment, adapter: adapter,
      rules: BatchRules.ruleCheck(), mapping: mapping)
  }

  /// A timed event as Batch events (`onboarding_start`, `onboarding_stop` with `duration`).
  public static func timedEvent<T: Taxonomy>(_ tag: Tag<T>, naming: TimedEventNaming = .snakeCase)
    -> [BatchCall]
  {
    guard let equivalent = tag.timedEquivalent(naming: naming) else { return [] }
    return [.trackEvent(name: equivalent.name, label: nil, tags: [], attributes: equivalent.properties)]
  }
}
