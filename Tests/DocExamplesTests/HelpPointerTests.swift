import Foundation
import TagscopeServer
import XCTest

/// Every pointer a help text or message gives (`see tagscope help X`, `tagscope X --help`) leads to a
/// page that exists and holds what it points to: no pointer to a page that only lists subcommands,
/// no topic missing from the lists.
final class HelpPointerTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "help-pointers-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

  /// `text` with its lines joined (help pages wrap pointers across lines).
  private func joined(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// The `tagscope help X` and `tagscope X… --help` pointers of `text`.
  private func pointers(in text: String) -> (topics: [String], commands: [[String]]) {
    let words = joined(text).split(separator: " ").map {
      $0.trimmingCharacters(in: CharacterSet(charactersIn: "`'\"(),.;:"))
    }
    var topics: [String] = []
    var commands: [[String]] = []
    for (index, word) in words.enumerated() where word == "tagscope" {
      let rest = words[(index + 1)...].prefix(4)
      if rest.first == "help", let topic = rest.dropFirst().first, topic.allSatisfy(\.isLowercase) {
        topics.append(topic)
      }
      if let end = rest.firstIndex(of: "--help") {
        commands.append(Array(words[(index + 1)..<end]))
      }
    }
    return (topics, commands)
  }

  /// The page `tagscope help topic` prints (exit 0), or nil.
  private func page(_ topic: String) throws -> String? {
    let outcome = try BuiltProducts.run(["help", topic])
    return outcome.status == 0 ? outcome.output : nil
  }

  /// Whether `help` (a command's --help) lists an option of its own.
  private func listsOptions(_ help: String) -> Bool {
    guard let start = help.range(of: "\nOPTIONS:\n") else { return false }
    return help[start.upperBound...].split(separator: "\n").contains { line in
      line.hasPrefix("  -") && !line.contains("--help") && !line.contains("--version")
    }
  }

  func testEveryPointerInEveryHelpTextLeadsSomewhere() throws {
    let paths = try CommandTree.paths()
    var texts: [(String, String)] = []
    for path in [[]] + paths {
      texts.append((path.joined(separator: " ") + " --help", try BuiltProducts.run(path + ["--help"]).output))
    }
    for topic in HelpTopicTests.topics { texts.append(("help \(topic)", try page(topic) ?? "")) }
    let ca = try BuiltProducts.run(["proxy", "ca", "--ca-dir", directory.appendingPathComponent("ca").path])
    texts.append(("proxy ca", ca.output))
    var checked = 0
    for (source, text) in texts {
      let found = pointers(in: text)
      for topic in found.topics {
        XCTAssertNotNil(try page(topic), "\(source) points to tagscope help \(topic), which does not exist")
        checked += 1
      }
      for command in found.commands {
        XCTAssertTrue(
          paths.contains(command), "\(source) points to tagscope \(command) --help: no such command")
        let help = try BuiltProducts.run(command + ["--help"]).output
        XCTAssertTrue(
          listsOptions(help), "\(source) points to tagscope \(command) --help, which lists no option")
        checked += 1
      }
    }
    XCTAssertGreaterThan(checked, 10)
  }

  /// `proxy ca` sends the reader to the page with every host the proxy decrypts and to the one on
  /// Firebase's debug log, and says where the CA is kept.
  func testProxyCAPointsToThePagesThatHoldTheHostsAndFirebasesLog() throws {
    let ca = try BuiltProducts.run(["proxy", "ca", "--ca-dir", directory.appendingPathComponent("ca").path])
    XCTAssertEqual(ca.status, 0, ca.error)
    let text = joined(ca.output)
    let sentences = text.components(separatedBy: ". ")
    let hosts = try XCTUnwrap(sentences.first { $0.contains("hosts it knows") })
    let hostsTopic = try XCTUnwrap(pointers(in: hosts).topics.first, hosts)
    let hostsPage = try XCTUnwrap(try page(hostsTopic))
    for host in InterceptedHosts.builtIn.map(\.pattern) { XCTAssertTrue(hostsPage.contains(host), host) }
    let firebase = try XCTUnwrap(sentences.first { $0.contains("debug log") })
    let firebaseTopic = try XCTUnwrap(pointers(in: firebase).topics.first, firebase)
    let firebasePage = try XCTUnwrap(try page(firebaseTopic))
    XCTAssertTrue(firebasePage.contains("--log firebase"), firebaseTopic)
    XCTAssertTrue(text.contains(directory.appendingPathComponent("ca").path), text)
    // Without --ca-dir, the guide says the CA is under the user's config directory.
    let home = directory.appendingPathComponent("home")
    let process = Process()
    process.executableURL = try BuiltProducts.tagscope()
    process.arguments = ["proxy", "ca"]
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = home.path
    environment["XDG_CONFIG_HOME"] = nil
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    XCTAssertTrue(joined(output).contains("the user's config directory"), output)
    XCTAssertTrue(output.contains(home.path), output)
  }

  /// `tagscope --help` and `tagscope help`'s own line name every topic.
  func testEveryListNamesEveryTopic() throws {
    let root = try BuiltProducts.run(["--help"]).output
    for topic in HelpTopicTests.topics {
      XCTAssertTrue(root.contains("\n  \(topic) "), "tagscope --help does not list \(topic)")
    }
    // Both say where the proxy's CA is written.
    let bare = try BuiltProducts.run(["help"]).output
    for page in [root, bare] {
      XCTAssertTrue(joined(page).contains("CA on first use in the user's config directory"), page)
      for topic in HelpTopicTests.topics {
        XCTAssertTrue(page.contains("\n  \(topic) "), "\(topic) not in \(page)")
      }
    }
    let helpLine = joined(root).components(separatedBy: " help Show ").last ?? ""
    let abstract = helpLine.components(separatedBy: ".").first ?? ""
    for topic in HelpTopicTests.topics {
      XCTAssertTrue(abstract.contains(topic), "help's line lacks \(topic): \(abstract)")
    }
  }
}
