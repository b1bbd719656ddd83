/// Why the terminal UI cannot start: each gives one clear message, and the CLI exits with code 2.
public enum TerminalError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Standard input or output is not a terminal (redirected or piped).
  case notATerminal
  /// `TERM` is unset or names a terminal without a terminfo entry.
  case unknownTerminal(String)
  /// The locale is not UTF-8, so boxes and wide characters would come out garbled.
  case noUTF8Locale(String)

  public var description: String {
    switch self {
    case .notATerminal:
      return
        "tagscope: the terminal UI needs a terminal, but standard output is not one (redirected or piped);"
        + " use --headless (demo) or run it in a terminal"
    case .unknownTerminal(let term):
      return term.isEmpty
        ? "tagscope: TERM is not set; set it to your terminal type (for example TERM=xterm-256color)"
        : "tagscope: unknown terminal type TERM=\(Sanitizer.clean(term, limit: 60).text);"
          + " set TERM to a type this system knows (for example xterm-256color)"
    case .noUTF8Locale(let locale):
      return
        "tagscope: the terminal UI needs a UTF-8 locale, but the locale is \"\(Sanitizer.clean(locale, limit: 60).text)\";"
        + " set LANG=C.UTF-8 (or another UTF-8 locale)"
    }
  }
}
