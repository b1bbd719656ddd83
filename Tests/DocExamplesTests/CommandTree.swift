import XCTest

/// The commands of the built `tagscope`, found from its own `--help` pages.
enum CommandTree {
  /// The subcommands a `--help` page lists under SUBCOMMANDS (`demo (default)` gives `demo`).
  static func subcommands(of help: String) -> [String] {
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
  static func paths() throws -> [[String]] {
    var paths: [[String]] = []
    var pending: [[String]] = [[]]
    while !pending.isEmpty {
      let path = pending.removeFirst()
      // `help` takes no --help: its words are names.
      if path == ["help"] { continue }
      let help = try BuiltProducts.run(path + ["--help"])
      XCTAssertEqual(help.status, 0, "\(path): \(help.error)")
      if !path.isEmpty { paths.append(path) }
      pending += subcommands(of: help.output).map { path + [$0] }
    }
    return paths
  }
}
