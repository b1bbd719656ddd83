import AnalyticsHub
import TaggingPlan
import TagscopeRecording
import TagscopeTimeline

/// The debugger's derived data for a set of records, as the compact JSON a ``SessionPage`` embeds:
/// one string table, eight integers per record, and each distinct screen/session state and record
/// detail once (a long recording repeats the same payloads thousands of times).
///
/// Every text is made visible by the debugger's ``Sanitizer`` (control, bidi and invisible
/// characters as escapes) and written as a JSON string whose `<`, `>`, `&`, U+2028 and U+2029 are
/// `\u` escapes, so nothing in it can end the `<script>` element that carries it.
struct SessionData {
  /// Integers per record in ``rows``: number, milliseconds after ``start``, kind, name (string
  /// table), marks (violations × 2 + 1 with hub issues), status marks (string table), state, detail.
  static let rowWidth = 8
  /// Scalars kept of one value (longer text ends with `…`), as the debugger's panes keep.
  static let valueLimit = 2_000

  private(set) var strings: [String] = []
  private var stringIndex: [String: Int] = [:]
  private(set) var states: [String] = []
  private var stateIndex: [String: Int] = [:]
  private(set) var details: [String] = []
  private var detailIndex: [String: Int] = [:]
  private(set) var rows: [Int] = []
  /// The first record's time, milliseconds since 1970.
  private(set) var start: Int64?
  /// Records that could not be read, with why (their rows say so too).
  private(set) var unreadable: [String] = []

  /// The rows of the records at `positions` of `source`, with each one's state, outputs, plan
  /// findings and expected-vs-got comparisons as the debugger shows them; with a `redactor`, each
  /// record's personal data replaced (``Redactor``) before it is shown.
  init(source: any TimelineSource, positions: [Int], providers: [String], redactor: inout Redactor?) {
    rows.reserveCapacity(positions.count * Self.rowWidth)
    for position in positions {
      guard let summary = source.summaries(in: position..<(position + 1)).first else { continue }
      let record: Record
      switch source.record(at: position) {
      case .success(let read): record = Self.redacted(read, by: &redactor)
      case .failure(let error):
        unreadable.append("record \(Format.number(position)): \(error.description)")
        add(summary, position: position, providers: providers, state: -1, detail: -1)
        continue
      }
      let violated = summary.hasViolations || record.hasViolations
      let findings = violated ? source.findings(at: position) : []
      let comparisons = violated ? source.comparisons(at: position) : []
      let state = Self.intern(
        Self.state(source.state(at: position)), in: &states, index: &stateIndex)
      let detail = Self.intern(
        Self.detail(record, findings: findings, comparisons: comparisons), in: &details, index: &detailIndex)
      add(summary, position: position, providers: providers, state: state, detail: detail)
    }
  }

  /// `record` with its personal data replaced (as it is without a redactor); were its redacted
  /// line unreadable, the record is kept and the page's final pass over every text
  /// (``SessionPage``) still replaces what its strings hold.
  private static func redacted(_ record: Record, by redactor: inout Redactor?) -> Record {
    guard var active = redactor else { return record }
    defer { redactor = active }
    return active.redact(record: record) ?? record
  }

  private mutating func add(
    _ summary: RecordSummary, position: Int, providers: [String], state: Int, detail: Int
  ) {
    if start == nil { start = summary.timeMilliseconds }
    var marks = ""
    for provider in providers {
      if let output = summary.outputs.first(where: { $0.provider == provider }) {
        marks += FrameView.statusMark(output.status).0.text
      } else {
        marks += " "
      }
    }
    rows += [
      Int(Format.number(position)), Int(summary.timeMilliseconds - (start ?? 0)),
      string(summary.kind.rawValue), string(summary.name),
      summary.violationCount * 2 + (summary.hasIssues ? 1 : 0), string(marks), state, detail,
    ]
  }

  /// The string table's index of `raw`, made safe.
  private mutating func string(_ raw: String) -> Int {
    if let known = stringIndex[raw] { return known }
    strings.append(Self.quoted(raw))
    stringIndex[raw] = strings.count - 1
    return strings.count - 1
  }

  /// The index of `json` in `table`, appended once. Static: a method of `self` would be handed a copy
  /// of `self` that shares `table`, so every append would copy the whole table.
  private static func intern(_ json: String, in table: inout [String], index: inout [String: Int]) -> Int {
    if let known = index[json] { return known }
    table.append(json)
    index[json] = table.count - 1
    return table.count - 1
  }

  // MARK: JSON pieces

  /// Whether a scalar is written as a `\u` escape: what could end or confuse the `<script>` element
  /// the data sits in (`</script>`, `<!--`) and the line separators old scripts choke on.
  static func escapesInScript(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "<" || scalar == ">" || scalar == "&" || scalar == "\u{2028}" || scalar == "\u{2029}"
  }

  /// `raw` made visible (``Sanitizer``) as a JSON string safe inside a `<script>` element.
  static func quoted(_ raw: String) -> String {
    JSONText.quoted(Sanitizer.clean(raw, limit: valueLimit).text, escaping: escapesInScript)
  }

  private static func quoted(_ raw: String?) -> String { raw.map { quoted($0) } ?? "null" }

  private static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

  /// Keys and values alternating: `["title","Swift by Sundell","duration","1830"]`.
  private static func pairs(_ properties: Properties) -> String {
    array(properties.flatMap { [quoted($0.key), quoted($0.value.displayText)] })
  }

  /// `[history, screen inferred (0/1), session, consent, timed events, source]`; a session is
  /// `[state, user, anonymous id, id, properties, id inferred (0/1)]`, a consent decision
  /// `[scope, granted (0/1)]`.
  static func state(_ state: TimelineState?) -> String {
    guard let state else { return "[[],0,null,[],[],null]" }
    var session = "null"
    if let active = state.session {
      var anonymous: String?
      if case .string(let id)? = active.extra["anonymousId"] { anonymous = id }
      session = array([
        quoted(active.state), quoted(active.user), quoted(anonymous), quoted(active.id),
        pairs(active.properties), state.inferred.contains("session") ? "1" : "0",
      ])
    }
    return array([
      array(state.history.map { quoted($0) }), state.inferred.contains("screen") ? "1" : "0", session,
      array(state.consent.map { array([quoted($0.scope), $0.granted ? "1" : "0"]) }),
      array(state.timedEvents.map { quoted($0) }), quoted(state.source),
    ])
  }

  /// `[properties, outputs, plan findings, comparisons, hub issues, event type, source]`: an output
  /// is `[provider, status, reason, calls, violations]`, a call `[method, name, parameters]`, a
  /// violation `[rule, message, consequence, call index or -1]`, a finding `[provider, rule,
  /// message, severity]`, a comparison `[rule, message, title, plan line, rows, others, expected
  /// heading]` with rows `[field, expected, got, differs (0/1)]` and others `[rule, message]`.
  static func detail(_ record: Record, findings: [PlanFinding], comparisons: [Comparison]) -> String {
    let outputs = record.outputs.map { output in
      array([
        quoted(output.provider), quoted(output.status.rawValue), quoted(output.reason),
        array(output.calls.map { array([quoted($0.method), quoted($0.name), pairs($0.parameters)]) }),
        array(
          output.violations.map {
            array([quoted($0.rule), quoted($0.message), quoted($0.consequence), String($0.callIndex ?? -1)])
          }),
      ])
    }
    let found = findings.map {
      array([
        quoted($0.provider), quoted($0.violation.rule), quoted($0.violation.message),
        quoted($0.violation.consequence),
      ])
    }
    let compared = comparisons.map { item in
      array([
        quoted(item.rule), quoted(item.message), quoted(item.expectation.title),
        item.expectation.planLine.map(String.init) ?? "null",
        array(
          item.expectation.rows.map {
            array([quoted($0.field), quoted($0.expected), quoted($0.actual), $0.differs ? "1" : "0"])
          }),
        array(item.others.map { array([quoted($0.rule), quoted($0.message)]) }),
        quoted(item.expectation.expectedHeading),
      ])
    }
    return array([
      pairs(record.properties), array(outputs), array(found), array(compared),
      array(record.issues.map { array([quoted($0.code), quoted($0.message)]) }),
      quoted(record.eventType?.rawValue), quoted(record.source),
    ])
  }
}
