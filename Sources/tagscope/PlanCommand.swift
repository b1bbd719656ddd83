import ArgumentParser
import Foundation
import TaggingPlan

/// `tagscope plan SUBCOMMAND`: tools that make tagging plans (`infer`). The plan format itself
/// is `tagscope help plan`.
struct PlanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "plan",
    abstract: "Make tagging plans: infer one from recordings (the format: tagscope help plan).",
    subcommands: [PlanInferCommand.self])
}

/// `tagscope plan infer FILE… [--name NAME]`.
struct PlanInferCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "infer",
    abstract: "Draft a tagging plan from recordings (in-app or from listen), printed as YAML.",
    discussion: """
      Every tag the recordings hold, with its properties (types; required when present every time; \
      enum for a small set of string values), the screens it happened on, and per provider the calls \
      observed (with when: {screen: …} where they differ by screen, when: {phase: …} for timed \
      events), counts as comments. The output is deterministic and loads as a plan; it plans what the \
      app sent, bugs included, so review it. Exit status: 0, or 2 when a recording cannot be read; \
      unreadable lines are reported on standard error and skipped.
      """)

  @Argument(help: "Recording files (JSON Lines); - reads standard input.")
  var files: [String]

  @Option(help: "The plan's name (plan:); by default the first recording's app.")
  var name: String?

  func run() throws {
    var inference = PlanInference()
    for file in files {
      do { try inference.read(path: file) } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        throw ExitCode(2)
      }
    }
    for problem in inference.problems {
      FileHandle.standardError.write(Data("\(problem) (line skipped)\n".utf8))
    }
    let planName = name ?? inference.app ?? "Inferred plan"
    FileHandle.standardOutput.write(Data(inference.yaml(name: planName).utf8))
  }
}
