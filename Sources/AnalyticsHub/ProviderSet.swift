/// An ordered set of providers, combinable as in seed 004's `combined(with:)`.
public struct ProviderSet<T: Taxonomy>: Sendable, ExpressibleByArrayLiteral {
  /// The providers, in registration order.
  public private(set) var providers: [Provider<T>]

  /// A set of providers.
  public init(_ providers: [Provider<T>]) { self.providers = providers }

  public init(arrayLiteral elements: Provider<T>...) { providers = elements }

  /// The providers of both sets; `other`'s come after this set's. Duplicate identifiers are
  /// rejected when the set is given to a hub.
  public func combined(with other: ProviderSet<T>) -> ProviderSet<T> {
    ProviderSet(providers + other.providers)
  }

  /// The identifiers, in order.
  public var ids: [ProviderID] { providers.map(\.id) }
}
