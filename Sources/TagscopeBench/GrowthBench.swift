import Foundation
import TaggingPlan
import TaggingPlanImport
import TaggingPlanReports

/// Issue 31's "reports that grow too fast": each report rendered from recordings of 10k, 20k and
/// 40k records, each with a tag name of its own that the plan does not know (one unplanned-tag
/// violation and one group per record), in CPU seconds (best of `GROWTH_BENCH_RUNS`, 3). The figure
/// is the ratio 40k/10k (≈ 4 when linear; the HTML report was quadratic: 9.2 s at 10k, > 300 s at
/// 40k) over the JUnit report's ratio measured in the same run (≈ 1 when they grow alike).
enum GrowthBench {
  static let sizes = [10_000, 20_000, 40_000]
  static let plan = """
    plan: Growth
    version: 1
    actions:
      playPodcast:
        properties:
          podcast_title: {type: string, required: true}
    """

  static func run(_ report: inout BenchReport) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-growth-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let runs = ProcessInfo.processInfo.environment["GROWTH_BENCH_RUNS"].flatMap(Int.init) ?? 3
    let loaded = try PlanLoader.load(yaml: plan, file: "growth.yaml")
    var html: [Double] = []
    var junit: [Double] = []
    for size in sizes {
      let url = directory.appendingPathComponent("distinct-\(size).jsonl")
      try Data(recording(distinctTags: size).utf8).write(to: url)
      let validated = try ValidateRunner.validate(plan: loaded, recordings: [url.path])
      var htmlTime = PlanTiming()
      var junitTime = PlanTiming()
      for _ in 0..<max(1, runs) {
        htmlTime.keepBest(PlanTiming.measure { _ = HTMLReport.render(validated, failOn: .error) })
        junitTime.keepBest(PlanTiming.measure { _ = JUnitReport.render(validated, failOn: .error) })
      }
      html.append(htmlTime.cpu)
      junit.append(junitTime.cpu)
      report.add(
        "growth.html.\(size / 1000)k", htmlTime.cpu, unit: "s",
        baseline: "HTML report of \(validated.violations.count) violations, \(size) distinct tag names")
    }
    let htmlRatio = html[2] / html[0]
    let junitRatio = junit[2] / junit[0]
    report.add(
      "growth.html.ratio_40k_10k", htmlRatio, unit: "x",
      baseline: "HTML report CPU 40k/10k distinct tags (linear ≈ 4, plus the cache misses of larger tables)")
    report.add(
      "growth.html.vs_junit", htmlRatio / junitRatio, unit: "x",
      baseline: "the HTML ratio over the JUnit report's in the same run ("
        + String(format: "%.2f, %.3f s at 40k", junitRatio, junit[2]) + "); quadratic grouping measured 2.54",
      atMost: 2)
    try imports(&report, referring: .pointer)
  }

  /// How each event's `p` gets the `q` of the event before.
  enum Reference: String {
    /// Repeats it.
    case inline
    /// `{"$ref": "#/$defs/e…/properties/q"}`.
    case pointer = "ref"
    /// `{"$ref": "#q…"}`, the `q` carrying `"$anchor": "q…"`.
    case anchor
  }

  /// Import CPU of `$defs` of 5k, 10k and 20k events each referring to another (`GROWTH_IMPORT_EVENTS`
  /// to change), `reference` against inline: the ratio stays flat when resolution is linear.
  static func imports(_ report: inout BenchReport, referring reference: Reference) throws {
    let sizes =
      ProcessInfo.processInfo.environment["GROWTH_IMPORT_EVENTS"].map {
        $0.split(separator: ",").compactMap { Int($0) }
      }
      ?? [5_000, 10_000, 20_000]
    var ratios: [Double] = []
    for size in sizes {
      var seconds: [Double] = []
      for kind in [reference, .inline] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
          "tagscope-growth-\(getpid())-\(size)-\(kind.rawValue).json")
        try Data(schemaEvents(size, referring: kind).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let timing = try PlanTiming.measure {
          let plan = try PlanImporter.run(
            paths: [file.path], options: ImportOptions(format: .jsonschema, provider: "amplitude"))
          guard plan.catalogue.calls.count == size else { throw BenchError("the import lost events") }
        }
        seconds.append(timing.cpu)
      }
      ratios.append(seconds[0] / seconds[1])
      report.add(
        "growth.import_\(reference.rawValue).\(size)", seconds[0], unit: "s",
        baseline:
          "plan import of \(size) JSON Schema events with a $ref \(reference == .anchor ? "to an $anchor " : "")each; inline: \(String(format: "%.2f", seconds[1])) s"
      )
    }
    if let first = ratios.first, let last = ratios.last {
      report.add(
        "growth.import_\(reference.rawValue).ratio", last, unit: "x",
        baseline:
          "\(reference == .anchor ? "$anchor" : "$ref") vs inline import CPU at \(sizes.last ?? 0) events (at \(sizes.first ?? 0): \(String(format: "%.2f", first)))",
        atMost: 1.5)
    }
  }

  /// A `$defs` of `count` event schemas, each with a property `q` and a property `p` that refers
  /// to the `q` of the event before (by pointer or anchor) or repeats it inline.
  static func schemaEvents(_ count: Int, referring reference: Reference) -> String {
    var text = #"{"$defs": {"#
    for index in 0..<count {
      if index > 0 { text += ", " }
      let before = (index + count - 1) % count
      let property: String
      switch reference {
      case .inline: property = #"{"type": "integer", "maximum": \#(before)}"#
      case .pointer: property = ##"{"$ref": "#/$defs/e\##(before)/properties/q"}"##
      case .anchor: property = ##"{"$ref": "#q\##(before)"}"##
      }
      let anchor = reference == .anchor ? ##""$anchor": "q\##(index)", "## : ""
      text +=
        #""e\#(index)": {"type": "object", "properties": {"q": {\#(anchor)"type": "integer", "maximum": \#(index)}, "#
        + #""p": \#(property)}}"#
    }
    return text + "}}"
  }

  /// A recording of `count` records, each a user action with a name of its own.
  static func recording(distinctTags count: Int) -> String {
    var text = #"{"format":"tagscope-recording","version":1,"app":"Growth","device":"bench"}"# + "\n"
    for index in 0..<count {
      text +=
        #"{"seq":\#(index + 1),"time":"2026-11-25T10:00:00.000Z","kind":"userAction","name":"tag_\#(index)","#
        + #""properties":{"x":1}}"# + "\n"
    }
    return text
  }
}
