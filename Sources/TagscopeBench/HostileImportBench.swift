import Foundation

/// Issue 42, item 4: `plan import` of hostile sources (a chain of 600 `$ref`s that overflowed
/// the stack; definitions each referencing the next twice, shared by many events, when the node
/// budget was per event; a rudder-cli project repeating a large `{{ .BIG }}` variable in every
/// description; 1M enum values). Each is imported by the `tagscope` binary in a child process;
/// the figure is its peak RSS above that of importing a one-property schema (the process's own
/// floor), per byte of source, target ≤ 20 (measured by GNU time, `/usr/bin/time`). The sources are scaled to a few MB so that the floor's
/// noise does not swamp them; for comparison, a doubled schema of the red team's size (3 KB, one event), and the
/// 20,000 events of the doubled source written out without references (what the events alone
/// cost). `TAGSCOPE_BINARY` is the binary measured (default: the one beside this bench).
enum HostileImportBench {
  struct Source {
    var name: String
    var what: String
    /// The arguments after `plan import`, the path last.
    var arguments: [String]
    /// File name and text, written into the source's folder.
    var files: [(String, String)]
  }

  static func run(_ report: inout BenchReport) throws {
    guard FileManager.default.isExecutableFile(atPath: timeBinary) else {
      throw BenchError("HostileImportBench measures with GNU time: \(timeBinary) is missing")
    }
    let binary =
      ProcessInfo.processInfo.environment["TAGSCOPE_BINARY"]
      ?? Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("tagscope").path
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-hostile-import-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let floor = try measure(binary, floorSource, in: directory)
    report.add(
      "hostile.import.floor.peakRSS", floor.peakMB, unit: "MB", baseline: "a one-property schema imported")
    for source in [redTeamDoubled(), sameEventsWithoutReferences()] {
      let outcome = try measure(binary, source, in: directory)
      let bytes = Double(source.files.reduce(0) { $0 + $1.1.utf8.count })
      report.add(
        "hostile.import.\(source.name).peakRSS", outcome.peakMB, unit: "MB",
        baseline: "\(source.what), " + String(format: "%.0f KB, %.1f s", bytes / 1024, outcome.seconds))
      report.add(
        "hostile.import.\(source.name).peakRSSPerByte",
        max(0, outcome.peakMB - floor.peakMB) * 1_048_576 / bytes,
        unit: "×", baseline: "peak RSS above the floor per source byte (for comparison)")
    }
    for source in sources() {
      let outcome = try measure(binary, source, in: directory)
      let bytes = Double(source.files.reduce(0) { $0 + $1.1.utf8.count })
      let name = "hostile.import.\(source.name)"
      report.add(
        "\(name).peakRSS", outcome.peakMB, unit: "MB",
        baseline: "\(source.what), " + String(format: "%.2f MB, %.1f s", bytes / 1_048_576, outcome.seconds))
      report.add(
        "\(name).peakRSSPerByte", max(0, outcome.peakMB - floor.peakMB) * 1_048_576 / bytes, unit: "×",
        baseline: "peak RSS above the floor per source byte", atMost: 20)
    }
  }

  /// Imports `source` in a child process; its peak RSS.
  static func measure(_ binary: String, _ source: Source, in directory: URL) throws -> ChildPeak.Outcome {
    let folder = directory.appendingPathComponent(source.name)
    for (name, text) in source.files {
      let url = folder.appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    defer { try? FileManager.default.removeItem(at: folder) }
    let arguments = ["plan", "import"] + source.arguments + [folder.path]
    // A child spawned by this process starts with this process's peak as its own (Linux records
    // the old address space's peak at exec), and this process holds the sources and the earlier
    // benchmarks' memory: GNU time forks from its own small process and reports the child's.
    let peakFile = folder.appendingPathComponent("peak.txt").path
    let outcome = try ChildPeak.run(timeBinary, ["-f", "%M", "-o", peakFile, binary] + arguments)
    guard outcome.exitCode == 0 else {
      throw BenchError("tagscope \(arguments.joined(separator: " ")) exited with \(outcome.exitCode)")
    }
    let text = try String(contentsOfFile: peakFile, encoding: .utf8)
    guard let kilobytes = text.split(whereSeparator: \.isNewline).last.flatMap({ Double($0) }) else {
      throw BenchError(
        "\(timeBinary) wrote no peak for tagscope \(arguments.joined(separator: " ")): \(text)")
    }
    return ChildPeak.Outcome(exitCode: 0, peakMB: kilobytes / 1024, seconds: outcome.seconds)
  }

  /// GNU time, which measures each import.
  static let timeBinary = "/usr/bin/time"

  static let schema = #""$schema":"https://json-schema.org/draft/2020-12/schema""#

  static let floorSource = Source(
    name: "floor", what: "one property", arguments: ["--from", "jsonschema", "--provider", "segment"],
    files: [("e.json", #"{\#(schema),"title":"E","type":"object","properties":{"a":{"type":"string"}}}"#)])

  static func sources() -> [Source] {
    [refChains(events: 100, length: 600), doubled(levels: 30, events: 20_000), variables(), enumValues()]
  }

  /// The red team's source: one event whose property references the first of 30 definitions,
  /// each naming the next twice (1.57 GB in 30 s when the budget was 100,000 nodes per event).
  static func redTeamDoubled() -> Source {
    var source = doubled(levels: 30, events: 1)
    source.name = "redTeamDoubled"
    return source
  }

  /// The events of ``doubled(levels:events:)`` (20,000) with a written object in place of the
  /// reference: what the events themselves cost, beside what their references add.
  static func sameEventsWithoutReferences() -> Source {
    let schemas = (0..<20_000).map {
      #""E\#($0)":{"type":"object","properties":{"p":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}}}}"#
    }
    return Source(
      name: "events20kWritten", what: "20000 events, no $ref",
      arguments: ["--from", "jsonschema", "--provider", "segment"],
      files: [("events.json", document(schemas, []))])
  }

  /// `events` events, each property starting its own chain of `length` `$ref`s.
  static func refChains(events: Int, length: Int) -> Source {
    var definitions: [String] = []
    var schemas: [String] = []
    for event in 0..<events {
      schemas.append(
        ##""E\##(event)":{"type":"object","properties":{"a":{"$ref":"#/definitions/c\##(event)_0"}}}"##)
      for link in 0..<length {
        definitions.append(##""c\##(event)_\##(link)":{"$ref":"#/definitions/c\##(event)_\##(link + 1)"}"##)
      }
      definitions.append(#""c\#(event)_\#(length)":{"type":"string"}"#)
    }
    return Source(
      name: "refChain", what: "\(events) chains of \(length) $refs",
      arguments: ["--from", "jsonschema", "--provider", "segment"],
      files: [("chains.json", document(schemas, definitions))])
  }

  /// `events` events referencing `d0`, each of `levels` definitions naming the next twice.
  static func doubled(levels: Int, events: Int) -> Source {
    let schemas = (0..<events).map {
      ##""E\##($0)":{"type":"object","properties":{"p":{"$ref":"#/definitions/d0"}}}"##
    }
    let definitions =
      (0..<levels).map {
        ##""d\##($0)":{"type":"object","properties":{"a":{"$ref":"#/definitions/d\##($0 + 1)"},"b":{"$ref":"#/definitions/d\##($0 + 1)"}}}"##
      } + [#""d\#(levels)":{"type":"string"}"#]
    return Source(
      name: "doubledRefs", what: "\(events) events × 2^\(levels) nodes",
      arguments: ["--from", "jsonschema", "--provider", "segment"],
      files: [("doubled.json", document(schemas, definitions))])
  }

  /// 2,000 events whose descriptions are each a 100 KB variable.
  static func variables() -> Source {
    let events = 2_000
    let eventSpecs = (0..<events).map {
      "    - id: e\($0)\n      name: Event \($0)\n      event_type: track\n      description: \"{{ .BIG }}\"\n"
    }
    let rules = (0..<events).map {
      "    - type: event_rule\n      id: r\($0)\n      event:\n        $ref: \"#/events/ev/e\($0)\"\n"
        + "      properties:\n        - $ref: \"#/properties/pr/p\"\n"
    }
    return Source(
      name: "rudderVars", what: "\(events) descriptions of a 100 KB {{ .BIG }}",
      arguments: ["--from", "rudderstack"],
      files: [
        (
          "events.yaml",
          "version: rudder/0.1\nkind: events\nmetadata:\n  name: ev\nspec:\n  events:\n" + eventSpecs.joined()
        ),
        (
          "properties.yaml",
          "version: rudder/0.1\nkind: properties\nmetadata:\n  name: pr\nspec:\n  properties:\n"
            + "    - id: p\n      name: p\n      type: string\n"
        ),
        (
          "tp.yaml",
          "version: rudder/0.1\nkind: tp\nmetadata:\n  name: tp\nspec:\n  id: tp\n  display_name: Vars\n"
            + "  rules:\n" + rules.joined()
        ),
        ("big.vars.yaml", "BIG: " + String(repeating: "v", count: 100_000) + "\n"),
      ])
  }

  /// One property of 1M enum values.
  static func enumValues() -> Source {
    let values = (0..<1_000_000).map(String.init).joined(separator: ",")
    return Source(
      name: "enum1M", what: "1M enum values", arguments: ["--from", "jsonschema", "--provider", "segment"],
      files: [
        ("enum.json", #"{\#(schema),"title":"E","type":"object","properties":{"a":{"enum":[\#(values)]}}}"#)
      ])
  }

  /// A JSON Schema of event schemas (`$defs`) and the `definitions` they reference.
  static func document(_ schemas: [String], _ definitions: [String]) -> String {
    #"{\#(schema),"$defs":{"# + schemas.joined(separator: ",") + #"},"definitions":{"#
      + definitions.joined(separator: ",") + "}}"
  }
}
