import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanImport
import TagscopeRecording

/// Issue 29's figures: importing an Iglu tree (seconds, and the process's peak memory when the
/// group runs alone: `scripts/bench import`), and what a large catalogue costs per record.
///
/// The tree is generated here, the shape of Iglu Central (679 schemas, a third with several
/// versions): `IGLU_BENCH_SCHEMAS` names (default 1,000), two versions each, eight properties of
/// the kinds Iglu Central uses. Validation runs the same self-describing records (each with one
/// context entity) against the catalogue of all of them and against one of 10 entries (5 names).
enum IgluImportBench {
  static func run(_ report: inout BenchReport) throws {
    let names = ProcessInfo.processInfo.environment["IGLU_BENCH_SCHEMAS"].flatMap(Int.init) ?? 1_000
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-iglu-bench-\(getpid())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let files = try writeTree(names: names, in: directory)
    // `IGLU_BENCH_TREE=DIR` times a real tree too (Iglu Central's `schemas/`), first, so the peak
    // memory is the larger of the two imports.
    if let tree = ProcessInfo.processInfo.environment["IGLU_BENCH_TREE"] {
      var plan: ImportedPlan?
      let timing = try PlanTiming.measure {
        plan = try PlanImporter.run(paths: [tree], options: ImportOptions(format: .iglu))
      }
      report.add(
        "import.iglu.tree.seconds", timing.wall, unit: "s",
        baseline:
          "\(plan?.sources.count ?? 0) schemas of \(tree), \(plan?.catalogue.calls.count ?? 0) entries")
    }
    var imported: ImportedPlan?
    var timing = PlanTiming()
    // The best wall time is what a user waits; the median CPU time is the steadier figure to
    // compare two builds by (a best-of-3 of 0.6 s swung by more than 5% on a quiet machine).
    let runs = max(3, ProcessInfo.processInfo.environment["IGLU_BENCH_RUNS"].flatMap(Int.init) ?? 5)
    var cpu: [Double] = []
    for _ in 0..<runs {
      let run = try PlanTiming.measure {
        imported = try PlanImporter.run(paths: [directory.path], options: ImportOptions(format: .iglu))
      }
      timing.keepBest(run)
      cpu.append(run.cpu)
    }
    report.add(
      "import.iglu.seconds", timing.wall, unit: "s",
      baseline: "\(files) generated schemas (\(names) names × 2 versions), best of \(runs)")
    report.add(
      "import.iglu.cpu_median", cpu.sorted()[cpu.count / 2], unit: "s",
      baseline: "process CPU time per import, median of \(runs) (IGLU_BENCH_RUNS)")
    report.add(
      "import.iglu.peak_rss", Double(ReportBench.peakResidentBytes()) / 1_048_576, unit: "MiB",
      baseline: "peak RSS of the benchmark process (alone with `scripts/bench import`)")
    guard let imported else { return }
    var loaded: Plan?
    let loading = try measureSeconds {
      loaded = try PlanLoader.load(yaml: imported.yaml, file: "iglu-bench.yaml")
    }
    guard let large = loaded else { return }
    report.add(
      "import.iglu.plan_load.seconds", loading, unit: "s",
      baseline:
        "PlanLoader.load of the written plan (\(imported.yaml.utf8.count / 1024) KiB), part of the import")
    let small = try PlanLoader.load(
      yaml: try PlanImporter.run(
        paths: (0..<5).flatMap { index in
          (1...2).map { directory.appendingPathComponent(path(index, version: $0)).path }
        }, options: ImportOptions(format: .iglu)
      ).yaml, file: "iglu-bench-10.yaml")
    let records = (0..<20_000).map { record(seq: UInt64($0), name: $0 % 4) }
    func perRecord(_ plan: Plan) -> Double {
      var best = Double.infinity
      for _ in 0..<3 {
        var validator = PlanValidator(plan: plan)
        var count = 0
        let seconds = measureSeconds {
          for record in records { count += validator.validate(record).count }
        }
        blackHole(count)
        best = min(best, seconds / Double(records.count))
      }
      return best
    }
    let largeCost = perRecord(large)
    let smallCost = perRecord(small)
    // The same plan with `privacy: off`: the checks a plan had before the personal-data check.
    var largeWithoutPrivacy = large
    largeWithoutPrivacy.privacy = PlanPrivacy(scans: false)
    let withoutPrivacyCost = perRecord(largeWithoutPrivacy)
    report.add(
      "validate.catalogue.large.per_record", largeCost * 1e6, unit: "µs",
      baseline: "\(large.catalogues.first?.entries.count ?? 0) entries, event + 1 entity per record")
    report.add(
      "validate.catalogue.small.per_record", smallCost * 1e6, unit: "µs",
      baseline: "\(small.catalogues.first?.entries.count ?? 0) entries, the same records")
    report.add(
      "validate.catalogue.large.no_privacy.per_record", withoutPrivacyCost * 1e6, unit: "µs",
      baseline: "the large plan with `privacy: off` (no personal-data check), the same records")
    report.add(
      "validate.catalogue.privacy_share", 1 - withoutPrivacyCost / largeCost, unit: "",
      baseline: "the personal-data check's share of the large plan's per-record cost")
    report.add(
      "validate.catalogue.large_vs_small", largeCost / smallCost, unit: "×",
      baseline: "per-record cost, large catalogue over small", atMost: 1.5)
  }

  private static func path(_ index: Int, version: Int) -> String {
    "com.bench\(index % 40)/event_\(index)/jsonschema/1-0-\(version - 1)"
  }

  /// Writes `names` × 2 schemas; returns how many.
  private static func writeTree(names: Int, in directory: URL) throws -> Int {
    for index in 0..<names {
      for version in 1...2 {
        let file = directory.appendingPathComponent(path(index, version: version))
        try FileManager.default.createDirectory(
          at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let extra = version == 2 ? #", "note": {"type": ["string", "null"], "maxLength": 255}"# : ""
        let text = """
          {
            "$schema": "http://iglucentral.com/schemas/com.snowplowanalytics.self-desc/schema/jsonschema/1-0-0#",
            "description": "Generated event \(index)",
            "self": {"vendor": "com.bench\(index % 40)", "name": "event_\(index)", "format": "jsonschema", "version": "1-0-\(version - 1)"},
            "type": "object",
            "properties": {
              "id": {"type": "string", "pattern": "^[a-f0-9-]{36}$"},
              "kind": {"type": "string", "enum": ["a", "b", "c"]},
              "count": {"type": "integer", "minimum": 0, "maximum": 2147483647},
              "price": {"type": ["number", "null"], "minimum": 0},
              "label": {"type": "string", "maxLength": 255},
              "flag": {"type": "boolean"},
              "tags": {"type": "array", "items": {"type": "string"}},
              "place": {"type": "object", "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}}}\(extra)
            },
            "required": ["id", "kind", "count"],
            "additionalProperties": false
          }
          """
        try Data(text.utf8).write(to: file)
      }
    }
    return names * 2
  }

  /// A self-describing event of name `name` (version 1-0-1) with a context entity of name
  /// `name + 1`, as `listen` records it.
  private static func record(seq: UInt64, name: Int) -> Record {
    func uri(_ index: Int) -> String { "iglu:com.bench\(index % 40)/event_\(index)/jsonschema/1-0-1" }
    let data: Properties = [
      "id": "0f8fad5b-d9cb-469f-a165-70867728950e", "kind": "b", "count": .int(Int(seq % 100)),
      "price": 9.5, "label": "x", "flag": true, "tags": ["a", "b"], "place": ["lat": 1.5, "lon": 2.5],
    ]
    let parameters: Properties = [
      "e": "ue",
      "unstruct_event": [
        "schema": "iglu:com.snowplowanalytics.snowplow/unstruct_event/jsonschema/1-0-0",
        "data": ["schema": .string(uri(name)), "data": .object(data)],
      ],
      "contexts": [
        "schema": "iglu:com.snowplowanalytics.snowplow/contexts/jsonschema/1-0-0",
        "data": [["schema": .string(uri(name + 1)), "data": .object(data)]],
      ],
    ]
    let call = CallDescription(method: "trackSelfDescribingEvent", name: uri(name), parameters: parameters)
    return Record(
      seq: seq, time: Date(timeIntervalSince1970: 1_800_000_000), kind: .event, name: "event_\(name)",
      outputs: [ProviderOutput(provider: "snowplow", status: .sent, calls: [call])], raw: "{}")
  }
}
