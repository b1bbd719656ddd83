import XCTest

/// Every command and subcommand of the built `tagscope`, found from its own `--help`: its usage line
/// names exactly its command path, and a flag it does not take is refused with a hint naming that
/// same path (not a command it happens to share options with).
final class CommandUsageTests: XCTestCase {
  /// The subcommands a `--help` page lists under SUBCOMMANDS (`demo (default)` gives `demo`).
  private func subcommands(of help: String) -> [String] {
    guard let start = help.range(of: "\nSUBCOMMANDS:\n") else { return [] }
    var names: [String] = []
    for line in help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
      if line.isEmpty { continue }
      guard line.hasPrefix("  "), !line.hasPrefix("   ") else {
        if !line.hasPrefix(" ") { break }
        continue
      }
      let word = line.dropFirst(2).prefix { $0 != " " }
      if word == "See" { break }
      names.append(String(word))
    }
    return names
  }

  /// Every command path of the binary, the root's subcommands first.
  private func commandPaths() throws -> [[String]] {
    var paths: [[String]] = []
    var pending: [[String]] = [[]]
    while !pending.isEmpty {
      let path = pending.removeFirst()
      // `help` takes no --help (its words are names); its usage is checked below.
      if path == ["help"] { continue }
      let help = try BuiltProducts.run(path + ["--help"])
      XCTAssertEqual(help.status, 0, "\(path): \(help.error)")
      if !path.isEmpty { paths.append(path) }
      pending += subcommands(of: help.output).map { path + [$0] }
    }
    return paths
  }

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
    let paths = try commandPaths()
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
    for path in try commandPaths() {
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
