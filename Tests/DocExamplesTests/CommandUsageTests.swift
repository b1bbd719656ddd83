import XCTest

/// Every command and subcommand of the built `tagscope`, found from its own `--help`: its usage line
/// names exactly its command path, and a flag it does not take is refused with a hint naming that
/// same path (not a command it happens to share options with).
final class CommandUsageTests: XCTestCase {
  /// Whether `line` is `prefix` + `tagscope PATH`, followed by nothing or by an argument (`<…>`,
  /// `[…]`, `--…`), never by another command word.
  private func names(_ line: Substring, _ prefix: String, exactly path: [String]) -> Bool {
    let command = (["tagscope"] + path).joined(separator: " ")
    guard line.hasPrefix(prefix + command) else { return false }
    let rest = line.dropFirst(prefix.count + command.count)
    guard let next = rest.first else { return true }
    guard next == " " else { return false }
    return rest.dropFirst().first.map { "<[-".contains($0) } ?? true
  }

  func testEveryCommandsUsageNamesExactlyItsPath() throws {
    let paths = try CommandTree.paths()
    for expected in [["listen"], ["proxy", "run"], ["proxy", "ca"], ["validate"], ["plan", "codegen"]] {
      XCTAssertTrue(paths.contains(expected), "\(expected) not found: \(paths)")
    }
    for path in paths {
      let help = try BuiltProducts.run(path + ["--help"]).output
      let usage = help.split(separator: "\n").first { $0.hasPrefix("USAGE: ") }
      XCTAssertNotNil(usage, "\(path): no USAGE line")
      if let usage { XCTAssertTrue(names(usage, "USAGE: ", exactly: path), "\(path): \(usage)") }
    }
  }

  func testABadFlagsHintNamesTheRealCommand() throws {
    for path in try CommandTree.paths() {
      let outcome = try BuiltProducts.run(path + ["--no-such-flag"])
      XCTAssertEqual(outcome.status, 64, "\(path): \(outcome.error)")
      // A command with subcommands hands the flag to its default one, which is named instead.
      let lines = outcome.error.split(separator: "\n")
      let usage = lines.first { $0.hasPrefix("Usage: ") }
      let named = [path, path + ["run"], path + ["demo"]].first { candidate in
        usage.map { names($0, "Usage: ", exactly: candidate) } ?? false
      }
      XCTAssertNotNil(named, "\(path): \(outcome.error)")
      if let named {
        let hint = "See '" + (["tagscope"] + named).joined(separator: " ") + " --help'"
        XCTAssertTrue(outcome.error.contains(hint), "\(path): \(outcome.error)")
      }
    }
  }
}
