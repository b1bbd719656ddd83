/// A provider's identifier (`firebase`, `amplitude`…); unique within a hub.
public struct ProviderID: RawRepresentable, Sendable, Hashable, Comparable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { rawValue = value }
  public var description: String { rawValue }
  public static func < (lhs: ProviderID, rhs: ProviderID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A pure mapping from a tag and the hub's context to a provider's calls; `[]` means the
/// provider ignores the tag.
public typealias Mapping<T: Taxonomy, Call: ProviderCall> = @Sendable (Tag<T>, HubContext<T>) -> [Call]

/// Checks a provider's documented rules on the calls a mapping produced.
public typealias RuleCheck<Call: ProviderCall> = @Sendable ([Call]) -> [RuleViolation]

/// An analytics provider registered with a hub: an identifier, a consent category, a pure
/// mapping, the SDK adapter that receives the calls and, optionally, the SDK's rules.
///
/// The call type is erased so providers with different SDKs live in one ``ProviderSet``.
public struct Provider<T: Taxonomy>: Sendable {
  /// Unique identifier.
  public let id: ProviderID
  /// The consent category that gates this provider.
  public let category: ConsentCategory
  /// Whether the provider starts enabled (build/environment switch).
  public let initiallyEnabled: Bool

  /// Makes the hub's lane for this provider: its mapping, rules and adapter queue.
  @usableFromInline let makeLane: @Sendable () -> ProviderLane<T>

  /// A provider from a mapping and an adapter.
  ///
  /// - Parameters:
  ///   - id: Unique identifier within the hub.
  ///   - category: The consent category (default `analytics`).
  ///   - enabled: Whether it starts enabled; use it to switch a provider off per build or environment.
  ///   - adapter: Receives every call the mapping returns, in hub order, never under the hub's lock.
  ///   - rules: The SDK's documented rules, checked on every call (see `AnalyticsProviders`).
  ///   - mapping: `(tag, context) -> [call]`.
  @inlinable
  public init<Adapter: SDKAdapter>(
    id: ProviderID,
    category: ConsentCategory = .analytics,
    enabled: Bool = true,
    adapter: Adapter,
    rules: RuleCheck<Adapter.Call>? = nil,
    mapping: @escaping Mapping<T, Adapter.Call>
  ) {
    self.id = id
    self.category = category
    self.initiallyEnabled = enabled
    self.makeLane = { AdapterLane(adapter: adapter, rules: rules, mapping: mapping) }
  }
}

@usableFromInline
struct EvaluationOptions {
  @usableFromInline var checkRules: Bool
  @usableFromInline var describeCalls: Bool

  @inlinable
  init(checkRules: Bool, describeCalls: Bool) {
    self.checkRules = checkRules
    self.describeCalls = describeCalls
  }
}

@usableFromInline
struct Evaluation {
  @usableFromInline var status: OutcomeStatus
  @usableFromInline var calls: [CallDescription]
  @usableFromInline var violations: [RuleViolation]

  @inlinable
  init(status: OutcomeStatus, calls: [CallDescription], violations: [RuleViolation]) {
    self.status = status
    self.calls = calls
    self.violations = violations
  }
}
