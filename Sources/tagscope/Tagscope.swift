import ArgumentParser
import TagscopeRecording

/// The tagscope command line: the demo, replay, listen, validate and diff tools.
@main
struct Tagscope: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tagscope",
    abstract: "Watch, record, replay and check the analytics tags of an app.",
    discussion: """
      Without a subcommand, runs demo. Pages by task, tagscope help TOPIC:
      """ + HelpTopics.list + "\n\n" + HelpTopics.caLocation,
    version: "tagscope \(Tagscope.version) (recordings: format version \(RecordingHeader.currentVersion))",
    subcommands: [
      DemoCommand.self, ReplayCommand.self, Listen.self, ProxyCommand.self, Validate.self, DiffCommand.self,
      PlanCommand.self, ImportCaptureCommand.self, ExportCommand.self,
      RedactCommand.self,
      HelpCommand.self,
    ],
    defaultSubcommand: DemoCommand.self
  )

  /// This tagscope's version.
  static let version = TagscopeVersion.current
}
