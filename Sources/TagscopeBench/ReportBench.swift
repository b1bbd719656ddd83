import Foundation
import PodcastDemo
import TaggingPlan
import TaggingPlanReports
import TagscopeRecording

/// The JSON report's figure: `tagscope validate --format json` on the inspector benchmark's
/// 1,000,000-record recording against a plan most records break (the demo plan with every
/// firebase call renamed: hundreds of thousands of violations, as early in a project), compared
/// with orjson merely parsing the recording. Validation and the report written to a temporary file
/// (never to /dev), in CPU time, best of `REPORT_BENCH_RUNS` (3); also the rate the report is
/// written at and the process's peak RSS.
///
/// `REPORT_BENCH_RECORDS=N` uses N records written here instead (quick runs).
enum ReportBench {
  static func run(_ report: inout BenchReport) throws {
    let environment = ProcessInfo.processInfo.environment
    let url: URL
    var temporary: URL?
    if let count = environment["REPORT_BENCH_RECORDS"].flatMap(Int.init) {
      url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "tagscope-report-bench-\(getpid()).jsonl")
      _ = try PlanBench.writeRecording(records: count, to: url)
      temporary = url
    } else {
      url = try InspectorBench.recording()
    }
    let output = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-report-bench-\(getpid()).json")
    defer {
      if let temporary { try? FileManager.default.removeItem(at: temporary) }
      try? FileManager.default.removeItem(at: output)
    }
    let runs = environment["REPORT_BENCH_RUNS"].flatMap(Int.init) ?? 3
    let plan = try PlanLoader.load(yaml: brokenPlan(DemoPlan.yaml), file: "demo-plan-renamed.yaml")
    let recordingBytes = try url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0

    var whole = PlanTiming()
    var writing = PlanTiming()
    var violations = 0
    var records = 0
    var written = 0
    for _ in 0..<max(1, runs) {
      var validated: ValidationReport?
      let validation = try PlanTiming.measure {
        validated = try ValidateRunner.validate(plan: plan, recordings: [url.path])
      }
      guard let result = validated else { continue }
      violations = result.violations.count
      records = result.records
      let write = try PlanTiming.measure { written = try writeJSON(result, to: output) }
      writing.keepBest(write)
      whole.keepBest(PlanTiming(wall: validation.wall + write.wall, cpu: validation.cpu + write.cpu))
    }
    let peak = peakResidentBytes()
    let orjson = try PythonBaseline.rate(url, module: "orjson", runs: max(1, runs)).cpu
    let megabytes = Double(written) / 1e6
    let what =
      "\(records) records (\(recordingBytes >> 20) MiB), \(violations) violations, \(written >> 20) MiB of JSON"
    report.add(
      "plan.validate.json.vs_orjson", Double(records) / whole.cpu / orjson, unit: "x",
      baseline: "validate --format json to a file vs python orjson.loads per line, CPU time; \(what)",
      atLeast: 1)
    report.add(
      "plan.validate.json.rate", megabytes / whole.cpu, unit: "MB/s",
      baseline: "JSON report bytes per CPU second of validate --format json (validation included)")
    report.add(
      "plan.validate.json.write_rate", megabytes / writing.cpu, unit: "MB/s",
      baseline: "JSON report bytes per CPU second of writing it alone (\(Self.format(writing.wall)) s wall)")
    report.add(
      "plan.validate.json.peak_rss", Double(peak) / 1_048_576, unit: "MiB",
      baseline: "peak RSS of the benchmark process (recording made here included when small)")
    report.add(
      "plan.validate.json.violations", Double(violations), unit: "violations",
      baseline: "the demo plan with every firebase call renamed")
  }

  /// `yaml` with every firebase call name prefixed with `v2_`: every record firebase receives
  /// breaks it (wrong-name).
  static func brokenPlan(_ yaml: String) -> String {
    var provider = ""
    var providerIndent = 0
    var lines: [String] = []
    for line in yaml.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      let indent = line.prefix { $0 == " " }.count
      let trimmed = line.dropFirst(indent)
      if indent <= providerIndent && !trimmed.hasPrefix("- ") { provider = "" }
      if let colon = trimmed.firstIndex(of: ":"), !trimmed.hasPrefix("- "),
        trimmed[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
      {
        let key = String(trimmed[..<colon])
        if key == "firebase" {
          provider = key
          providerIndent = indent
        }
      }
      lines.append(
        provider == "firebase"
          ? line.replacingOccurrences(of: "{name: ", with: "{name: v2_").replacingOccurrences(
            of: ", name: ", with: ", name: v2_") : line)
    }
    return lines.joined(separator: "\n")
  }

  /// Writes the JSON report of `report` to `url` as `tagscope validate --format json -o` does;
  /// returns its size.
  private static func writeJSON(_ report: ValidationReport, to url: URL) throws -> Int {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw CocoaError(.fileWriteNoPermission)
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    try ReportFormat.json.write(report, failOn: .error, to: handle)
    return Int(try handle.offset())
  }

  /// The process's peak resident set size, in bytes.
  static func peakResidentBytes() -> Int {
    var usage = rusage()
    #if os(Linux)
      getrusage(RUSAGE_SELF.rawValue, &usage)
      return usage.ru_maxrss * 1024
    #else
      getrusage(RUSAGE_SELF, &usage)
      return usage.ru_maxrss
    #endif
  }

  private static func format(_ value: Double) -> String { String(format: "%.2f", value) }
}
