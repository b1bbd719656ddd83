import Foundation
import TaggingPlan
import TaggingPlanCodegen

/// Issue 34's figures: generating Swift from a 500-event plan (median of 5 runs, against loading
/// the same plan, the step every command starts with), and how long the generated module takes to
/// build in a package depending on this one by path: once cold (the hub and provider modules
/// compiled too), then three times after the generated files change (the module alone).
enum CodegenBench {
  static func run(_ report: inout BenchReport) throws {
    let yaml = plan(events: 500)
    var loads: [Double] = []
    var plan: Plan?
    for _ in 0..<5 {
      loads.append(try measureSeconds { plan = try PlanLoader.load(yaml: yaml, file: "bench-500.yaml") })
    }
    guard let plan else { return }
    let options = PlanCodegen.Options(moduleName: "Bench", includesTour: true, toolVersion: "bench")
    var files: [PlanCodegen.File] = []
    var runs: [Double] = []
    for _ in 0..<5 {
      runs.append(measureSeconds { files = PlanCodegen(plan: plan, options: options).files() })
    }
    let codegen = median(runs)
    let load = median(loads)
    let bytes = files.map(\.text.utf8.count).reduce(0, +)
    report.add(
      "codegen.500_events.seconds", codegen, unit: "s",
      baseline: "median of 5; \(files.count) files, \(bytes / 1024) KiB of Swift")
    report.add(
      "codegen.vs_plan_load", codegen / load, unit: "×",
      baseline:
        "codegen over PlanLoader.load of the same plan (\(String(format: "%.3f", load)) s, median of 5)")

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-codegen-bench-\(getpid())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let sources = directory.appendingPathComponent("Sources/Bench")
    let temporary = directory.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
    for file in files { try Data(file.text.utf8).write(to: sources.appendingPathComponent(file.name)) }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let identity = root.lastPathComponent.lowercased()
    let manifest = """
      // swift-tools-version: 6.0
      import PackageDescription

      let package = Package(
        name: "CodegenBench",
        platforms: [.macOS(.v13)],
        dependencies: [.package(path: "\(root.path)")],
        targets: [
          .target(
            name: "Bench",
            dependencies: [
              .product(name: "AnalyticsHub", package: "\(identity)"),
              .product(name: "AnalyticsProviders", package: "\(identity)"),
            ])
        ],
        swiftLanguageModes: [.v6]
      )

      """
    try Data(manifest.utf8).write(to: directory.appendingPathComponent("Package.swift"))
    // Dependencies resolved first, so the build figure is compiling only.
    _ = try swift(["package", "--package-path", directory.path, "resolve"], temporary: temporary.path)
    var status: Int32 = 0
    let cold = try measureSeconds {
      status = try swift(["build", "--package-path", directory.path], temporary: temporary.path)
    }
    guard status == 0 else { throw BenchFailure.build(status) }
    // The generated files change (as after a regenerate): only the generated module rebuilds.
    var rebuilds: [Double] = []
    for round in 1...3 {
      for file in files {
        try Data((file.text + "\n// regenerated \(round)\n").utf8).write(
          to: sources.appendingPathComponent(file.name))
      }
      rebuilds.append(
        try measureSeconds {
          status = try swift(["build", "--package-path", directory.path], temporary: temporary.path)
        })
      guard status == 0 else { throw BenchFailure.build(status) }
    }
    let module = median(rebuilds)
    report.add(
      "codegen.500_events.build.cold.seconds", cold, unit: "s",
      baseline: "swift build (debug) of a package with the generated module, its dependencies compiled too")
    report.add(
      "codegen.500_events.build.module.seconds", module, unit: "s",
      baseline:
        "median of 3 after the generated files change: the module alone, \(String(format: "%.0f", module / codegen))× codegen"
    )
  }

  enum BenchFailure: Error {
    case build(Int32)
  }

  /// `swift ARGUMENTS`, its output discarded; the exit status.
  private static func swift(_ arguments: [String], temporary: String) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift"] + arguments
    // SwiftPM's lock files go to TMPDIR: the benchmark's own folder, removed with it.
    var environment = ProcessInfo.processInfo.environment
    environment["TMPDIR"] = temporary
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  private static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

  /// A plan of `events` events, each with four typed properties and two providers' calls.
  static func plan(events: Int) -> String {
    var text = "plan: Bench\nversion: 1\nscreens:\n  home: {}\n  detail: {}\nevents:\n"
    for index in 0..<events {
      text += """
          event_\(index):
            description: Generated event \(index)
            properties:
              id: {type: string, required: true, pattern: "^e[0-9]+$"}
              amount: {type: number, minimum: 0}
              kind: {type: string, enum: [a, b, c]}
              tags: {type: array, items: {type: string}}
            providers:
              amplitude: {name: Event \(index), params: [id, amount]}
              segment:
                - {when: {screen: home}, name: Event \(index) Home, params: [id]}
                - {name: Event \(index), params: [id, kind]}

        """
    }
    return text
  }
}
