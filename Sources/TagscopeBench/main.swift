import Foundation
import TagscopeLive

// Runs every benchmark group (or those named on the command line) and prints the figures.
// `scripts/bench` builds this in release mode; `--json` prints one JSON object.
let arguments = CommandLine.arguments.dropFirst()
let json = arguments.contains("--json")
let selected = Set(arguments.filter { !$0.hasPrefix("--") })

/// The benchmarks of each group `scripts/bench` names (``BenchmarkGroup``, which `tagscope help
/// bench` lists).
func benchmarks(_ group: BenchmarkGroup) -> [(inout BenchReport) throws -> Void] {
  switch group {
  case .hub: [HubBench.run]
  case .providers: [ProvidersBench.run]
  case .inspector: [InspectorBench.run]
  case .listen: [ServerBench.run]
  // `TAGSCOPE_AMPLIFICATION_PARTS` set: only those parts of the amplification benchmark.
  case .hostile:
    ProcessInfo.processInfo.environment["TAGSCOPE_AMPLIFICATION_PARTS"] == nil
      ? [HostileBench.run, AmplificationBench.run, HostileFirebaseLogBench.run, HostileImportBench.run]
      : [AmplificationBench.run]
  case .plan: [PlanBench.run]
  case .report: [ReportBench.run]
  case .growth: [GrowthBench.run, GrowthMemoryBench.run]
  case .ui: [UIBench.run]
  case .reload: [ReloadBench.run]
  case .api: [QueryAPIBench.run]
  case .devices: [DevicesBench.run]
  case .import: [IgluImportBench.run, { try GrowthBench.imports(&$0, referring: .anchor) }]
  case .sdkdevices: [SDKDevicesBench.run]
  case .firebaselog: [FirebaseLogBench.run]
  case .codegen: [CodegenBench.run]
  case .proxy: [ProxyBench.run]
  case .patterns: [PatternBench.run]
  }
}

let groups = BenchmarkGroup.allCases.flatMap { group in
  benchmarks(group).map { (name: group.rawValue, run: $0) }
}

var report = BenchReport()
for group in groups where selected.isEmpty || selected.contains(group.name) {
  FileHandle.standardError.write("running \(group.name) benchmarks…\n".data(using: .utf8)!)
  do { try group.run(&report) } catch {
    FileHandle.standardError.write("benchmark group \(group.name) failed: \(error)\n".data(using: .utf8)!)
    exit(1)
  }
}
if json { report.printJSON() } else { report.printTable() }
