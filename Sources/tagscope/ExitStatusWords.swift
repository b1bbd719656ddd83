/// The sentence every command's exit statuses end with: ArgumentParser's own code for a usage error,
/// which the commands' "2 for bad input" does not cover.
enum ExitStatusWords {
  /// Arguments wrong as written: exit 64 with the usage.
  static let usage =
    "Arguments wrong as written (an unknown option, a missing argument, a bad value) print the usage, exit 64."
}
