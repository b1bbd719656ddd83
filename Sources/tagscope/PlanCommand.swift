import ArgumentParser
import Foundation
import TaggingPlan
import TaggingPlanCodegen
import TaggingPlanImport
import TaggingPlanReports
import TagscopeRecording

/// `tagscope plan SUBCOMMAND`: tools that make tagging plans (`infer`, `import`) or code from them (`codegen`). The plan format
/// itself is `tagscope help plan`.
struct PlanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "plan",
    abstract:
      "Make tagging plans: infer one from recordings, import another tool's, generate Swift from one (the format: tagscope help plan).",
    subcommands: [PlanInferCommand.self, PlanImportCommand.self, PlanCodegenCommand.self])
}

/// `tagscope plan infer FILE… [--name NAME]`.
struct PlanInferCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "infer",
    abstract: "Draft a tagging plan from recordings (in-app or from listen), printed as YAML.",
    discussion: """
      Every tag the recordings hold, with its properties (types; required when present every time; \
      enum, marked by a comment, only for at most 10 string values each seen 3 times or more, never \
      ids, timestamps or free text), the screens it happened on, and per provider the calls \
      observed (with when: {screen: …} where they differ by screen, when: {phase: …} for timed \
      events), counts as comments. The output is deterministic and loads as a plan; it plans what the \
      app sent, bugs included, so review it. Exit status: 0, or 2 when a recording cannot be read \
      (or is a plan); unreadable lines are reported on standard error and skipped. \
      \(ExitStatusWords.usage)
      """)

  @Argument(help: "Recording files (JSON Lines); - reads standard input.")
  var files: [String]

  @Option(help: "The plan's name (plan:); by default the first recording's app.")
  var name: String?

  func validate() throws { try StandardInputArgument.checkReadOnce(files) }

  func run() throws {
    try FileShape.refuseMixUp(recordings: files, usage: "tagscope plan infer RECORDING…")
    var inference = PlanInference()
    for file in files {
      do { try inference.read(path: file) } catch {
        StandardError.write("\(error)\n")
        throw ExitCode(2)
      }
    }
    for warning in inference.warnings { StandardError.write(warning + "\n") }
    for problem in inference.problems {
      StandardError.write("\(problem) (line skipped)\n")
    }
    let planName = name ?? inference.app ?? "Inferred plan"
    inference.write(name: planName) { FileHandle.standardOutput.write(Data($0.utf8)) }
  }
}
