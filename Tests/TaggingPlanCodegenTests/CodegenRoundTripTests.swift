import AnalyticsHub
import Foundation
import PodcastDemo
import TaggingPlan
import TaggingPlanImport
import TaggingPlanReports
import TagscopeDiff
import TagscopeInspector
import TagscopeTestSupport
import XCTest

@testable import TaggingPlanCodegen

/// The round trip, in one temporary package depending on this one by path (one build for all):
/// code generated from the demo plan, a plan inferred from a demo recording, imported Segment and
/// RudderStack plans, and hostile plans (keywords, collisions, non-identifiers, deep objects, a
/// thousand events) builds with zero warnings; its tours, sent through real hubs with an inspector
/// recording, validate against the same plans with no violation and every coverage item passed.
final class CodegenRoundTripTests: XCTestCase {
  static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let packageRoot = tests.deletingLastPathComponent().deletingLastPathComponent()
  static let importFixtures = packageRoot.appendingPathComponent("Tests/TaggingPlanImportTests/Fixtures")

  func testGeneratedModulesBuildAndRoundTrip() throws {
    let scratch = try CodegenScratch()
    let plans = try [
      ("Podcasts", PlanLoader.load(yaml: DemoPlan.yaml, file: "demo plan")),
      ("Inferred", inferredPlan(in: scratch)),
      ("TypewriterE2E", importedPlan("segment-real/typewriter-plan-v1.json")),
      ("KicksApp", importedPlan("segment-config-api.json")),
      ("RudderProducts", importedPlan("rudderstack")),
      ("Hostile", PlanLoader.load(yaml: HostilePlans.names, file: "hostile.yaml")),
      // Line breaks, controls and bidi scalars before a statement in every place plan text reaches.
      ("Injection", PlanLoader.load(yaml: InjectionPlans.everywhere, file: "injection.yaml")),
      ("Many", PlanLoader.load(yaml: HostilePlans.manyEvents(1_000), file: "many.yaml")),
      // The golden plan: sections and a catalogue, formats, a number enum, context parameters.
      (
        "Radio",
        PlanLoader.load(contentsOf: Self.tests.appendingPathComponent("Fixtures/small-plan.yaml").path)
      ),
    ]
    let package = scratch.url.appendingPathComponent("Generated")
    for (module, plan) in plans {
      let options = PlanCodegen.Options(moduleName: module, includesTour: true, toolVersion: "test")
      for file in PlanCodegen(plan: plan, options: options).files() {
        try scratch.write(file.text, to: "Generated/Sources/\(module)/\(file.name)")
      }
    }
    try scratch.write(manifest(modules: plans.map(\.0)), to: "Generated/Package.swift")
    try scratch.write(driver(modules: plans.map(\.0)), to: "Generated/Sources/RoundTrip/main.swift")
    try scratch.write(
      String(contentsOf: Self.tests.appendingPathComponent("Fixtures/DemoDiff/main.swift"), encoding: .utf8),
      to: "Generated/Sources/DemoDiff/main.swift")

    // SwiftPM's lock files go to TMPDIR: the scratch folder's own, so nothing is left outside it.
    let temporary = scratch.url.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    let build = try run(
      "/usr/bin/env", ["swift", "build", "--package-path", package.path], temporary: temporary.path)
    XCTAssertEqual(build.status, 0, build.output)
    let warnings = build.output.split(separator: "\n").filter {
      $0.contains("warning:") && $0.contains(package.path + "/Sources")
    }
    XCTAssertEqual(warnings, [], "generated code builds with zero warnings")
    guard build.status == 0 else { return }

    let recordings = scratch.url.appendingPathComponent("recordings")
    try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
    let tour = try run(package.appendingPathComponent(".build/debug/RoundTrip").path, [recordings.path])
    XCTAssertEqual(tour.status, 0, tour.output)

    for (module, plan) in plans {
      let path = recordings.appendingPathComponent("\(module).jsonl").path
      let report = try ValidateRunner.validate(plan: plan, recordings: [path])
      XCTAssertEqual(report.problems, [], module)
      // The inferred plan plans what the demo sent, its deliberate bugs included: the one a plan can
      // express as an expectation (a 54-character Firebase event name) is generated as planned, and
      // Firebase's rule catches it. Every other module's traffic breaks nothing.
      let inherited = report.violations.filter {
        module == "Inferred" && $0.rule == .providerRule && $0.message.contains("firebase.event-name-length")
      }
      XCTAssertEqual(inherited.count, module == "Inferred" ? 1 : 0, module)
      let violations = report.violations.filter { !inherited.contains($0) }.map { "\($0.tag): \($0.message)" }
      XCTAssertEqual(violations, [], "\(module): the generated traffic breaks the plan nowhere")
      // The golden plan's catalogue call no section expects is a typed adapter function, which
      // no tag sends: its item is the one not seen.
      let unsent = report.coverage.items.indices.filter {
        report.coverage.state(at: $0) == .notSeen
      }.map { report.coverage.items[$0].id }
      switch module {
      case "Radio": XCTAssertEqual(unsent, ["segment call Station Shared"])
      // Its Segment catalogue's call and identify method, which no section expects.
      case "Injection":
        XCTAssertEqual(unsent.count, 2, "\(unsent)")
        XCTAssertTrue(unsent.allSatisfy { $0.hasPrefix("segment ") }, "\(unsent)")
      default: XCTAssertEqual(unsent, [], module)
      }
      let counts = report.coverage.stateCounts
      XCTAssertEqual(
        counts.passed + inherited.count + unsent.count, report.coverage.items.count,
        "\(module): \(report.coverage.summary)")
      XCTAssertGreaterThan(counts.passed, 0, module)
    }
    try checkDeliberateBugsAbsent(generated: recordings.appendingPathComponent("Podcasts.jsonl"), in: scratch)
    try checkDiffShowsDeliberateBugs(package: package, recordings: recordings)
  }

  /// The issue's own check: the demo's traffic (its simulator's first 400 steps, opening with the
  /// tour that reaches each deliberate bug) recorded through its hand-written mappings and through
  /// the mappings generated from its plan (the DemoDiff executable, see its comment), then
  /// `tagscope diff` (its library, DiffRunner) between the two. It names the four bug sites; every
  /// other finding is a parameter the hand-written mappings send beyond what the plan lists for
  /// that call (a plan's parameters are a minimum: podcast_duration, screen_class…), which the
  /// generated mappings leave out.
  private func checkDiffShowsDeliberateBugs(package: URL, recordings: URL) throws {
    let demo = try run(
      package.appendingPathComponent(".build/debug/DemoDiff").path, [recordings.path, "400"])
    XCTAssertEqual(demo.status, 0, demo.output)
    let outcome = DiffRunner.run(
      base: recordings.appendingPathComponent("demo-hand.jsonl").path,
      new: recordings.appendingPathComponent("demo-generated.jsonl").path, format: .text,
      failOn: Set(DiffChange.allCases))
    XCTAssertEqual(outcome.diagnostics, "")
    let report = try XCTUnwrap(outcome.report)
    XCTAssertEqual(report.diff.baseRecords, report.diff.newRecords, "the same traffic")
    XCTAssertGreaterThan(report.diff.baseRecords, 300)
    let plan = try PlanLoader.load(yaml: DemoPlan.yaml, file: "demo plan")
    let unplanned = report.diff.findings.filter { $0.change == .paramRemoved && !Self.plans($0, in: plan) }
    let sites = report.diff.findings.filter { !unplanned.contains($0) }.map {
      "\($0.tag): \($0.change.rawValue) \($0.provider ?? "-") \($0.call ?? "-") \($0.path ?? "")"
    }
    XCTAssertEqual(
      sites.sorted(),
      [
        "event notEnoughStorageSpaceForDownload on podcasts: param-added braze download_failed required_bytes",
        "userAction pausePodcast on favorites: param-added firebase pause_podcast_from_favorites podcast_title",
        "userAction playPodcast on favorites: call-removed piano click.action ",
        "userAction playPodcast on favorites: status piano - ",
        "userAction removePodcastFromFavorite on podcastPlayer: renamed firebase remove_podcast_from_favorites ",
      ],
      "the four deliberate bugs, and nothing else but parameters the plan does not ask for\n\(outcome.output)"
    )
    for line in [
      "firebase call renamed: remove_podcast_from_favorites_on_podcast_player_screen → remove_podcast_from_favorites",
      "firebase pause_podcast_from_favorites: new parameter podcast_title",
      "piano no longer calls click.action", "braze download_failed: parameter $required_bytes is gone",
      "braze download_failed: new parameter required_bytes",
    ] {
      XCTAssertTrue(outcome.output.contains(line), "tagscope diff prints \(line)")
    }
  }

  /// Whether the plan lists a removed parameter for that tag's call to that provider.
  static func plans(_ finding: DiffFinding, in plan: Plan) -> Bool {
    let sections: [String: PlanSection] = [
      "screen": .screens, "userAction": .actions, "event": .events, "state": .states, "timedStart": .timed,
      "timedStop": .timed,
    ]
    guard
      let entry = plan.entries.first(where: {
        $0.section == sections[finding.tag.kind] && $0.name == finding.tag.name
      }),
      let provider = entry.providers.first(where: { $0.provider == finding.provider })
    else { return false }
    return provider.calls.contains { call in
      call.name == finding.call && call.params.contains { $0.name == finding.path }
    }
  }

  /// The demo's hand-written mappings break its plan at its four deliberate bugs; the mappings
  /// generated from the plan pass those very coverage items.
  private func checkDeliberateBugsAbsent(generated: URL, in scratch: CodegenScratch) throws {
    let plan = try PlanLoader.load(yaml: DemoPlan.yaml, file: "demo plan")
    let hand = try ValidateRunner.validate(
      plan: plan, recordings: [try demoRecording(in: scratch, count: 3_000)])
    XCTAssertEqual(
      Set(hand.violations.map { "\($0.tag) → \($0.provider ?? "-")" }),
      [
        "pausePodcast → firebase", "removePodcastFromFavorite → firebase", "playPodcast → piano",
        "notEnoughStorageSpaceForDownload → braze",
      ], "the demo's four deliberate bugs, one site each")
    let fromPlan = try ValidateRunner.validate(plan: plan, recordings: [generated.path])
    for item in Set(hand.violations.compactMap(\.coverageItem)) {
      XCTAssertEqual(fromPlan.coverage.state(at: item), .passed, plan.coverageItems[item].id)
    }
  }

  /// A recording of `count` dispatches of the demo simulator on its hand-written mappings.
  private func demoRecording(in scratch: CodegenScratch, count: Int) throws -> String {
    let url = scratch.url.appendingPathComponent("demo-\(count).jsonl")
    let inspector = Inspector(sinks: [try Recorder(url: url)])
    let clock = ManualClock(start: DemoHub.seededEpoch)
    let hub = try DemoHub.make(providers: PodcastMappings.providers(), clock: clock, seed: 7)
    HeadlessRun.run(hub: hub, clock: clock, seed: 7, count: count, rate: nil, observers: [inspector])
    inspector.flush()
    inspector.close()
    return url.path
  }

  /// A plan `plan infer` drafts from a recording of the demo.
  private func inferredPlan(in scratch: CodegenScratch) throws -> Plan {
    var inference = PlanInference()
    try inference.read(path: try demoRecording(in: scratch, count: 1_500))
    return try PlanLoader.load(yaml: inference.yaml(name: "Inferred"), file: "inferred.yaml")
  }

  /// A plan `plan import` makes of an import fixture (a real export or a vendor's example).
  private func importedPlan(_ fixture: String) throws -> Plan {
    let imported = try PlanImporter.run(paths: [Self.importFixtures.appendingPathComponent(fixture).path])
    return try PlanLoader.load(yaml: imported.yaml, file: fixture)
  }

  private func manifest(modules: [String]) -> String {
    let root = Self.packageRoot.path
    let identity = Self.packageRoot.lastPathComponent.lowercased()
    let products = """
      .product(name: "AnalyticsHub", package: "\(identity)"),
      .product(name: "AnalyticsProviders", package: "\(identity)")
      """
    let targets = modules.map { ".target(name: \"\($0)\", dependencies: [\(products)])," }
    // DemoDiff: the demo recorded through its hand-written and its generated mappings.
    let demo = """
      .executableTarget(
          name: "DemoDiff",
          dependencies: ["Podcasts", \(products),
            .product(name: "PodcastDemo", package: "\(identity)"),
            .product(name: "TagscopeInspector", package: "\(identity)")]),
      """
    return """
      // swift-tools-version: 6.0
      import PackageDescription

      let package = Package(
        name: "Generated",
        platforms: [.macOS(.v13)],
        dependencies: [.package(path: "\(root)")],
        targets: [
          \(targets.joined(separator: "\n    "))
          \(demo)
          .executableTarget(
            name: "RoundTrip",
            dependencies: [\(modules.map { "\"\($0)\"" }.joined(separator: ", ")), \(products),
              .product(name: "TagscopeInspector", package: "\(identity)")]),
        ],
        swiftLanguageModes: [.v6]
      )

      """
  }

  /// The tour of every module sent through a real hub with an inspector recording to
  /// `<directory>/<module>.jsonl`.
  private func driver(modules: [String]) -> String {
    var text = """
      import AnalyticsHub
      import Foundation
      import TagscopeInspector
      \(modules.map { "import \($0)" }.joined(separator: "\n"))

      func record<T: Taxonomy>(
        _ name: String, providers: ProviderSet<T>, tour: (AnalyticsHub<T>) -> Void
      ) throws {
        let url = URL(fileURLWithPath: CommandLine.arguments[1]).appendingPathComponent(name + ".jsonl")
        let inspector = Inspector(sinks: [try Recorder(url: url)])
        let hub = try AnalyticsHub<T>(providers: providers)
        hub.addObserver(inspector)
        tour(hub)
        hub.flush()
        inspector.flush()
        inspector.close()
      }

      """
    for module in modules {
      text +=
        "try record(\"\(module)\", providers: \(module)Mappings.providers()) { \(module)Tour.run(on: $0) }\n"
    }
    return text
  }

  private func run(_ executable: String, _ arguments: [String], temporary: String? = nil) throws -> (
    status: Int32, output: String
  ) {
    let process = Process()
    if let temporary {
      var environment = ProcessInfo.processInfo.environment
      environment["TMPDIR"] = temporary
      process.environment = environment
    }
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    // A Swift build of the generated code can take minutes on a busy machine.
    return try runToEnd(process, hangGuard: 1_800)
  }
}
