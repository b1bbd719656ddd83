import Foundation

/// Where `y`'s copy can go, as far as the debugger can tell from where it runs: straight to the
/// terminal as OSC 52, through tmux, into tmux's paste buffer when tmux stops OSC 52 (its default
/// `set-clipboard external`), or nowhere a clipboard is (GNU screen, the Linux console).
public enum ClipboardRoute: Sendable, Hashable {
  /// OSC 52 to the terminal, which may or may not take it (nothing answers).
  case terminal
  /// Inside tmux with `set-clipboard on`: tmux passes OSC 52 on to the terminal.
  case tmuxPassing
  /// Inside tmux whose `set-clipboard` (`external`, tmux's default, or `off`) keeps an
  /// application's OSC 52 from the clipboard: the copy goes into tmux's paste buffer instead.
  case tmuxBuffer(setting: String)
  /// Inside something that passes no copy on (`why`): `y` offers `e`, which writes a file.
  case none(why: String)

  /// The route for `environment` (`TMUX`, `STY`, `TERM`) and, inside tmux, what
  /// `tmux show -gv set-clipboard` printed (`nil`: tmux could not be asked; its default is
  /// `external`).
  public static func detect(environment: [String: String], tmuxSetClipboard: String?) -> ClipboardRoute {
    if let tmux = environment["TMUX"], !tmux.isEmpty {
      let setting = tmuxSetClipboard?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
      return setting == "on" ? .tmuxPassing : .tmuxBuffer(setting: setting.isEmpty ? "external" : setting)
    }
    if let screen = environment["STY"], !screen.isEmpty {
      return .none(why: "GNU screen passes no copy to the clipboard")
    }
    let term = environment["TERM"] ?? ""
    if term == "linux" || term == "dumb" {
      return .none(why: "the \(term) terminal has no clipboard")
    }
    return .terminal
  }

  /// The route where this process runs: its environment and, inside tmux, tmux's own answer.
  public static func current() -> ClipboardRoute {
    let environment = ProcessInfo.processInfo.environment
    let inTmux = !(environment["TMUX"] ?? "").isEmpty
    return detect(environment: environment, tmuxSetClipboard: inTmux ? TmuxCommand.setClipboard() : nil)
  }
}

/// The two tmux commands `y` needs, run as a child process (never on the drawing thread's path:
/// once before the loop, and from the effect worker).
enum TmuxCommand {
  /// `tmux show -gv set-clipboard`, or `nil` when tmux cannot be run or refuses.
  static func setClipboard() -> String? {
    let result = run(["show", "-gv", "set-clipboard"], input: nil)
    return result.error == nil ? result.output : nil
  }

  /// Puts `text` into tmux's paste buffer (`tmux load-buffer -`); the reason it failed, if it did.
  static func loadBuffer(_ text: String) -> String? {
    run(["load-buffer", "-"], input: Data(text.utf8)).error
  }

  private static func run(_ arguments: [String], input: Data?) -> (output: String, error: String?) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["tmux"] + arguments
    let output = Pipe()
    let errors = Pipe()
    let stdin = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = input == nil ? FileHandle.nullDevice : stdin
    do { try process.run() } catch { return ("", "tmux could not be run") }
    if let input {
      try? stdin.fileHandleForWriting.write(contentsOf: input)
      try? stdin.fileHandleForWriting.close()
    }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let reason = said.trimmingCharacters(in: .whitespacesAndNewlines)
      return (text, reason.isEmpty ? "tmux exited with \(process.terminationStatus)" : reason)
    }
    return (text, nil)
  }
}
