import TaggingPlan
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

    /// Where `site` is.
    init(_ site: RecordSite) {
      self.init(
        file: site.file, line: site.line, timeMilliseconds: site.timeMilliseconds, source: site.source)
    }
  }

  /// `violations` as the report's `"violations"` array, each with its place (`places` aligned
  /// with `violations`; missing parts are null), for the query API.
  public static func violationsArray(_ violations: [PlanViolation], places: [Place?]) -> String {
    JSONWriter.string(capacity: 256 + violations.count * 512) { out in
      out.escapesLineSeparators = true
      out.array(violations.indices) { out, index in
        write(violations[index], at: index < places.count ? places[index] : nil, into: &out)
      }
    }
  }

  /// `coverage` as the report's `"coverage"` object (counts by state, `missing`, `items`).
  public static func coverageObject(_ coverage: Coverage) -> String {
    JSONWriter.string(capacity: 256 + coverage.planned * 256) { out in
      out.escapesLineSeparators = true
      write(coverage, into: &out)
    }
  }

  /// One violation of the `"violations"` array.
  static func write(_ violation: PlanViolation, at place: Place?, into out: inout JSONWriter) {
    out.object { out in
      out.key("seq", first: true)
      out.unsigned(violation.seq)
      writeShared(head: violation, into: &out)
      writePlace(place, into: &out)
      writeShared(tail: violation, into: &out)
    }
  }

  /// `,"severity",…,"message"`: what identical records' violations share, before the place.
  static func writeShared(head violation: PlanViolation, into out: inout JSONWriter) {
    out.key("severity")
    out.string(violation.severity.rawValue)
    out.key("rule")
    out.string(violation.rule.rawValue)
    out.key("tag")
    out.string(violation.tag)
    out.key("provider")
    out.string(orNull: violation.provider)
    out.key("message")
    out.string(violation.message)
  }

  /// `,"file","line","time","source"`: where the record is.
  static func writePlace(_ place: Place?, into out: inout JSONWriter) {
    out.key("file")
    out.string(orNull: place?.file)
    out.key("line")
    out.int(orNull: place?.line)
    out.key("time")
    if let time = place?.timeMilliseconds { out.timestamp(time) } else { out.raw("null") }
    out.key("source")
    out.string(orNull: place?.source)
  }

  /// `,"planFile","planLine","expected","actual"`: what identical records' violations share,
  /// after the place.
  static func writeShared(tail violation: PlanViolation, into out: inout JSONWriter) {
    out.key("planFile")
    out.string(orNull: violation.planFile)
    out.key("planLine")
    out.int(orNull: violation.planLine)
    out.key("expected")
    if let evidence = violation.evidence { evidence.writeExpected(into: &out) } else { out.raw("null") }
    out.key("actual")
    if let evidence = violation.evidence { evidence.writeActual(into: &out) } else { out.raw("null") }
  }

  /// The `"coverage"` object.
  static func write(_ coverage: Coverage, into out: inout JSONWriter) {
    let counts = coverage.stateCounts
    out.object { out in
      out.key("planned", first: true)
      out.int(coverage.planned)
      out.key("seen")
      out.int(coverage.seenCount)
      write(counts, into: &out)
      out.key("missing")
      out.array(coverage.missing) { out, item in out.string(item.id) }
      out.key("items")
      out.array(coverage.items.indices) { out, index in write(coverage, item: index, into: &out) }
    }
  }

  /// The `"passed"`, `"failing"`, `"blocked"` and `"notSeen"` members of a coverage object.
  static func write(_ counts: CoverageCounts, into out: inout JSONWriter) {
    out.key("passed")
    out.int(counts.passed)
    out.key("failing")
    out.int(counts.failing)
    out.key("blocked")
    out.int(counts.blocked)
    out.key("notSeen")
    out.int(counts.notSeen)
  }

  /// `{"id","section","tag","screen","provider","planLine","state","rules","reasons","records","failures",
  /// "label"}`: `label` is the state as every report words it (`failing · 3 of 5 broke it (wrong-name)`).
  private static func write(_ coverage: Coverage, item index: Int, into out: inout JSONWriter) {
    let item = coverage.items[index]
    let state = coverage.state(at: index)
    out.object { out in
      out.key("id", first: true)
      out.string(item.id)
      out.key("section")
      out.string(item.sectionKey)
      out.key("tag")
      out.string(item.tag)
      out.key("screen")
      out.string(orNull: item.screen)
      out.key("provider")
      out.string(orNull: item.provider)
      out.key("planLine")
      out.int(item.location.line)
      out.key("state")
      out.string(state.kind.rawValue)
      out.key("rules")
      if case .failing(let rules, _, _) = state {
        out.array(rules) { $0.string($1.rawValue) }
      } else {
        out.raw("[]")
      }
      out.key("reasons")
      if case .blocked(let reasons) = state { out.stringArray(reasons) } else { out.raw("[]") }
      out.key("records")
      out.int(coverage.counts[index])
      out.key("failures")
      out.int(coverage.failures[index])
      out.key("label")
      out.string(state.description)
    }
  }
}
