/// A call a provider's SDK exposes, produced by a mapping.
///
/// Each provider module defines its own typed call enum (Firebase's `logEvent`, `setUserProperty`…);
/// this protocol is the common shape the hub records for observers: the SDK method, the event or
/// property name it carries, and its parameters.
public protocol ProviderCall: Sendable {
  /// The SDK method this call invokes (`logEvent`, `track`, `setUserProperty`…).
  var method: String { get }
  /// The event, screen or property name the call carries, if any.
  var name: String? { get }
  /// The call's parameters, as the SDK receives them.
  var parameters: Properties { get }
}

/// A provider call as recorded: method, name and parameters, with the provider-specific type erased.
public struct CallDescription: ProviderCall, Hashable {
  public var method: String
  public var name: String?
  public var parameters: Properties

  /// A call description.
  public init(method: String, name: String? = nil, parameters: Properties = [:]) {
    self.method = method
    self.name = name
    self.parameters = parameters
  }

  /// The description of any provider call.
  @inlinable
  public init(_ call: some ProviderCall) {
    self.init(method: call.method, name: call.name, parameters: call.parameters)
  }
}
