import AnalyticsHub
import TagscopeRecording

/// An event-list filter typed after `/`: space-separated terms that must all match (AND). It only
/// parses; the timeline's ``TimelineFilter`` does the matching, and the effect runner checks the
/// violation terms on the records the timeline let through.
///
/// `key:value` is exact (any case), `key~value` a substring (any case) and `key~/regex/` a regular
/// expression; a bare word is a name substring, a bare `/regex/` a name regex. Values with spaces
/// go in double quotes (`source:"Podcasts@iPhone 15"`). Keys: `kind` (`kind:action` and
/// `kind:userAction` alike; `timed`, `session` name their kinds), `name`, `screen` (the screen the
/// record happened on), `provider` (with
/// `status`: the same provider's status), `status` (sent, dropped, blocked, failed), `source`, `has`
/// (`has:violations`, `has:violations:amplitude`, `has:issues`), `rule` (a violation's rule id or
/// its last part: `rule:wrong-name`, `rule:firebase.event-name-length`), `call` (a call a provider
/// received, by its name or SDK method: `call:"Order Completed"`, `call:identify`). `prop.NAME` and
/// `param.NAME` test a value (see ``ValueTerm``): a tag property or a parameter of any provider
/// call, with `:`, `~` or `>`, `>=`, `<`, `<=` (`prop.sku:A-1`, `param.value>10`, `prop.title~night`).
/// `delivery` (`delivery:lost`, `delivery:queued`) keeps records with a provider call in that
/// delivery state, as the live session's delivery ledger knows it (``deliveryStateWords``).
public struct Filter: Sendable, Hashable {
  /// What the timeline matches.
  public var timeline = TimelineFilter()
  /// Only records with a violation on this provider's output (`has:violations:amplitude`).
  public var violationProvider: String?
  /// Only records with a violation whose rule matches every one of these (`rule:`).
  public var violationRules: [TimelineFilter.NameMatch] = []
  /// Only records whose context's screen matches every one of these (`screen:`).
  public var screens: [TimelineFilter.NameMatch] = []
  /// Only records with, for each of these, a provider call whose name or method matches (`call:`).
  public var calls: [TimelineFilter.NameMatch] = []
  /// Only records with, for each of these, a property or call parameter passing it (`prop.`,
  /// `param.`).
  public var values: [ValueTerm] = []
  /// Only records with, for each of these, a provider call in that delivery state (`delivery:`),
  /// each one of ``deliveryStateWords``.
  public var deliveryStates: [String] = []

  /// The delivery ledger's states, as `delivery:` takes them (any case, `-` and `_` ignored).
  public static let deliveryStateWords = [
    "delivered", "inFlight", "queued", "droppedBySDK", "refused", "lost", "noWireSource", "ambiguous",
  ]

  /// Whether a record whose provider calls are in `states` (``deliveryStateWords``) passes the
  /// `delivery` terms.
  public func acceptsDeliveries(_ states: [String]) -> Bool {
    deliveryStates.allSatisfy { states.contains($0) }
  }

  /// The `source:` or `source~` term's text, lowercased (the `s` key cycles it).
  public var source: String? {
    switch timeline.sourceMatches.first {
    case .exact(let text), .substring(let text), .regex(let text): return text.lowercased()
    case nil: return timeline.source
    }
  }

  /// Whether the violation terms need the records themselves (their violations and plan findings).
  public var checksViolations: Bool { violationProvider != nil || !violationRules.isEmpty }

  /// Whether some terms are checked on the records themselves, not the index (violations,
  /// screen, call, values).
  public var checksRecords: Bool {
    checksViolations || !screens.isEmpty || !calls.isEmpty || !values.isEmpty || !deliveryStates.isEmpty
  }

  /// Whether `record` passes the value terms (`prop.`, `param.`).
  public func acceptsValues(_ record: Record) -> Bool {
    values.allSatisfy { $0.accepts(record) }
  }

  /// Whether `screen` (a record's context screen) passes the `screen` terms.
  public func acceptsScreen(_ screen: String?) -> Bool {
    screens.allSatisfy { match in screen.map { FilterTerms.matcher(match)($0) } ?? false }
  }

  /// Whether `record`'s provider calls pass the `call` terms: each matches some call's name, the
  /// schema name of a call named by an Iglu URI (``IgluSchemaName``), or SDK method.
  public func acceptsCalls(_ record: Record) -> Bool {
    calls.allSatisfy { match in
      let matches = FilterTerms.matcher(match)
      return record.outputs.contains { output in
        output.calls.contains { call in
          guard let name = call.name else { return matches(call.method) }
          return matches(call.method) || matches(name) || IgluSchemaName.of(name).map(matches) == true
        }
      }
    }
  }

  /// Why a filter text is invalid, naming the term.
  public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }

  /// The kind names a `kind` term may use besides the tag kinds themselves.
  static let kindAliases: [String: [TagKind]] = [
    "action": [.userAction], "timed": [.timedStart, .timedStop],
    "session": [.sessionStart, .sessionUpdate, .sessionEnd],
  ]

  /// Parses filter text; an empty text is a filter matching everything.
  public static func parse(_ text: String) -> Result<Filter, ParseError> {
    var filter = Filter()
    let terms: [String]
    switch FilterTerms.split(text) {
    case .success(let split): terms = split
    case .failure(let error): return .failure(error)
    }
    for term in terms {
      if let error = filter.add(term) { return .failure(error) }
    }
    do {
      try filter.timeline.validate()
      // The terms the records themselves answer: their patterns must compile too.
      var patterns = TimelineFilter()
      patterns.names = filter.violationRules + filter.screens + filter.calls
      for case .pattern(let match) in filter.values.map(\.test) { patterns.names.append(match) }
      try patterns.validate()
    } catch { return .failure(ParseError(message: error.description)) }
    return .success(filter)
  }

  /// The keys a term can have (`kind:`…, `prop.NAME:`), as the "unknown key" error lists them and
  /// `tagscope help filter` documents them.
  public static let keys = [
    "kind", "name", "screen", "provider", "status", "source", "has", "rule", "call", "delivery", "prop.NAME",
    "param.NAME",
  ]

  /// Adds one term; returns why it is invalid, if it is.
  private mutating func add(_ term: String) -> ParseError? {
    let lowered = term.lowercased()
    if let scope = [ValueTerm.Scope.property, .parameter].first(where: {
      lowered.hasPrefix($0.rawValue + ".")
    }) {
      switch ValueTerm.parse(term, scope: scope) {
      case .success(let value): values.append(value)
      case .failure(let error): return error
      }
      return nil
    }
    guard let separator = term.firstIndex(where: { $0 == ":" || $0 == "~" }) else {
      timeline.names.append(Self.match(term, exact: false))
      return nil
    }
    let key = term[..<separator].lowercased()
    let exact = term[separator] == ":"
    let value = String(term[term.index(after: separator)...])
    if key.isEmpty && !exact {  // `~play`: a name substring, as a bare word
      timeline.names.append(Self.match(value, exact: false))
      return nil
    }
    if value.isEmpty { return ParseError(message: "\(key)\(term[separator]) needs a value") }
    let match = Self.match(value, exact: exact)
    switch key {
    case "kind": return addKind(match, value: value)
    case "name": timeline.names.append(match)
    case "provider": timeline.providerMatches.append(match)
    case "source": timeline.sourceMatches.append(match)
    case "screen": screens.append(match)
    case "call": calls.append(match)
    case "delivery":
      let wanted = Self.deliveryKey(value)
      guard exact, let state = Self.deliveryStateWords.first(where: { Self.deliveryKey($0) == wanted }) else {
        return ParseError(
          message:
            "unknown delivery state \"\(value)\" (delivery:\(Self.deliveryStateWords.joined(separator: ", ")))"
        )
      }
      deliveryStates.append(state)
    case "rule":
      timeline.violations = true
      violationRules.append(match)
    case "status":
      let status = OutputStatus(rawValue: value.lowercased())
      guard exact, status.isKnown else {
        return ParseError(message: "unknown status \"\(value)\" (status:sent, dropped, blocked, failed)")
      }
      timeline.status = status
    case "has":
      let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
      switch parts[0].lowercased() {
      case "violations", "violation":
        timeline.violations = true
        if parts.count == 2 { violationProvider = parts[1].lowercased() }
      case "issues", "issue": timeline.issues = true
      default:
        return ParseError(
          message: "unknown has:\(value) (has:violations, has:violations:PROVIDER, has:issues)")
      }
    default:
      return ParseError(
        message:
          "unknown key \"\(key)\(term[separator])\" (\(Self.keys.joined(separator: ", ")))"
      )
    }
    return nil
  }

  /// A delivery state word as compared: lowercased, without `-` and `_` (`in-flight`, `inFlight`).
  private static func deliveryKey(_ word: String) -> String {
    word.lowercased().filter { $0 != "-" && $0 != "_" }
  }

  /// `kind:` takes a tag kind or an alias (`action`); `kind~` a part of the kind names. Several
  /// kind terms must all hold, so their kinds intersect.
  private mutating func addKind(_ match: TimelineFilter.NameMatch, value: String) -> ParseError? {
    var kinds: Set<RecordKind> = []
    switch match {
    case .exact(let text):
      if let aliased = Self.kindAliases[text.lowercased()] {
        kinds = Set(aliased.map { RecordKind(rawValue: $0.rawValue) })
      } else if let kind = TagKind.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) {
        kinds = [RecordKind(rawValue: kind.rawValue)]
      } else {
        let known = (TagKind.allCases.map(\.rawValue) + Self.kindAliases.keys.sorted()).joined(
          separator: ", ")
        return ParseError(message: "unknown kind \"\(value)\" (\(known))")
      }
    case .substring, .regex:
      if case .regex(let pattern) = match {
        do { _ = try LinearPattern.cached(pattern) } catch {
          return ParseError(message: "invalid regular expression '\(pattern)': \(error.description)")
        }
      }
      let matcher = FilterTerms.matcher(match)
      kinds = Set(TagKind.allCases.filter { matcher($0.rawValue) }.map { RecordKind(rawValue: $0.rawValue) })
    }
    timeline.kinds = timeline.kinds.map { $0.intersection(kinds) } ?? kinds
    return nil
  }

  /// `value` as an exact match, a substring, or (`/…/`) a regular expression; not exact, an
  /// unclosed `/…` is one to the end of the term, and so is a term anchored with `^` or `$` (typed
  /// after the `/` prompt as in `less` and vim: `/^play`).
  static func match(_ value: String, exact: Bool) -> TimelineFilter.NameMatch {
    if value.count >= 2, value.hasPrefix("/"), value.hasSuffix("/") {
      return .regex(String(value.dropFirst().dropLast()))
    }
    if !exact, value.count >= 2, value.hasPrefix("/") { return .regex(String(value.dropFirst())) }
    if !exact, value.count >= 2, value.hasPrefix("^") || value.hasSuffix("$") { return .regex(value) }
    return exact ? .exact(value) : .substring(value.lowercased())
  }

  /// Whether a violation (its rule id, on `provider`'s output or across the record) passes the
  /// violation terms.
  public func acceptsViolation(rule: String, provider: String?) -> Bool {
    if let violationProvider, provider?.lowercased() != violationProvider { return false }
    return violationRules.allSatisfy { match in
      switch match {
      case .exact(let text):
        let wanted = text.lowercased()
        let id = rule.lowercased()
        return id == wanted || id.hasSuffix("." + wanted)
      case .substring, .regex: return FilterTerms.matcher(match)(rule)
      }
    }
  }

  /// Whether `record` passes the terms the index does not check (``screens``, ``calls``,
  /// ``values``, and the violation terms against the violations on its outputs and `planFindings`,
  /// the plan's `(rule, provider)` on it): what the debugger's effect runner and the query API
  /// check on the records ``timeline`` let through.
  public func acceptsRecord(_ record: Record, planFindings: [(rule: String, provider: String?)] = []) -> Bool
  {
    guard acceptsScreen(record.context.screen), acceptsCalls(record), acceptsValues(record) else {
      return false
    }
    guard checksViolations else { return true }
    if planFindings.contains(where: { acceptsViolation(rule: $0.rule, provider: $0.provider) }) {
      return true
    }
    return record.outputs.contains { output in
      output.violations.contains { acceptsViolation(rule: $0.rule, provider: output.provider) }
    }
  }

  /// Whether the filter lets everything through.
  public var isEmpty: Bool { timeline.isEmpty && !checksRecords }
}
