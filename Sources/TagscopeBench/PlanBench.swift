import AnalyticsHub
import Foundation
import PodcastDemo
import TaggingPlan
import TaggingPlanReports
import TagscopeDiff
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline

/// Issue 6's figure: validating a large recording of the podcast demo against the demo's plan,
/// compared side by side with the timeline indexing the same file (and with only reading and
/// decoding it). Validation must not be the slow part: ≥ 0.8 × the timeline's indexing rate.
///
/// The recording is the inspector benchmark's 1,000,000 records (the podcast simulator on a real
/// hub), or, with `PLAN_BENCH_RECORDS=N`, N records written here by a real hub with the demo's
/// real mappings, deliberate bugs included.
enum PlanBench {
  static func run(_ report: inout BenchReport) throws {
    // The inspector benchmark's 1,000,000-record recording (made once, reused), or a recording
    // of `PLAN_BENCH_RECORDS` records made here for quick runs.
    let url: URL
    var temporary: URL?
    if let count = ProcessInfo.processInfo.environment["PLAN_BENCH_RECORDS"].flatMap(Int.init) {
      url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "tagscope-plan-bench-\(getpid()).jsonl")
      _ = try writeRecording(records: count, to: url)
      temporary = url
    } else {
      url = try InspectorBench.recording()
    }
    defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
    let bytes = try url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
    let plan = try PlanLoader.load(yaml: DemoPlan.yaml, file: "demo-plan.yaml")
    // The two paths compared: timeline indexing (returns the records indexed) and
    // `tagscope validate`'s validation.
    func index() throws -> Int {
      let timeline = try Timeline.open(path: url.path)
      timeline.waitUntilIndexed()
      defer { timeline.release() }
      return timeline.count
    }
    // What the user runs: `tagscope validate --plan PLAN FILE --format json -o OUT`, the plan
    // loaded from its file and the JSON report streamed to a file as violations are found.
    let cli = try CLIValidation(recording: url)
    defer { cli.remove() }
    func validate() throws -> ValidateRunner.Outcome { try cli.run(plan: DemoPlan.yaml) }
    // `PLAN_BENCH_ONLY=index|validate|validate-without` times one path only, for profiling
    // (`validate-without`: the plan without its session checks).
    switch ProcessInfo.processInfo.environment["PLAN_BENCH_ONLY"] {
    case "index":
      let timing = try PlanTiming.measure { blackHole(try index()) }
      report.add("plan.index.cpu", timing.cpu, unit: "s", baseline: "timeline indexing only")
      return
    case "validate":
      let timing = try PlanTiming.measure { blackHole(try validate()) }
      report.add("plan.validate.cpu", timing.cpu, unit: "s", baseline: "tagscope validate's path only")
      return
    case "validate-without":
      let timing = try PlanTiming.measure { blackHole(try cli.run(plan: DemoPlan.yamlWithoutSessionChecks)) }
      report.add(
        "plan.validate.no_session_checks.cpu", timing.cpu, unit: "s",
        baseline: "tagscope validate's path only, the plan without journeys, consent and privacy")
      return
    default: break
    }

    // `tagscope diff`, `plan infer`, validation with the catalogues, validation decoding every
    // record, and reading+decoding only, interleaved, best of each, in CPU time (which other
    // processes on a busy machine do not inflate; every run is on one thread).
    // Decoded records in memory, for validation alone and for the catalogue of their calls.
    // The file's first 200,000 records, read no further (a whole pass would cost as much as the
    // read-only figure's).
    var sample: [Record] = []
    sample.reserveCapacity(200_000)
    let sampleReader = try RecordingReader(path: url.path)
    while sample.count < 200_000, let entry = try sampleReader.next() {
      if case .record(let record, _) = entry { sample.append(record) }
    }
    let cataloguedYAML = BenchCatalogue.plan(DemoPlan.yaml, cataloguing: sample)
    // `PLAN_BENCH_CATALOGUE=FILE` keeps the plan, to run `tagscope validate` with it.
    if let path = ProcessInfo.processInfo.environment["PLAN_BENCH_CATALOGUE"] {
      try Data(cataloguedYAML.utf8).write(to: URL(fileURLWithPath: path))
    }
    let catalogued = try PlanLoader.load(yaml: cataloguedYAML, file: "demo-plan-with-catalogues.yaml")
    var cataloguing = PlanTiming()
    var catalogueViolations = 0
    var decoded = 0
    var violations = 0
    var summary = ""
    var readOnly = PlanTiming()
    var indexing = PlanTiming()
    var validating = PlanTiming()
    var validatingWithout = PlanTiming()
    var decodingAll = PlanTiming()
    var diffing = PlanTiming()
    var inferring = PlanTiming()
    var drafted = 0
    var changes = 0
    var indexed = 0
    // Issue 47's figures, readable on a loaded machine: `tagscope validate`, validate without the
    // session checks and timeline indexing, each round between two passes of orjson over the same
    // file in one Python interpreter (``AlternatedRounds``), ``alternatedRounds`` rounds, CPU time
    // on both sides; the best of each is kept for the best-of figures too.
    var rounds = AlternatedRounds()
    let orjsonPasses = try PythonPasses(url, module: "orjson")
    defer { orjsonPasses.close() }
    var orjson = 0.0
    func orjsonPass() throws {
      let rate = try orjsonPasses.pass().cpu
      rounds.addReference(rate)
      orjson = max(orjson, rate)
    }
    try orjsonPass()
    for _ in 0..<Self.alternatedRounds {
      var records = 0
      let validated = try PlanTiming.measure {
        let outcome = try validate()
        records = outcome.report?.records ?? 0
        violations = outcome.report?.sources.reduce(0) { $0 + $1.violations } ?? 0
        summary = outcome.report?.coverage.summary ?? ""
      }
      validating.keepBest(validated)
      rounds.add(Self.validatePath, rate: Double(records) / validated.cpu)
      let without = try PlanTiming.measure {
        records = try cli.run(plan: DemoPlan.yamlWithoutSessionChecks).report?.records ?? 0
      }
      validatingWithout.keepBest(without)
      rounds.add(Self.withoutPath, rate: Double(records) / without.cpu)
      let indexRun = try PlanTiming.measure { indexed = try index() }
      indexing.keepBest(indexRun)
      rounds.add(Self.indexPath, rate: Double(indexed) / indexRun.cpu)
      try orjsonPass()
    }
    for _ in 0..<Self.bestOfPasses {
      // `tagscope diff FILE FILE`: both recordings read, then compared.
      diffing.keepBest(
        try PlanTiming.measure {
          let base = try ProfileReader.read(path: url.path).0
          let new = try ProfileReader.read(path: url.path).0
          changes = RecordingDiff(base: base, new: new).findings.count
        })
      // `tagscope plan infer FILE`: read, then the draft written.
      inferring.keepBest(
        try PlanTiming.measure {
          var inference = PlanInference()
          try inference.read(path: url.path)
          drafted = inference.yaml(name: "bench").utf8.count
        })
      cataloguing.keepBest(
        try PlanTiming.measure {
          catalogueViolations = try ValidateRunner.validate(plan: catalogued, recordings: [url.path])
            .violations.count
        })
      decodingAll.keepBest(
        try PlanTiming.measure {
          var validator = PlanValidator(plan: plan)
          var found = 0
          _ = try RecordingScanner.scan(path: url.path) { record in found += validator.validate(record).count
          }
          blackHole(found)
        })
      readOnly.keepBest(
        try PlanTiming.measure {
          decoded = 0
          _ = try RecordingScanner.scan(path: url.path) { record in
            decoded += 1
            blackHole(record)
          }
        })
    }
    // Python's standard parser on the same file, in CPU time like the figures above (orjson's rate
    // for the best-of figures: the best of its passes in the rounds above).
    let python = try PythonBaseline.rate(url, module: "json").cpu
    // Validation alone, on records already decoded in memory, without and with the catalogues.
    let checkOnly = bestOf(Self.bestOfPasses) {
      var validator = PlanValidator(plan: plan)
      var found = 0
      for record in sample { found += validator.validate(record).count }
      blackHole(found)
    }
    let checkCatalogued = bestOf(Self.bestOfPasses) {
      var validator = PlanValidator(plan: catalogued)
      var found = 0
      for record in sample { found += validator.validate(record).count }
      blackHole(found)
    }
    let baseline = "\(decoded) records, \(bytes >> 20) MiB"
    report.add(
      "plan.validate.rate", Double(decoded) / validating.cpu, unit: "records/s",
      baseline: "tagscope validate --format json -o FILE's path, CPU time")
    report.add(
      "plan.index.rate", Double(indexed) / indexing.cpu, unit: "records/s",
      baseline: "Timeline.open + waitUntilIndexed, CPU time")
    report.add(
      "plan.validate.vs_orjson", Double(decoded) / validating.cpu / orjson, unit: "x",
      baseline:
        "the demo plan (journeys, consent, privacy on) vs python orjson.loads per line, same file, CPU time",
      atLeast: 1.2)
    report.add(
      "plan.validate.vs_orjson.alternated", rounds.median(Self.validatePath), unit: "x",
      baseline:
        "median of per-round ratios, validate between two orjson passes in the same run, CPU time (\(rounds.spread(Self.validatePath)))",
      atLeast: 1.2)
    report.add(
      "plan.validate.no_session_checks.vs_orjson", Double(decoded) / validatingWithout.cpu / orjson,
      unit: "x",
      baseline:
        "the demo plan without journeys and consent, privacy off, vs python orjson.loads per line, CPU time")
    report.add(
      "plan.validate.no_session_checks.vs_orjson.alternated", rounds.median(Self.withoutPath), unit: "x",
      baseline:
        "median of per-round ratios, validate without session checks between orjson passes, CPU time (\(rounds.spread(Self.withoutPath)))"
    )
    report.add(
      "plan.validate.session_checks.vs_without", validatingWithout.cpu / validating.cpu, unit: "x",
      baseline:
        "tagscope validate with the demo plan's journeys, consent and privacy vs the same plan without them, CPU time"
    )
    report.add(
      "plan.validate.vs_json", Double(decoded) / validating.cpu / python, unit: "x",
      baseline: "python json.loads per line, same file, CPU time")
    report.add(
      "plan.index.vs_orjson", Double(indexed) / indexing.cpu / orjson, unit: "x",
      baseline: "python orjson.loads per line, same file, CPU time", atLeast: 1)
    report.add(
      "plan.index.vs_orjson.alternated", rounds.median(Self.indexPath), unit: "x",
      baseline:
        "median of per-round ratios, indexing between two orjson passes in the same run, CPU time (\(rounds.spread(Self.indexPath)))",
      atLeast: 1)
    report.add(
      "plan.validate.vs_index", indexing.cpu / validating.cpu, unit: "x",
      baseline: "timeline indexing of the same file (\(baseline)), CPU time", atLeast: 0.8)
    report.add(
      "plan.diff.vs_validate", 2 * validating.cpu / diffing.cpu, unit: "x",
      baseline: "tagscope diff FILE FILE vs validate reading the file twice, CPU time (\(changes) changes)",
      atLeast: 1)
    report.add(
      "plan.infer.vs_validate", validating.cpu / inferring.cpu, unit: "x",
      baseline: "tagscope plan infer FILE vs validate FILE, CPU time (a \(drafted)-byte draft)", atLeast: 1)
    report.add(
      "plan.validate.decode_all.vs_index", indexing.cpu / decodingAll.cpu, unit: "x",
      baseline: "validation decoding every record vs timeline indexing, CPU time")
    report.add(
      "plan.read.vs_index", indexing.cpu / readOnly.cpu, unit: "x",
      baseline: "read+decode every record, no validation, vs timeline indexing, CPU time")
    report.add(
      "plan.check.rate", Double(sample.count) / checkOnly, unit: "records/s",
      baseline: "validation alone, \(sample.count) decoded records in memory")
    report.add(
      "plan.check.catalogue.vs_plan", checkOnly / checkCatalogued, unit: "x",
      baseline:
        "validation alone with catalogues of all \(catalogued.catalogues.map { $0.calls.count }.reduce(0, +)) calls vs the demo plan alone, \(sample.count) decoded records"
    )
    report.add(
      "plan.validate.catalogue.vs_index", indexing.cpu / cataloguing.cpu, unit: "x",
      baseline:
        "tagscope validate with the catalogues (\(catalogueViolations) violations) vs timeline indexing, CPU time",
      atLeast: 0.8)
    report.add(
      "plan.validate.violations", Double(violations), unit: "violations", baseline: "demo plan, \(summary)")
  }

  /// Rounds of the paths timed alternated with orjson (about 20 s of CPU each).
  static let alternatedRounds = 5
  /// Passes of the other paths, the best kept (about 40 s of CPU each, half of it validation
  /// decoding every record): 2, so the group takes under 4 minutes of CPU.
  static let bestOfPasses = 2

  /// The paths timed alternated with orjson (``AlternatedRounds``).
  private static let validatePath = "validate"
  private static let withoutPath = "validate-without"
  private static let indexPath = "index"

  /// Writes a recording of `records` records made by a real hub running the demo's script; returns
  /// its size in bytes.
  static func writeRecording(records: Int, to url: URL) throws -> Int {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw CocoaError(.fileWriteNoPermission)
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    let writer = LineWriter(handle: handle)
    writer.buffer += Array(RecordLineEncoder.line(RecordingHeader(app: "Podcasts", device: "bench")).utf8)
    writer.buffer.append(10)
    let hub = try AnalyticsHub<PodcastTaxonomy>(providers: PodcastMappings.providers())
    hub.addObserver(writer)
    hub.startSession(properties: ["voiceOver": false])
    var round = 0
    while writer.records < records {
      script(hub, round: round)
      round += 1
    }
    hub.flush()
    try writer.flush()
    return writer.written
  }

  /// One pass through the demo app: every screen, most actions, events and states.
  static func script(_ hub: AnalyticsHub<PodcastTaxonomy>, round: Int) {
    let podcast = Podcast.catalogue[round % Podcast.catalogue.count]
    hub.send(screen: .podcasts)
    hub.send(userAction: .openPodcast(podcast))
    hub.send(userAction: .playPodcast(podcast))
    hub.send(screen: .podcastPlayer)
    hub.send(event: .playerDidLoad(podcast))
    hub.send(event: .playerDidPlay(podcast))
    hub.start(timedEvent: .listening(podcast))
    hub.send(userAction: .pausePodcast(podcast))
    hub.stop(timedEvent: .listening(podcast))
    hub.send(event: .playerDidStop(podcast, position: round % 600))
    hub.send(userAction: .addPodcastToFavorite(podcast))
    hub.send(state: .favorites([podcast]))
    hub.send(screen: .favorites)
    hub.send(userAction: .playPodcast(podcast))
    hub.send(userAction: .pausePodcast(podcast))
    hub.send(userAction: .removePodcastFromFavorite(podcast))
    hub.send(screen: .downloads)
    hub.send(userAction: .downloadPodcast(podcast))
    if round % 10 == 0 { hub.send(event: .notEnoughStorageSpaceForDownload(podcast, availableBytes: 1_000)) }
    if round % 7 == 0 { hub.send(event: .playerDidFail(podcast, error: "network")) }
    hub.send(userAction: .deletePodcast(podcast))
    hub.send(screen: .settings)
    hub.send(state: .autoPlay(round % 2 == 0))
  }
}

/// `tagscope validate --plan PLAN RECORDING --format json -o OUT` run in process: the plan written
/// to a file and loaded from it, the JSON report streamed to a file as the violations are found
/// (``ValidateRunner/runStreamingJSON(planPath:recordings:failOn:failOnUnreadable:bySource:generated:delivery:to:)``,
/// what the command calls), in a scratch folder of its own.
struct CLIValidation {
  let recording: URL
  let folder: URL

  init(recording: URL) throws {
    self.recording = recording
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-plan-bench-cli-\(getpid())", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  /// Validates the recording against the plan `yaml` the way the command does.
  func run(plan yaml: String) throws -> ValidateRunner.Outcome {
    let planFile = folder.appendingPathComponent("plan.yaml")
    try Data(yaml.utf8).write(to: planFile)
    let output = folder.appendingPathComponent("report.json")
    guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
      throw BenchError("cannot write \(output.path)")
    }
    let handle = try FileHandle(forWritingTo: output)
    defer { try? handle.close() }
    let outcome = ValidateRunner.runStreamingJSON(
      planPath: planFile.path, recordings: [recording.path], failOn: .error, to: handle)
    guard outcome.report != nil else { throw BenchError("validate failed: \(outcome.diagnostics)") }
    return outcome
  }

  func remove() { try? FileManager.default.removeItem(at: folder) }
}

/// Wall and CPU (process) seconds of a run; `keepBest` keeps the smallest of each.
struct PlanTiming {
  var wall = Double.infinity
  var cpu = Double.infinity

  static func measure(_ body: () throws -> Void) rethrows -> PlanTiming {
    let cpuStart = processCPUSeconds()
    let wall = try measureSeconds(body)
    return PlanTiming(wall: wall, cpu: processCPUSeconds() - cpuStart)
  }

  mutating func keepBest(_ other: PlanTiming) {
    wall = min(wall, other.wall)
    cpu = min(cpu, other.cpu)
  }

  static func processCPUSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}

/// Encodes every dispatch as a recording line and writes them in large chunks.
private final class LineWriter: HubObserver, @unchecked Sendable {
  let handle: FileHandle
  var buffer: [UInt8] = []
  var records = 0
  var written = 0
  var failure: (any Error)?

  init(handle: FileHandle) {
    self.handle = handle
    buffer.reserveCapacity(8 << 20)
  }

  func hubDidDispatch(_ dispatch: Dispatch) {
    RecordLineEncoder.appendLine(Record(dispatch: dispatch), to: &buffer)
    records += 1
    if buffer.count >= 4 << 20 {
      do { try flush() } catch { failure = error }
    }
  }

  func flush() throws {
    if let failure { throw failure }
    try handle.write(contentsOf: buffer)
    written += buffer.count
    buffer.removeAll(keepingCapacity: true)
  }
}
