/// The build or environment an app runs in, to switch providers off where they must not send
/// (no production analytics from debug builds, a test-only provider in staging…).
public struct BuildEnvironment: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { rawValue = value }
  public var description: String { rawValue }

  /// A developer's debug build.
  public static let debug: BuildEnvironment = "debug"
  /// A QA or TestFlight build.
  public static let staging: BuildEnvironment = "staging"
  /// The App Store build.
  public static let production: BuildEnvironment = "production"

  /// The environment of this build: `debug` when compiled with `DEBUG`, `production` otherwise.
  public static var current: BuildEnvironment {
    #if DEBUG
      return .debug
    #else
      return .production
    #endif
  }
}

/// Where a provider is enabled: everywhere, or only in some environments.
public struct EnvironmentSwitch: Sendable, Hashable {
  /// The environments the provider sends in; `nil` means all.
  public var enabledIn: Set<BuildEnvironment>?
  /// The environment the app runs in.
  public var environment: BuildEnvironment

  /// A switch; by default enabled everywhere, evaluated for ``BuildEnvironment/current``.
  public init(enabledIn: Set<BuildEnvironment>? = nil, environment: BuildEnvironment = .current) {
    self.enabledIn = enabledIn
    self.environment = environment
  }

  /// Whether the provider starts enabled.
  public var isEnabled: Bool { enabledIn?.contains(environment) ?? true }
}
