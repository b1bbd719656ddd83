import Foundation
import TagscopeBasics
import TagscopeTimeline

/// Standard error for messages: file names, plan names and record values in them come from the user
/// or from recordings, so every line is made terminal-safe (``TerminalText``) before it is written.
enum StandardError {
  /// Writes `text` (lines ending with a newline), sanitized line by line.
  static func write(_ text: String) {
    FileHandle.standardError.write(Data(TerminalText.sanitizeLines(text).utf8))
  }
}
