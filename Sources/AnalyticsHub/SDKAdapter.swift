/// The bridge from typed calls to a real SDK (Firebase, Amplitude…) or to a test double.
///
/// Adapters mirror the SDK's API: an iOS app implements one by calling the SDK, a test uses
/// `TestAdapter` (AnalyticsHubTesting). The hub calls `setup()` once when the provider is
/// registered, then `deliver` for each call in the order the mapping returned them.
public protocol SDKAdapter<Call>: Sendable {
  /// The provider's call type.
  associatedtype Call: ProviderCall
  /// One-time SDK configuration (API keys…); called once, on registration.
  func setup()
  /// Hands one call to the SDK. Throwing marks the provider's outcome `failed`.
  func deliver(_ call: Call) throws
}

extension SDKAdapter {
  public func setup() {}
}

/// An adapter that discards calls: for providers that are only observed (the inspector shows what
/// they would have sent), benchmarks and demos.
public struct DiscardingAdapter<Call: ProviderCall>: SDKAdapter {
  /// A discarding adapter.
  public init() {}
  public func deliver(_ call: Call) {}
}
