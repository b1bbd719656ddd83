import Foundation

/// Issue 31's "on a 259 MB recording with 1M distinct tags `plan infer` takes 1.84 GB, `diff`
/// 2.17 GB, `validate --format json` 4.59 GB" (and `validate`'s HTML and text reports): the peak
/// RSS of each of those commands run by the `tagscope` binary on recordings of N distinct tag
/// names (about 260 bytes a record, as the issue's), made here. `GROWTH_MEMORY_TAGS` (default `20000`; the issue's `200000,1000000`)
/// gives the sizes; `TAGSCOPE_BINARY` the binary measured (default: the one beside this bench),
/// `TAGSCOPE_BASELINE_BINARY` a build before the change, measured too, each figure then also an
/// after/before ratio.
enum GrowthMemoryBench {
  static let plan = GrowthBench.plan

  static func run(_ report: inout BenchReport) throws {
    let environment = ProcessInfo.processInfo.environment
    let sizes =
      environment["GROWTH_MEMORY_TAGS"].map { $0.split(separator: ",").compactMap { Int($0) } } ?? [20_000]
    let binary =
      environment["TAGSCOPE_BINARY"]
      ?? Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("tagscope").path
    let baseline = environment["TAGSCOPE_BASELINE_BINARY"]
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-growth-memory-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let planFile = directory.appendingPathComponent("plan.yaml")
    try Data(plan.utf8).write(to: planFile)
    for size in sizes {
      let base = directory.appendingPathComponent("base-\(size).jsonl")
      let new = directory.appendingPathComponent("new-\(size).jsonl")
      let megabytes = Double(try write(distinctTags: size, renamingEvery: 0, to: base)) / 1_048_576
      _ = try write(distinctTags: size, renamingEvery: 10, to: new)
      let commands: [(name: String, arguments: [String])] = [
        ("validate_json", ["validate", "--plan", planFile.path, "--format", "json", base.path]),
        ("validate_html", ["validate", "--plan", planFile.path, "--format", "html", base.path]),
        ("validate_text", ["validate", "--plan", planFile.path, "--format", "text", base.path]),
        ("diff", ["diff", base.path, new.path]),
        ("infer", ["plan", "infer", base.path]),
      ]
      let label = size >= 1_000_000 ? "\(size / 1_000_000)M" : "\(size / 1000)k"
      for command in commands {
        let name = "growth.memory.\(command.name).\(label)"
        let what = "\(size) distinct tags, " + String(format: "%.0f MB recording", megabytes)
        let after = try measure(binary, command.arguments)
        report.add(name, after.peakMB, unit: "MB", baseline: "peak RSS, \(what) (\(format(after.seconds)) s)")
        report.add(
          "\(name).perTag", after.peakMB * 1_048_576 / Double(size), unit: "B",
          baseline: "peak RSS per distinct tag")
        guard let baseline else { continue }
        let before = try measure(baseline, command.arguments)
        report.add(
          "\(name).before", before.peakMB, unit: "MB",
          baseline: "peak RSS before (\(format(before.seconds)) s)")
        report.add("\(name).ratio", after.peakMB / before.peakMB, unit: "×", baseline: "after / before")
      }
    }
  }

  private static func measure(_ binary: String, _ arguments: [String]) throws -> ChildPeak.Outcome {
    let outcome = try ChildPeak.run(binary, arguments)
    guard outcome.exitCode <= 1 else {
      throw BenchError("\(arguments.first ?? "") exited with \(outcome.exitCode)")
    }
    return outcome
  }

  private static func format(_ value: Double) -> String { String(format: "%.1f", value) }

  /// Writes a recording of `count` records, each a user action with a tag name of its own on one
  /// of 50 screens, two properties and a Firebase call (about 260 bytes a line); every
  /// `renamingEvery`-th tag renamed and its `position` a string (`0`: none), as a next build's run
  /// of the same journey. Returns the file's size.
  static func write(distinctTags count: Int, renamingEvery: Int, to url: URL) throws -> Int {
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw BenchError("cannot create \(url.path)")
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var chunk = #"{"format":"tagscope-recording","version":1,"app":"Growth","device":"bench"}"# + "\n"
    var size = 0
    for index in 0..<count {
      let renamed = renamingEvery > 0 && index % renamingEvery == 0
      let name = renamed ? "tag_\(index)_v2" : "tag_\(index)"
      let position = renamed ? "\"\(index)\"" : "\(index)"
      let screen = "screen_\(index % 50)"
      chunk +=
        #"{"seq":\#(index + 1),"time":"2026-11-25T10:00:00.000Z","kind":"userAction","name":"\#(name)","#
        + #""properties":{"title":"Episode \#(index)","position":\#(position)},"#
        + #""context":{"screen":"\#(screen)","history":["\#(screen)"]},"outputs":[{"provider":"firebase","#
        + #""status":"sent","calls":[{"method":"logEvent","name":"\#(name)","parameters":{"position":1}}]}]}"#
        + "\n"
      if chunk.utf8.count > 1 << 20 {
        size += chunk.utf8.count
        try handle.write(contentsOf: Data(chunk.utf8))
        chunk = ""
      }
    }
    size += chunk.utf8.count
    try handle.write(contentsOf: Data(chunk.utf8))
    return size
  }
}
