import AnalyticsHub

/// An event-list filter typed after `/`: space-separated terms, all of which must match.
///
/// `kind:screen`, `name:play` (substring, any case; a bare word means the same), `provider:braze`,
/// `status:blocked` (with `provider:` both apply to the same provider's output), `has:violations`,
/// `has:issues`, `source:iphone` (substring of the device/connection, any case).
public struct Filter: Sendable, Hashable {
  public var kinds: [String] = []
  public var names: [String] = []
  public var provider: String?
  public var status: String?
  public var needsViolations = false
  public var needsIssues = false
  public var source: String?

  /// Why a filter text is invalid, naming the term.
  public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }

  static let statuses = ["sent", "dropped", "blocked", "failed"]

  /// Parses filter text; an empty text is a filter matching everything.
  public static func parse(_ text: String) -> Result<Filter, ParseError> {
    var filter = Filter()
    for term in text.split(separator: " ", omittingEmptySubsequences: true) {
      guard let colon = term.firstIndex(of: ":") else {
        filter.names.append(term.lowercased())
        continue
      }
      let key = term[..<colon].lowercased()
      let value = String(term[term.index(after: colon)...])
      if value.isEmpty { return .failure(ParseError(message: "\(key): needs a value")) }
      switch key {
      case "kind":
        guard let kind = TagKind.allCases.first(where: { $0.rawValue.lowercased() == value.lowercased() })
        else {
          let known = TagKind.allCases.map(\.rawValue).joined(separator: ", ")
          return .failure(ParseError(message: "unknown kind \"\(value)\" (\(known))"))
        }
        filter.kinds.append(kind.rawValue)
      case "name": filter.names.append(value.lowercased())
      case "provider": filter.provider = value.lowercased()
      case "status":
        guard statuses.contains(value.lowercased()) else {
          return .failure(ParseError(message: "unknown status \"\(value)\" (sent, dropped, blocked, failed)"))
        }
        filter.status = value.lowercased()
      case "source": filter.source = value.lowercased()
      case "has":
        switch value.lowercased() {
        case "violations", "violation": filter.needsViolations = true
        case "issues", "issue": filter.needsIssues = true
        default: return .failure(ParseError(message: "unknown has:\(value) (violations, issues)"))
        }
      default:
        return .failure(
          ParseError(message: "unknown key \"\(key):\" (kind, name, provider, status, has, source)"))
      }
    }
    return .success(filter)
  }

  /// Whether the filter lets everything through.
  public var isEmpty: Bool {
    kinds.isEmpty && names.isEmpty && provider == nil && status == nil && !needsViolations && !needsIssues
      && source == nil
  }

  /// Whether a record matches.
  public func matches(_ summary: EventSummary) -> Bool {
    if !kinds.isEmpty && !kinds.contains(summary.kind) { return false }
    if !names.isEmpty {
      let name = summary.name.lowercased()
      for part in names where !name.contains(part) { return false }
    }
    if let source, !(summary.source?.lowercased().contains(source) ?? false) { return false }
    if needsViolations && summary.violations == 0 { return false }
    if needsIssues && summary.issues == 0 { return false }
    if provider != nil || status != nil {
      let hit = summary.outputs.contains { output in
        (provider == nil || output.provider.lowercased() == provider)
          && (status == nil || output.status == status)
      }
      if !hit { return false }
    }
    return true
  }
}
