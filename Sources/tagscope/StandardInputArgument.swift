import ArgumentParser

/// `-` names standard input, which a command can read only once: given twice among a command's
/// recordings it is refused as written (a usage error), before anything is read.
enum StandardInputArgument {
  /// Throws a usage error when `-` is among `paths` more than once.
  static func checkReadOnce(_ paths: [String]) throws {
    if paths.filter({ $0 == "-" }).count > 1 {
      throw ValidationError("- (standard input) is given more than once: it can be read only once")
    }
  }
}
