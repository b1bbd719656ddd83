import Foundation
import TagscopeInspector
import TagscopeRecording
import TagscopeServer
import TagscopeTimeline

/// What every live path (`listen` and `proxy`, headless or in the debugger) does with `--record`,
/// in one place: a new recording is started, an existing one is continued — never truncated —
/// with its runs' highest `seq`, its SDK devices' states, its SDK messages' retry memory and its
/// followed logs' positions read back into the server's configuration; and the same notices are
/// given (continuing, a torn last line, a public bind).
public enum LiveRecording {
  /// The store a live session writes to and the server configuration to start with: the recording
  /// teed with `timeline` when `options` record, else `timeline` alone; a new recording starts
  /// with `header` (by default `listen`'s).
  public static func attach(
    to timeline: Timeline, options: ListenOptions, header: RecordingHeader? = nil,
    notices: @Sendable (String) -> Void
  ) throws -> (store: any LiveStore, configuration: ListenConfiguration) {
    var configuration = options.configuration
    guard let path = options.recordPath else { return (timeline, configuration) }
    let (recorder, recorded) = try ListenRunner.openRecording(
      path, options: options, header: header, notices: notices)
    configuration.recordedRuns = recorded.runs
    configuration.recordedJumps = recorded.jumps
    configuration.recordedDevices = recorded.devices
    configuration.recordedMessages = recorded.messages
    configuration.recordedLogs = recorded.logs
    return (TeeStore(recorder, timeline), configuration)
  }

  /// The recorder of `path` for a writer that is no live session (the headless demo): a new
  /// recording starting with `header`, or the existing one continued — never truncated — with the
  /// same notices as every live path.
  public static func recorder(
    path: String, header: RecordingHeader, notices: @Sendable (String) -> Void
  ) throws -> Recorder {
    try ListenRunner.openRecording(
      path, options: ListenOptions(recordPath: path), header: header, notices: notices
    ).0
  }

  /// The warning for a server bound where other machines reach it, or `nil` on loopback.
  public static func publicBindWarning(_ options: ListenOptions) -> String? {
    guard !["127.0.0.1", "::1", "localhost"].contains(options.host) else { return nil }
    return "warning: listening on \(options.host), reachable from other machines"
      + (options.token == nil ? "; clients need no token (see --token)" : "")
      + (options.proxy != nil && options.token == nil
        ? "; the proxy relays for anyone who reaches it (--token makes it the proxy password)" : "")
  }
}
