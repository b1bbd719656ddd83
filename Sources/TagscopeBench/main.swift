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
  // `TAGSCOPE_LISTEN_PARTS` (server, ingest) picks some: the native stream and Segment batches
  // (ServerBench), each SDK decoder's rate (SDKIngestBench).
  case .listen: listenBenchmarks(ProcessInfo.processInfo.environment)
  // `TAGSCOPE_HOSTILE_PARTS` (fuzz, amplification, firebaselog, import) picks some benchmarks;
  // `TAGSCOPE_AMPLIFICATION_PARTS` set: only those parts of the amplification benchmark.
  case .hostile: hostileBenchmarks(ProcessInfo.processInfo.environment)
  case .plan: [PlanBench.run]
  case .report: [ReportBench.run, SessionPageBench.run]
  case .growth: [GrowthBench.run, GrowthMemoryBench.run]
  case .ui: [UIBench.run]
  case .reload: [ReloadBench.run]
  case .api: [QueryAPIBench.run]
  case .devices: [DevicesBench.run]
  case .import: [IgluImportBench.run, { try GrowthBench.imports(&$0, referring: .anchor) }]
  case .sdkdevices: [SDKDevicesBench.run]
  case .firebaselog: [FirebaseLogBench.run]
  case .firebaseupload: [FirebaseUploadBench.run]
  case .codegen: [CodegenBench.run]
  // `TAGSCOPE_PROXY_PARTS` (segment, firebase) picks some: Segment's figures (ProxyBench, which
  // runs MitmproxyBench), Firebase's uploads against mitmproxy.
  case .proxy: proxyBenchmarks(ProcessInfo.processInfo.environment)
  case .patterns: [PatternBench.run]
  // `TAGSCOPE_LEDGER_PARTS` (cost, inapp, wires, accuracy, listen) picks some.
  case .ledger: [LedgerBench.run, LedgerListenBench.run]
  }
}

/// The hostile group's benchmarks that the environment picks (all by default).
func hostileBenchmarks(_ environment: [String: String]) -> [(inout BenchReport) throws -> Void] {
  let parts: [(String, (inout BenchReport) throws -> Void)] = [
    ("fuzz", HostileBench.run), ("amplification", AmplificationBench.run),
    ("firebaselog", HostileFirebaseLogBench.run), ("import", HostileImportBench.run),
  ]
  if let picked = environment["TAGSCOPE_HOSTILE_PARTS"] {
    let names = Set(picked.split(separator: ",").map(String.init))
    return parts.filter { names.contains($0.0) }.map(\.1)
  }
  if environment["TAGSCOPE_AMPLIFICATION_PARTS"] != nil { return [AmplificationBench.run] }
  return parts.map(\.1)
}

/// The listen group's benchmarks that the environment picks (all by default).
func listenBenchmarks(_ environment: [String: String]) -> [(inout BenchReport) throws -> Void] {
  let parts: [(String, (inout BenchReport) throws -> Void)] = [
    ("server", ServerBench.run), ("ingest", SDKIngestBench.run),
  ]
  guard let picked = environment["TAGSCOPE_LISTEN_PARTS"] else { return parts.map(\.1) }
  let names = Set(picked.split(separator: ",").map(String.init))
  return parts.filter { names.contains($0.0) }.map(\.1)
}

/// The proxy group's benchmarks that the environment picks (all by default).
func proxyBenchmarks(_ environment: [String: String]) -> [(inout BenchReport) throws -> Void] {
  let parts: [(String, (inout BenchReport) throws -> Void)] = [
    ("segment", ProxyBench.run), ("firebase", FirebaseMitmproxyBench.run),
  ]
  guard let picked = environment["TAGSCOPE_PROXY_PARTS"] else { return parts.map(\.1) }
  let names = Set(picked.split(separator: ",").map(String.init))
  return parts.filter { names.contains($0.0) }.map(\.1)
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
