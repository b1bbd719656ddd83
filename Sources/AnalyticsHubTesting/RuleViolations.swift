import AnalyticsHub
import Foundation

/// A provider rule broken by the calls a mapping made for one tag: the rule's violation with the
/// provider and the tag it happened on.
public struct ObservedViolation: Sendable, Hashable, CustomStringConvertible {
  /// The provider whose rule was broken.
  public var provider: ProviderID
  /// The tag's position in the hub's sequence.
  public var seq: UInt64
  /// The tag's kind.
  public var kind: TagKind
  /// The tag's name.
  public var tag: String
  /// The rule (`firebase.event-name-length`), its sentence and the SDK's consequence.
  public var violation: RuleViolation

  /// A violation seen on a dispatch.
  public init(provider: ProviderID, seq: UInt64, kind: TagKind, tag: String, violation: RuleViolation) {
    self.provider = provider
    self.seq = seq
    self.kind = kind
    self.tag = tag
    self.violation = violation
  }

  /// `#2 userAction playPodcast → firebase: firebase.event-name-length: <the rule's sentence>`.
  public var description: String {
    "#\(seq) \(kind.rawValue) \(tag) → \(provider): \(violation.rule): \(violation.message)"
  }
}

/// Why ``DispatchRecorder/assertNoRuleViolations(provider:)`` failed: every broken rule, one a
/// line, or a hub that does not check rules at all.
public struct RuleViolationFailure: Error, CustomStringConvertible, LocalizedError {
  /// The broken rules, in dispatch order (empty when the hub does not check rules).
  public var violations: [ObservedViolation]
  /// The failure, as a test prints it.
  public var description: String

  /// A failure listing `violations`.
  public init(violations: [ObservedViolation]) {
    self.violations = violations
    let count = violations.count == 1 ? "1 provider rule broken" : "\(violations.count) provider rules broken"
    description = ([count + ":"] + violations.map { "  " + $0.description }).joined(separator: "\n")
  }

  init(uncheckedRules: Void) {
    violations = []
    description =
      "the hub does not check provider rules (HubConfiguration(checksProviderRules: false)), "
      + "so no broken rule can be seen"
  }

  public var errorDescription: String? { description }
}

extension Dispatch {
  /// Every provider rule this tag broke, provider by provider.
  public var observedViolations: [ObservedViolation] {
    outcomes.flatMap { outcome in
      outcome.violations.map {
        ObservedViolation(provider: outcome.provider, seq: seq, kind: kind, tag: name, violation: $0)
      }
    }
  }
}

// No `XCTAssertNoRuleViolations` of our own: importing XCTest here would make every binary that
// links this module (the `tagscope` command, through PodcastDemo) load libXCTest at run time.
extension DispatchRecorder {
  /// Every provider rule broken by the tags dispatched so far, in order.
  public var violations: [ObservedViolation] { dispatches.flatMap(\.observedViolations) }

  /// The rules of `provider` broken so far.
  public func violations(for provider: ProviderID) -> [ObservedViolation] {
    violations.filter { $0.provider == provider }
  }

  /// Throws a ``RuleViolationFailure`` naming each provider, rule and message when a tag dispatched
  /// so far broke a provider's rule (only `provider`'s rules when given), or when the observed hub
  /// does not check rules. In a throwing test (XCTest or Swift Testing) this one line is the
  /// assertion, and the failure prints every broken rule:
  ///
  /// ```swift
  /// try dispatches.assertNoRuleViolations()
  /// XCTAssertNoThrow(try dispatches.assertNoRuleViolations(provider: Vendors.firebase))  // a non-throwing test
  /// ```
  public func assertNoRuleViolations(provider: ProviderID? = nil) throws(RuleViolationFailure) {
    guard checksRules else { throw RuleViolationFailure(uncheckedRules: ()) }
    let found = provider.map { violations(for: $0) } ?? violations
    if !found.isEmpty { throw RuleViolationFailure(violations: found) }
  }
}
