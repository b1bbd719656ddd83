import AnalyticsHub
import TagscopeRecording
import TagscopeTimeline

/// An event-list filter typed after `/`: space-separated terms, all of which must match. It only
/// parses; the timeline's ``TimelineFilter`` does the matching.
///
/// `kind:screen`, `name:play` (substring, any case; a bare word means the same), `provider:braze`,
/// `status:blocked` (with `provider:` both apply to the same provider's output), `has:violations`,
/// `has:issues`, `source:iphone` (substring of the device/connection, any case).
public struct Filter: Sendable, Hashable {
  /// What the timeline matches.
  public var timeline = TimelineFilter()

  /// The `source:` term, lowercased (the `s` key cycles it).
  public var source: String? { timeline.source }

  /// Why a filter text is invalid, naming the term.
  public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }

  /// Parses filter text; an empty text is a filter matching everything.
  public static func parse(_ text: String) -> Result<Filter, ParseError> {
    var filter = TimelineFilter()
    for term in text.split(separator: " ", omittingEmptySubsequences: true) {
      guard let colon = term.firstIndex(of: ":") else {
        filter.names.append(.substring(term.lowercased()))
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
        filter.kinds = (filter.kinds ?? []).union([RecordKind(rawValue: kind.rawValue)])
      case "name": filter.names.append(.substring(value.lowercased()))
      case "provider": filter.provider = value.lowercased()
      case "status":
        let status = OutputStatus(rawValue: value.lowercased())
        guard status.isKnown else {
          return .failure(ParseError(message: "unknown status \"\(value)\" (sent, dropped, blocked, failed)"))
        }
        filter.status = status
      case "source": filter.source = value.lowercased()
      case "has":
        switch value.lowercased() {
        case "violations", "violation": filter.violations = true
        case "issues", "issue": filter.issues = true
        default: return .failure(ParseError(message: "unknown has:\(value) (violations, issues)"))
        }
      default:
        return .failure(
          ParseError(message: "unknown key \"\(key):\" (kind, name, provider, status, has, source)"))
      }
    }
    return .success(Filter(timeline: filter))
  }

  /// Whether the filter lets everything through.
  public var isEmpty: Bool { timeline.isEmpty }
}
