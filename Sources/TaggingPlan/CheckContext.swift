import AnalyticsHub
import TagscopeInspector

/// The checks of one record against its plan entry, accumulating violations.
struct CheckContext {
  let record: Record
  let entry: PlanEntry
  /// `playPodcast on favorites`.
  let place: String
  let tagItem: Int
  var violations: [PlanViolation]

  private mutating func add(
    _ rule: ViolationRule, provider: String? = nil, line: Int, item: Int?, _ message: String
  ) {
    violations.append(
      PlanViolation(
        seq: record.seq, severity: entry.severity, rule: rule, tag: record.name, provider: provider,
        message: "\(place): \(message)", planLine: line, coverageItem: item))
  }

  /// Required, typed and constrained properties; properties the entry does not list.
  mutating func checkProperties(memo: inout PatternMemo) {
    guard let rules = entry.properties else { return }
    for rule in rules {
      let line = rule.location.line
      guard let value = record.properties[rule.name], value != .null else {
        if rule.required {
          add(.missingProperty, line: line, item: tagItem, "property \(rule.name) is missing, plan line \(line) requires it")
        }
        continue
      }
      if let problem = rule.problem(with: value, memo: &memo) {
        add(problem.rule, line: line, item: tagItem, "property \(rule.name) \(problem.found), plan line \(line) \(problem.expected)")
      }
    }
    let isStop = record.kind == .timedStop
    for (key, _) in record.properties where !rules.contains(where: { $0.name == key }) {
      if isStop && (key == "duration" || key == "cancelled") { continue }
      let line = entry.propertiesLocation?.line ?? entry.location.line
      let planned = rules.isEmpty ? "no property" : rules.map(\.name).joined(separator: ", ")
      add(.unexpectedProperty, line: line, item: tagItem, "property \(key) is not planned, plan line \(line) lists \(planned)")
    }
  }

  /// The screen the tag happened on, against the entry's `screens`.
  mutating func checkScreen() {
    guard let screens = entry.screens else { return }
    if let screen = record.context.screen, screens.contains(screen) { return }
    let line = entry.screensLocation?.line ?? entry.location.line
    let found = record.context.screen.map { "happened on \($0)" } ?? "happened with no current screen"
    add(.wrongScreen, line: line, item: tagItem, "\(record.name) \(found), plan line \(line) allows only \(screens.joined(separator: ", "))")
  }

  /// One expected call (or `none`) against what the provider received.
  mutating func check(_ expected: ExpectedCall, output: ProviderOutput, item: Int?, memo: inout PatternMemo) {
    let provider = output.provider
    let line = expected.location.line
    let received = output.status == .dropped || output.status == .blocked ? [] : output.calls
    if expected.isNone {
      guard !received.isEmpty else { return }
      add(
        .unexpectedCall, provider: provider, line: line, item: item,
        "\(provider) got \(Self.names(received)), plan line \(line) expects no call")
      return
    }
    if output.status == .failed {
      let reason = output.reason.map { " (\($0))" } ?? ""
      add(
        .missingCall, provider: provider, line: line, item: item,
        "\(provider) failed\(reason), plan line \(line) expects \(expected.label)")
      return
    }
    guard !received.isEmpty else {
      add(
        .missingCall, provider: provider, line: line, item: item,
        "\(provider) got no call (\(output.status.rawValue)), plan line \(line) expects \(expected.label)")
      return
    }
    guard let call = received.first(where: expected.identifies) else {
      add(
        .wrongName, provider: provider, line: line, item: item,
        "\(provider) got \(Self.names(received)), plan line \(line) expects \(expected.label)")
      return
    }
    for param in expected.params {
      let paramLine = param.location.line
      let callName = call.name ?? call.method
      guard let value = call.parameters[param.name] else {
        add(
          .missingParam, provider: provider, line: paramLine, item: item,
          "\(provider) \(callName) has no parameter \(param.name), plan line \(paramLine) expects it")
        continue
      }
      switch param.expectation {
      case .present:
        break
      case .value(let planned):
        if !PropertyRule.same(planned, value) {
          add(
            .invalidValue, provider: provider, line: paramLine, item: item,
            "\(provider) \(callName) parameter \(param.name) is \(PropertyRule.quoted(value)), plan line \(paramLine) expects \(PropertyRule.quoted(planned))"
          )
        }
      case .constrained(let rule):
        if let problem = rule.problem(with: value, memo: &memo) {
          add(
            problem.rule, provider: provider, line: paramLine, item: item,
            "\(provider) \(callName) parameter \(param.name) \(problem.found), plan line \(paramLine) \(problem.expected)")
        }
      }
    }
  }

  /// `play_podcast_from_podcasts`, `logEvent a, setUserProperty b`: the calls received, by name.
  static func names(_ calls: [CallDescription]) -> String {
    calls.map { $0.name ?? $0.method }.joined(separator: ", ")
  }
}
