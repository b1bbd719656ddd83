import TagscopeRecording

extension JSONReport {
  /// Where a violation's record is, when known: the recording's file and line, the record's time
  /// and source.
  public struct Place: Sendable, Hashable {
    public var file: String?
    public var line: Int?
    public var timeMilliseconds: Int64?
    public var source: String?

    /// A place; every part is optional.
    public init(file: String? = nil, line: Int? = nil, timeMilliseconds: Int64? = nil, source: String? = nil)
    {
      self.file = file
      self.line = line
      self.timeMilliseconds = timeMilliseconds
      self.source = source
    }
  }

  /// `violations` as the report's `"violations"` array, each with its place (`places` aligned
  /// with `violations`; missing parts are null), for the query API.
  public static func violationsArray(_ violations: [PlanViolation], places: [Place?]) -> String {
    var out = "["
    for (index, violation) in violations.enumerated() {
      if index > 0 { out += "," }
      out += "{\"seq\":\(violation.seq),\"severity\":\"\(violation.severity.rawValue)\""
      out += ",\"rule\":\"\(violation.rule.rawValue)\",\"tag\":"
      appendString(violation.tag, to: &out)
      out += ",\"provider\":" + (violation.provider.map(string) ?? "null")
      out += ",\"message\":"
      appendString(violation.message, to: &out)
      let place = index < places.count ? places[index] : nil
      out += ",\"file\":" + (place?.file.map(string) ?? "null")
      out += ",\"line\":" + (place?.line.map(String.init) ?? "null")
      out +=
        ",\"time\":"
        + (place?.timeMilliseconds.map { "\"\(ISO8601Timestamp.string(milliseconds: $0))\"" } ?? "null")
      out += ",\"source\":" + (place?.source.map(string) ?? "null")
      out += ",\"planFile\":" + (violation.planFile.map(string) ?? "null")
      out += ",\"planLine\":" + (violation.planLine.map(String.init) ?? "null")
      out += ",\"expected\":"
      if let evidence = violation.evidence { evidence.appendExpected(to: &out) } else { out += "null" }
      out += ",\"actual\":"
      if let evidence = violation.evidence { evidence.appendActual(to: &out) } else { out += "null" }
      out += "}"
    }
    return out + "]"
  }

  /// `coverage` as the report's `"coverage"` object (counts by state, `missing`, `items`).
  public static func coverageObject(_ coverage: Coverage) -> String {
    let counts = coverage.stateCounts
    var out = "{\"planned\":\(coverage.planned),\"seen\":\(coverage.seenCount)"
    out += ",\"passed\":\(counts.passed),\"failing\":\(counts.failing),\"blocked\":\(counts.blocked)"
    out += ",\"notSeen\":\(counts.notSeen),\"missing\":["
    out += coverage.missing.map { string($0.id) }.joined(separator: ",")
    out += "],\"items\":["
    for (index, item) in coverage.items.enumerated() {
      if index > 0 { out += "," }
      let state = coverage.state(at: index)
      out += "{\"id\":" + string(item.id) + ",\"section\":\"\(item.sectionKey)\",\"tag\":" + string(item.tag)
      out += ",\"screen\":" + (item.screen.map(string) ?? "null")
      out += ",\"provider\":" + (item.provider.map(string) ?? "null")
      out += ",\"planLine\":\(item.location.line),\"state\":\"\(state.kind.rawValue)\",\"rules\":["
      if case .failing(let rules) = state { out += rules.map { "\"\($0.rawValue)\"" }.joined(separator: ",") }
      out += "],\"reasons\":["
      if case .blocked(let reasons) = state { out += reasons.map(string).joined(separator: ",") }
      out += "],\"records\":\(coverage.counts[index]),\"failures\":\(coverage.failures[index])}"
    }
    return out + "]}"
  }
}
