import Foundation
import TagscopeRecording

/// Which records the Events list shows. Every condition set must hold; an empty filter keeps all.
public struct TimelineFilter: Sendable, Hashable {
  /// How a record's name is matched.
  public enum NameMatch: Sendable, Hashable {
    /// Is the text, ignoring case.
    case exact(String)
    /// Contains the text, ignoring case.
    case substring(String)
    /// Matches the regular expression (ICU syntax) somewhere.
    case regex(String)
  }

  /// Keep only these kinds.
  public var kinds: Set<RecordKind>?
  /// Keep only names matching every one of these.
  public var names: [NameMatch]
  /// Keep only matching names (the first of ``names``; setting it replaces them).
  public var name: NameMatch? {
    get { names.first }
    set { names = newValue.map { [$0] } ?? [] }
  }
  /// Keep only records with an output for this provider, any case (with ``status``: that
  /// provider's status). The index tracks the first 32 providers seen; a later one matches nothing.
  public var provider: String?
  /// Keep only records where a provider (or ``provider``) has this status (sent, dropped,
  /// blocked, failed).
  public var status: OutputStatus?
  /// Keep only records with an output for a provider matching every one of these (with
  /// ``status``: that provider's status).
  public var providerMatches: [NameMatch] = []
  /// Keep only records whose `source` contains this text, any case.
  public var source: String?
  /// Keep only records whose `source` matches every one of these.
  public var sourceMatches: [NameMatch] = []
  /// Keep only records with (`true`) or without (`false`) rule or plan violations.
  public var violations: Bool?
  /// Keep only records with (`true`) or without (`false`) hub issues.
  public var issues: Bool?

  /// A filter; every condition is optional.
  public init(
    kinds: Set<RecordKind>? = nil, name: NameMatch? = nil, provider: String? = nil,
    status: OutputStatus? = nil,
    source: String? = nil, violations: Bool? = nil, issues: Bool? = nil
  ) {
    self.kinds = kinds
    self.names = name.map { [$0] } ?? []
    self.provider = provider
    self.status = status
    self.source = source
    self.violations = violations
    self.issues = issues
  }

  /// Whether nothing is filtered.
  public var isEmpty: Bool {
    kinds == nil && names.isEmpty && provider == nil && providerMatches.isEmpty && status == nil
      && source == nil && sourceMatches.isEmpty && violations == nil && issues == nil
  }

  /// Checks the filter (a regular expression that does not compile), for showing it as invalid
  /// while the user types.
  public func validate() throws(TimelineFilterError) {
    for case .regex(let pattern) in names + providerMatches + sourceMatches {
      _ = try NameMatcher(regex: pattern)
    }
  }
}

/// A filter that cannot be applied.
public enum TimelineFilterError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The name pattern is not a valid regular expression.
  case invalidRegex(pattern: String, reason: String)
  /// The status is not one of sent, dropped, blocked, failed.
  case unknownStatus(String)

  public var description: String {
    switch self {
    case .invalidRegex(let pattern, let reason): return "invalid regular expression '\(pattern)': \(reason)"
    case .unknownStatus(let word): return "unknown status '\(word)': use sent, dropped, blocked or failed"
    }
  }
}

/// Matches names by substring or regular expression (linear time, like plan patterns).
struct NameMatcher {
  private let regex: LinearPattern?
  private let needle: String?
  private let whole: Bool

  init(substring: String, whole: Bool = false) {
    needle = substring
    // Linear in the name, however long the needle (a plain search is not).
    regex = whole ? nil : LinearPattern.cachedLiteral(substring)
    self.whole = whole
  }

  init(regex pattern: String) throws(TimelineFilterError) {
    do { regex = try LinearPattern.cached(pattern) } catch {
      throw .invalidRegex(pattern: pattern, reason: error.description)
    }
    needle = nil
    whole = false
  }

  init(_ match: TimelineFilter.NameMatch) throws(TimelineFilterError) {
    switch match {
    case .exact(let text): self.init(substring: text, whole: true)
    case .substring(let text): self.init(substring: text)
    case .regex(let pattern): try self.init(regex: pattern)
    }
  }

  func matches(_ name: String) -> Bool {
    if let needle, whole { return name.caseInsensitiveCompare(needle) == .orderedSame }
    if let regex { return regex.matches(name) }
    guard let needle else { return true }
    return needle.isEmpty || name.range(of: needle, options: .caseInsensitive) != nil
  }
}
