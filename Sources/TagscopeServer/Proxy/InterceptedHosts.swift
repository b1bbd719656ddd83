/// The hosts `tagscope proxy` decrypts: those of the SDKs `listen` decodes, plus self-hosted
/// collectors named on the command line. Everything else is tunnelled untouched.
public struct InterceptedHosts: Sendable {
  /// One built-in host (or `*.suffix`) and the SDK it serves.
  public struct Entry: Sendable, Equatable {
    /// The host, or `*.domain` for every host under `domain`.
    public let pattern: String
    /// The SDK it serves, as `tagscope help listen` names it.
    public let sdk: String
  }

  /// The vendors' own hosts.
  public static let builtIn: [Entry] = [
    Entry(pattern: "api.segment.io", sdk: "Segment"),
    Entry(pattern: "events.eu1.segmentapis.com", sdk: "Segment (EU)"),
    Entry(pattern: "*.dataplane.rudderstack.com", sdk: "RudderStack"),
    Entry(pattern: "hosted.rudderlabs.com", sdk: "RudderStack"),
    Entry(pattern: "api2.amplitude.com", sdk: "Amplitude"),
    Entry(pattern: "api.amplitude.com", sdk: "Amplitude (older SDKs)"),
    Entry(pattern: "api.eu.amplitude.com", sdk: "Amplitude (EU)"),
    Entry(pattern: "api.mixpanel.com", sdk: "Mixpanel"),
    Entry(pattern: "api-js.mixpanel.com", sdk: "Mixpanel (JavaScript)"),
    Entry(pattern: "api-eu.mixpanel.com", sdk: "Mixpanel (EU)"),
    Entry(pattern: "api-in.mixpanel.com", sdk: "Mixpanel (India)"),
    Entry(pattern: "us.i.posthog.com", sdk: "PostHog"),
    Entry(pattern: "eu.i.posthog.com", sdk: "PostHog (EU)"),
    Entry(pattern: "app.posthog.com", sdk: "PostHog (older SDKs)"),
    Entry(pattern: "www.google-analytics.com", sdk: "GA4 (gtag, Measurement Protocol)"),
    Entry(pattern: "region1.google-analytics.com", sdk: "GA4 (gtag)"),
    Entry(pattern: "*.google-analytics.com", sdk: "GA4 (regional)"),
    Entry(pattern: "analytics.google.com", sdk: "GA4 (gtag)"),
    Entry(pattern: "s2s.mparticle.com", sdk: "mParticle (Events API)"),
    Entry(pattern: "s2s.us2.mparticle.com", sdk: "mParticle (Events API, US2)"),
    Entry(pattern: "s2s.eu1.mparticle.com", sdk: "mParticle (Events API, EU)"),
    Entry(pattern: "jssdks.mparticle.com", sdk: "mParticle (web SDK)"),
    Entry(pattern: "nativesdks.mparticle.com", sdk: "mParticle (Android SDK)"),
    Entry(pattern: "nativesdks.us1.mparticle.com", sdk: "mParticle (iOS SDK, US1)"),
    Entry(pattern: "tracking-nativesdks.us1.mparticle.com", sdk: "mParticle (iOS SDK, US1, tracking)"),
    Entry(pattern: "nativesdks.us2.mparticle.com", sdk: "mParticle (iOS SDK, US2)"),
    Entry(pattern: "tracking-nativesdks.us2.mparticle.com", sdk: "mParticle (iOS SDK, US2, tracking)"),
    Entry(pattern: "nativesdks.eu1.mparticle.com", sdk: "mParticle (iOS SDK, EU1)"),
    Entry(pattern: "tracking-nativesdks.eu1.mparticle.com", sdk: "mParticle (iOS SDK, EU1, tracking)"),
    Entry(pattern: "nativesdks.au1.mparticle.com", sdk: "mParticle (iOS SDK, AU1)"),
    Entry(pattern: "tracking-nativesdks.au1.mparticle.com", sdk: "mParticle (iOS SDK, AU1, tracking)"),
    Entry(pattern: "identity.mparticle.com", sdk: "mParticle (Android SDK, IDSync)"),
    Entry(pattern: "identity.us1.mparticle.com", sdk: "mParticle (iOS SDK, IDSync, US1)"),
    Entry(pattern: "tracking-identity.us1.mparticle.com", sdk: "mParticle (iOS SDK, IDSync, US1, tracking)"),
    Entry(pattern: "identity.us2.mparticle.com", sdk: "mParticle (iOS SDK, IDSync, US2)"),
    Entry(pattern: "tracking-identity.us2.mparticle.com", sdk: "mParticle (iOS SDK, IDSync, US2, tracking)"),
    Entry(pattern: "identity.eu1.mparticle.com", sdk: "mParticle (iOS SDK, IDSync, EU1)"),
    Entry(pattern: "tracking-identity.eu1.mparticle.com", sdk: "mParticle (iOS SDK, IDSync, EU1, tracking)"),
    Entry(pattern: "identity.au1.mparticle.com", sdk: "mParticle (iOS SDK, IDSync, AU1)"),
    Entry(pattern: "tracking-identity.au1.mparticle.com", sdk: "mParticle (iOS SDK, IDSync, AU1, tracking)"),
  ]

  /// Hosts added on the command line (RudderStack data planes, self-hosted PostHog, Snowplow
  /// collectors), lowercased.
  public var extra: Set<String>

  /// The built-in hosts plus `extra`.
  public init(extra: [String] = []) {
    self.extra = Set(
      extra.map { host in
        (try? HostName.check(Substring(host), bracketed: false).get()) ?? host.lowercased()
      })
  }

  /// Whether `text` is a plain host name (letters, digits, `-`, `_`, `.`; no port).
  public static func isHostName(_ text: String) -> Bool { hostNameProblem(text) == nil }

  /// Why `text` is no plain host name (``HostName``'s rules; no port, no brackets), or `nil`.
  public static func hostNameProblem(_ text: String) -> HostProblem? {
    if case .failure(let problem) = HostName.check(Substring(text), bracketed: false) { return problem }
    return nil
  }

  /// Whether `host` is intercepted (its fully qualified form, with a trailing dot, too).
  public func contains(_ host: String) -> Bool {
    let host = (host.hasSuffix(".") ? String(host.dropLast()) : host).lowercased()
    if extra.contains(host) { return true }
    return Self.builtIn.contains { entry in
      if entry.pattern.hasPrefix("*.") { return host.hasSuffix(entry.pattern.dropFirst()) }
      return entry.pattern == host
    }
  }
}
