import ArgumentParser
import Foundation
import TagscopeDiff

extension DiffFormat: ExpressibleByArgument {}

/// `tagscope diff BASE NEW [--format text|json|junit|markdown] [--fail-on CHANGES]`.
struct DiffCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract: "Compare two recordings of the same journey: what this build changed in the tags.",
    discussion: """
      Compares each tag (kind, name, screen) and each provider's calls, whatever the timing or order: \
      tags that no longer or newly fire, providers that no longer or newly receive a tag, calls \
      renamed, removed or added or made through another SDK method, parameters and properties removed, added or of another type \
      (each key by its exact name, numbered ones such as cd1, cd2 too; keys past the first \
      \(PathTypes.pathLimit) paths or \(PathTypes.depthLimit) levels by their count), a \
      provider's statuses changed (sent → dropped, blocked, failed). A call named after the user \
      (setUserId, identify…, or an id-shaped name in an identify or session record) is compared by \
      method and parameters, as method(<id>): another user is not a change. Change ids: \
      \(DiffChange.allCases.map(\.rawValue).joined(separator: ", ")). Exit status: 1 when a change \
      at --fail-on is found, 0 otherwise, 2 for bad input (a recording that cannot be read, an unknown \
      change id, a plan given as a recording). Unreadable lines are reported on standard error and \
      skipped. \(ExitStatusWords.usage)
      """)

  @Argument(help: "The base recording (e.g. the last release's run of the journey); - reads standard input.")
  var base: String

  @Argument(help: "The new recording (this build's run of the same journey).")
  var new: String

  @Option(help: "Report format: text, json, junit or markdown (for a pull-request comment).")
  var format: DiffFormat = .text

  @Option(
    name: .customLong("fail-on"),
    help:
      "Changes that fail the run (exit 1), separated by commas: change ids, regressions (the default: all but additions), all or none."
  )
  var failOn = "regressions"

  func validate() throws { try StandardInputArgument.checkReadOnce([base, new]) }

  func run() throws {
    try FileShape.refuseMixUp(recordings: [base, new], usage: "tagscope diff BASE-RECORDING NEW-RECORDING")
    let changes: Set<DiffChange>
    switch DiffChange.parseList(failOn) {
    case .success(let parsed): changes = parsed
    case .failure(let error):
      StandardError.write("\(error)\n")
      throw ExitCode(2)
    }
    let outcome = DiffRunner.run(base: base, new: new, format: format, failOn: changes)
    FileHandle.standardOutput.write(Data(outcome.output.utf8))
    StandardError.write(outcome.diagnostics)
    if outcome.exitCode != 0 { throw ExitCode(outcome.exitCode) }
  }
}
