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
    abstract: "Show a subcommand's help, or a topic: \(HelpTopics.names).",
    discussion: """
      tagscope help validate shows the help of validate (as validate --help does); tagscope help \
      TOPIC prints a page by task:
      """ + HelpTopics.list,
    helpNames: [])

  /// The root's subcommands but this one, comma-separated.
  private static var subcommandNames: String {
    Tagscope.configuration.subcommands.map { $0._commandName }.filter { $0 != "help" }.joined(separator: ", ")
  }

  @Argument(help: "A subcommand (\(Self.subcommandNames)) or a topic (\(HelpTopics.names)).")
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
        throw ValidationError("no subcommand or help topic '\(name)' (topics: \(HelpTopics.names))")
      }
      command = subcommand
    }
    print(Tagscope.helpMessage(for: command))
  }
}
