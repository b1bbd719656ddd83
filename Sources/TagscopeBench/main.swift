import Foundation

// Runs every benchmark group (or those named on the command line) and prints the figures.
// `scripts/bench` builds this in release mode; `--json` prints one JSON object.
let arguments = CommandLine.arguments.dropFirst()
let json = arguments.contains("--json")
let selected = Set(arguments.filter { !$0.hasPrefix("--") })

let groups: [(name: String, run: (inout BenchReport) throws -> Void)] = [
  ("hub", HubBench.run),
  ("providers", ProvidersBench.run),
  ("inspector", InspectorBench.run),
  ("listen", ServerBench.run),
  ("hostile", HostileBench.run),
  ("hostile", AmplificationBench.run),
  ("hostile", PatternBench.run),
  ("plan", PlanBench.run),
  ("report", ReportBench.run),
  ("ui", UIBench.run),
  ("reload", ReloadBench.run),
  ("api", QueryAPIBench.run),
  ("devices", DevicesBench.run),
  ("import", IgluImportBench.run),
  ("sdkdevices", SDKDevicesBench.run),
  ("proxy", ProxyBench.run),
]

var report = BenchReport()
for group in groups where selected.isEmpty || selected.contains(group.name) {
  FileHandle.standardError.write("running \(group.name) benchmarks…\n".data(using: .utf8)!)
  do { try group.run(&report) } catch {
    FileHandle.standardError.write("benchmark group \(group.name) failed: \(error)\n".data(using: .utf8)!)
    exit(1)
  }
}
if json { report.printJSON() } else { report.printTable() }
