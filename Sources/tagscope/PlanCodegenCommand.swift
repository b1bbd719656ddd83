import ArgumentParser
import Foundation
import TaggingPlan
import TaggingPlanCodegen
import TagscopeRecording
import TagscopeServer

/// `tagscope plan codegen PLAN… -o DIR [--module NAME] [--access public|internal] [--tour]`.
struct PlanCodegenCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "codegen",
    abstract: "Generate Swift 6 source on AnalyticsHub from tagging plans: typed tags and provider mappings.",
    discussion: """
      For each plan (written by hand, drafted by plan infer or made by plan import): NAMETaxonomy.swift, \
      one enum per kind of tag with one case per planned screen, action, event, state and timed \
      event, a parameter per property (enum → a Swift enum, a number enum asserted, required → \
      non-optional, date-time → Date, uuid → UUID; patterns, lengths, ranges and every other format \
      documented and checked by assert in debug builds, through a format helper in the same file), \
      doc comments from the descriptions; NAMEMappings.swift, one mapping per provider the \
      plan names producing exactly the calls it expects (name, method, parameters; nothing where it \
      says none) and providers(…) building them (Firebase, Amplitude, Segment, Mixpanel, Braze, \
      Piano and FPTI calls are typed and checked against the SDK's rules; another provider, or a \
      call its module cannot record, gets CallDescription calls); for a catalogue-only plan, every \
      catalogue call is an event and NAMECalls.swift adds one typed function per call on the \
      provider's SDK adapter; for a plan with sections and catalogues, the catalogue calls no section \
      expects get those functions. A provider parameter the plan expects that no property holds is \
      read from the hub's context when its name says what it is (source_screen, previous_screen, \
      session_id, user_id: tagscope help codegen), otherwise it becomes a parameter of the tag \
      (providerParameters). Names are made valid Swift (keywords escaped, \
      other characters dropped, collisions numbered in plan order). With --tour, NAMETour.swift \
      sends every tag once with sample values on the screens the plan names: record it and \
      validate the recording against the same plan for a round trip. Output is deterministic; \
      files plan codegen wrote before are replaced (a file at one of its paths that it did not \
      write is not, unless --force: a hand-written ShopTaxonomy.swift stays), then formatted by swift format (with the .swift-format configuration \
      found from the output directory up, as swift format does) unless --no-format. NAME is \
      --module, or with several plans each plan's name. Then it says what it wrote: the files, and the \
      types they declare (the taxonomy, each kind of tag with its number of cases, the mappings).

      Exit status: 0; 2 when a plan does not load (or is a recording) or a file cannot be written. \
      \(ExitStatusWords.usage)
      """)

  @Argument(help: "Plan files (YAML).")
  var plans: [String]

  @Option(name: .shortAndLong, help: "The directory to write the Swift files to (created if missing).")
  var output: String

  @Option(help: "The module name that prefixes the types (default: the plan's name).")
  var module: String?

  @Option(help: "The declarations' access level: public or internal.")
  var access: CodegenAccess = .public

  @Flag(help: "Also write NAMETour.swift, sending every tag once (a round trip's traffic).")
  var tour = false

  @Flag(help: "Leave the files as generated, not formatted by swift format.")
  var noFormat = false

  @Flag(help: "Replace files at the output's paths that plan codegen did not write.")
  var force = false

  func run() throws {
    try FileShape.refuseMixUp(plans: plans, usage: "tagscope plan codegen PLAN… -o DIR")
    var outputs: [PlanCodegen.File] = []
    var declared: [PlanCodegen.DeclaredType] = []
    for path in plans {
      let plan: Plan
      do { plan = try PlanLoader.load(contentsOf: path) } catch {
        StandardError.write("\(error)\n")
        throw ExitCode(2)
      }
      let name = plans.count == 1 ? (module ?? plan.name) : plan.name
      let options = PlanCodegen.Options(
        moduleName: name, isPublic: access == .public, includesTour: tour,
        toolVersion: TagscopeVersion.current)
      let codegen = PlanCodegen(plan: plan, options: options)
      outputs.append(contentsOf: codegen.files())
      declared.append(contentsOf: codegen.declaredTypes())
    }
    let paths = outputs.map { URL(fileURLWithPath: output).appendingPathComponent($0.name).path }
    // Every path is checked before any file is written: nothing is half replaced.
    for path in paths {
      if let refusal = refusal(path) {
        StandardError.write("tagscope: \(refusal)\n")
        throw ExitCode(2)
      }
    }
    do {
      try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
      for (file, path) in zip(outputs, paths) {
        try OutputFile.write(Data(file.text.utf8), to: path, replacing: true)
      }
    } catch let refusal as OutputFile.Refusal {
      StandardError.write("tagscope: \(refusal)\n")
      throw ExitCode(2)
    } catch {
      StandardError.write(
        "tagscope: \(output): cannot make the folder (\(SystemErrorWords.reasonMakingFolder(error)))\n")
      throw ExitCode(2)
    }
    let formatted = noFormat ? nil : SwiftFormatRun.format(paths)
    print(
      "wrote \(outputs.count) file\(outputs.count == 1 ? "" : "s") to \(output): "
        + outputs.map(\.name).joined(separator: ", ") + (noFormat ? " (not formatted)" : ""))
    print("types: " + declared.map(Self.words).joined(separator: ", "))
    if let formatted {
      StandardError.write("warning: the files are written but not formatted: \(formatted)\n")
    }
  }

  /// `ShopPlanScreen (3 cases)`, or the name alone for a type that is not a kind of tag.
  private static func words(_ type: PlanCodegen.DeclaredType) -> String {
    guard let cases = type.cases else { return type.name }
    return "\(type.name) (\(cases) case\(cases == 1 ? "" : "s"))"
  }

  /// Why `path` is not written: not a regular file, or one plan codegen did not write (without
  /// `--force`); `nil` when it may be.
  private func refusal(_ path: String) -> String? {
    do {
      guard try OutputFile.check(path, replacing: true), !force else { return nil }
    } catch {
      return error.description
    }
    let head = FileHandle(forReadingAtPath: path).flatMap { try? $0.read(upToCount: 64) } ?? Data()
    guard !PlanCodegen.isGenerated(Substring(decoding: head, as: UTF8.self)) else { return nil }
    return "\(path) exists and plan codegen did not write it: not replacing it (--force replaces it)"
  }
}

/// `--access`: the generated declarations' access level.
enum CodegenAccess: String, ExpressibleByArgument, CaseIterable {
  case `public`
  case `internal`
}
