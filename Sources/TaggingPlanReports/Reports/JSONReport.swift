import Foundation
import TaggingPlan
import TagscopeRecording

/// The machine-readable report:
/// `{"meta":{"generated","tool","toolVersion","plan":{"file","name","version"},
/// "recordings":[{"file","formatVersion","app","appVersion","appBuild","device","started"}…]},
/// "violations":[{"seq","severity","rule","tag","provider","message","file","line","time","source",
/// "planFile","planLine","expected","actual"}…],
/// "coverage":{"planned","seen","passed","failing","blocked","notSeen","missing":[…],
/// "items":[{"id","section","tag","screen","provider","planLine","state","rules","reasons","records",
/// "failures","label"}…]},
/// "records":N,"files":[…],"sources":[{"source","records","violations"}…],
/// (with --by-source) "coverageBySource":[{"source","passed","failing","blocked","notSeen",
/// "states":{item id: state},"failures":{item id: {"failures","records","rules","label"}}}…],
/// "problems":[{"file","line","reason"}…],
/// "sequence":{"repeated","backwards","restarts","jumped","anomalies":[{"file","line","reason"}…]}}`.
///
/// `file`, `line` (in the recording), `time` and `source` say where the record is (null when the
/// report was built from records in memory, `source` null for records without one); `expected`
/// is what the plan expected (the call's provider, name, method and params, `call` null where the
/// plan says `none`, or the property's constraints in JSON Schema words, or the allowed screens;
/// null for an unplanned tag) and
/// `actual` what the record carried (the provider's status and calls, or the property's value,
/// or the screen). `provider`, `planLine` are null when none; `state` is `passed` (every record passed
/// it), `failing` (any record broke it: `failures` of `records`, with `rules`), `blocked` (with `reasons`) or `not-seen`; `missing` lists the items never
/// seen (not seen or blocked); `problems` are the unreadable lines, skipped; `sequence` counts the
/// records whose `seq` repeats or goes backwards within their source, listing the first ones.
/// `meta` (left out of a report built from records in memory) says when the report was made
/// (`generated`, ISO 8601 UTC), by which tagscope, against which plan, and what each recording's
/// header says (`null` where it says nothing; `started` is when recording started).
public enum JSONReport {
  /// The report as one JSON object, ending with a newline.
  public static func render(_ report: ValidationReport) -> String {
    JSONWriter.string(capacity: 4096 + report.violations.count * 512) { write(report, into: &$0) }
  }

  /// Writes the report, as ``render(_:)`` returns it, to `handle` in chunks rather than building
  /// it whole first.
  public static func write(_ report: ValidationReport, to handle: FileHandle) throws {
    let sink: (UnsafeBufferPointer<UInt8>) throws -> Void = { try handle.write(contentsOf: $0) }
    try JSONWriter.stream(to: sink) { write(report, into: &$0) }
  }

  private static func write(_ report: ValidationReport, into out: inout JSONWriter) {
    out.escapesLineSeparators = true
    // Each violation's site, found walking the sites beside the violations (not an array of them
    // all: the report streams in memory independent of its violations).
    var site = 0
    var fragments = ViolationFragments()
    out.openObject()
    if let meta = report.meta {
      out.key("meta", first: true)
      write(meta, into: &out)
    }
    out.key("violations", first: report.meta == nil)
    let sites = report.sites
    out.array(report.violations.indices) { out, index in
      while site + 1 < sites.count && sites[site + 1].firstViolation <= index { site += 1 }
      let place = site < sites.count && sites[site].firstViolation <= index ? Place(sites[site]) : nil
      fragments.write(report.violations[index], at: place, into: &out)
    }
    writeTail(report, into: &out)
  }

  /// What follows the `"violations"` array, from `,"coverage":` to the report's closing `}` and
  /// newline.
  static func writeTail(_ report: ValidationReport, into out: inout JSONWriter) {
    out.key("coverage")
    write(report.coverage, into: &out)
    out.key("records")
    out.int(report.records)
    out.key("files")
    out.stringArray(report.files)
    out.key("sources")
    out.array(report.sources) { out, total in
      out.object { out in
        out.key("source", first: true)
        out.string(orNull: total.source)
        out.key("records")
        out.int(total.records)
        out.key("violations")
        out.int(total.violations)
      }
    }
    if let bySource = report.coverageBySource {
      out.key("coverageBySource")
      out.array(bySource) { out, entry in write(entry.coverage, of: entry.source, into: &out) }
    }
    out.key("problems")
    write(report.problems, into: &out)
    out.key("sequence")
    out.object { out in
      out.key("repeated", first: true)
      out.int(report.sequence.repeated)
      out.key("backwards")
      out.int(report.sequence.backwards)
      out.key("restarts")
      out.int(report.sequence.restarts)
      out.key("jumped")
      out.int(report.sequence.jumped)
      out.key("anomalies")
      write(report.sequenceAnomalies, into: &out)
    }
    if let delivery = report.delivery {
      out.key("delivery")
      write(delivery, into: &out)
    }
    out.closeObject()
    out.byte(UInt8(ascii: "\n"))
  }

  /// `{"generated","tool","toolVersion","plan":{…},"recordings":[…]}`.
  static func write(_ meta: ReportMeta, into out: inout JSONWriter) {
    out.object { out in
      out.key("generated", first: true)
      out.timestamp(meta.generatedMilliseconds)
      out.key("tool")
      out.string("tagscope")
      out.key("toolVersion")
      out.string(meta.toolVersion)
      out.key("plan")
      out.object { out in
        out.key("file", first: true)
        out.string(meta.planFile)
        out.key("name")
        out.string(meta.planName)
        out.key("version")
        out.string(orNull: meta.planVersion)
      }
      out.key("recordings")
      out.array(meta.recordings) { out, recording in
        out.object { out in
          out.key("file", first: true)
          out.string(recording.file)
          out.key("formatVersion")
          out.int(recording.formatVersion)
          out.key("app")
          out.string(orNull: recording.app)
          out.key("appVersion")
          out.string(orNull: recording.appVersion)
          out.key("appBuild")
          out.string(orNull: recording.appBuild)
          out.key("device")
          out.string(orNull: recording.device)
          out.key("started")
          if let started = recording.startedMilliseconds { out.timestamp(started) } else { out.raw("null") }
        }
      }
    }
  }

  /// `{"source","passed","failing","blocked","notSeen","states":{item id: state},
  /// "failures":{item id: {"failures","records","rules","label"}}}`: `failures` holds the
  /// source's failing items, with how many of its records broke each, as the coverage words it.
  private static func write(_ coverage: Coverage, of source: String, into out: inout JSONWriter) {
    let counts = coverage.stateCounts
    out.object { out in
      out.key("source", first: true)
      out.string(source)
      write(counts, into: &out)
      out.key("states")
      out.object { out in
        for index in coverage.items.indices {
          out.key(coverage.items[index].id, first: index == 0)
          out.string(coverage.state(at: index).kind.rawValue)
        }
      }
      out.key("failures")
      out.object { out in
        var first = true
        for index in coverage.items.indices {
          guard case .failing(let rules, let broken, let records) = coverage.state(at: index) else {
            continue
          }
          out.key(coverage.items[index].id, first: first)
          first = false
          out.object { out in
            out.key("failures", first: true)
            out.int(broken)
            out.key("records")
            out.int(records)
            out.key("rules")
            out.array(rules) { $0.string($1.rawValue) }
            out.key("label")
            out.string(coverage.state(at: index).description)
          }
        }
      }
    }
  }

  /// `[{"file","line","reason"}…]`.
  private static func write(_ lines: [RecordingProblem], into out: inout JSONWriter) {
    out.array(lines) { out, problem in
      out.object { out in
        out.key("file", first: true)
        out.string(problem.file)
        out.key("line")
        out.int(problem.line)
        out.key("reason")
        out.string(problem.message)
      }
    }
  }
}
