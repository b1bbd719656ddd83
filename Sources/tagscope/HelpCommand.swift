import ArgumentParser
import Foundation
import TaggingPlan

/// `tagscope help [SUBCOMMAND | TOPIC]`: ArgumentParser's own `help` (a subcommand's help), plus
/// topics it cannot print, by task (``HelpTopics``).
///
/// Registered among the root's subcommands, it is found before the built-in `help`, which stays as
/// a fallback ArgumentParser adds behind it.
struct HelpCommand: ParsableCommand {
  /// The topics beside the subcommands: name, one-line summary and page (``HelpTopics``).
  static var topics: [(name: String, summary: String, text: @Sendable () -> String)] { HelpTopics.all }

  static let configuration = CommandConfiguration(
    commandName: "help",
    abstract: "Show a subcommand's help, or a topic: keys, filter, listen, proxy, plan, qa, uitests, bench.",
    discussion: """
      tagscope help validate shows the help of validate (as validate --help does); tagscope help \
      TOPIC prints a page by task:
      """
        + HelpTopics.all.map {
          "\n  \($0.name.padding(toLength: 8, withPad: " ", startingAt: 0)) \($0.summary)"
        }.joined(),
    helpNames: [])

  @Argument(
    help:
      "A subcommand (demo, replay, listen, proxy, validate, diff, plan) or a topic (keys, filter, listen, proxy, plan, qa, uitests, bench)."
  )
  var names: [String] = []

  func run() throws {
    if names.count == 1, let topic = Self.topics.first(where: { $0.name == names[0] }) {
      print(topic.text(), terminator: "")
      return
    }
    var command: any ParsableCommand.Type = Tagscope.self
    for name in names {
      guard
        let subcommand = command.configuration.subcommands.first(where: {
          $0._commandName == name || $0.configuration.aliases.contains(name)
        })
      else {
        let topics = Self.topics.map(\.name).joined(separator: ", ")
        throw ValidationError("no subcommand or help topic '\(name)' (topics: \(topics))")
      }
      command = subcommand
    }
    print(Tagscope.helpMessage(for: command))
  }
}
