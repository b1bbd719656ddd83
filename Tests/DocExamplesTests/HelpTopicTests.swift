import TaggingPlan
import TaggingPlanCodegen
import TaggingPlanImport
import TaggingPlanReports
import TagscopeDiff
import TagscopeLive
import TagscopeServer
import TagscopeTimeline
import TagscopeUI
import XCTest

/// `tagscope help TOPIC`, run from the built binary: each page names every row of the table the
/// code uses (a key, a filter key, an endpoint, a report format, a benchmark group), so a row added
/// without its words fails here.
final class HelpTopicTests: XCTestCase {
  static let topics = ["keys", "filter", "listen", "proxy", "plan", "qa", "codegen", "uitests", "bench"]

  func page(_ topic: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let result = try BuiltProducts.run(["help", topic])
    XCTAssertEqual(result.status, 0, "tagscope help \(topic): \(result.error)", file: file, line: line)
    XCTAssertFalse(result.output.isEmpty, file: file, line: line)
    return result.output
  }

  func assertMentions(
    _ page: String, _ words: [String], _ what: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertFalse(words.isEmpty, what, file: file, line: line)
    for word in words where !page.contains(word) {
      XCTFail("the page does not mention \(what) \(word)", file: file, line: line)
    }
  }

  func testEveryTopicPrintsAPageAndHelpListsThem() throws {
    for topic in Self.topics { _ = try page(topic) }
    let overview = try BuiltProducts.run(["help", "help"])
    for topic in Self.topics { XCTAssertTrue(overview.output.contains(topic), topic) }
    let unknown = try BuiltProducts.run(["help", "nosuchtopic"])
    XCTAssertNotEqual(unknown.status, 0)
    XCTAssertTrue(unknown.error.contains("topics: keys, filter, listen, proxy, plan"), unknown.error)
  }

  func testProxyNamesEveryHostItDecrypts() throws {
    let page = try page("proxy")
    assertMentions(page, InterceptedHosts.builtIn.map(\.pattern), "intercepted host")
    assertMentions(page, ["tagscope proxy ca", "--log firebase -", "--no-forward", "--token"], "usage")
  }

  func testCodegenNamesEveryFileContextParameterAndFormat() throws {
    let page = try page("codegen")
    assertMentions(page, PlanCodegen.fileKinds.map { "NAME" + $0.suffix }, "generated file")
    assertMentions(page, PlanCodegen.contextParameters.map(\.name), "context parameter")
    assertMentions(page, PlanCodegen.checkedFormats, "format")
    assertMentions(
      page, ["tagscope plan codegen", "--tour", "tagscope validate", "tagscope diff"], "round trip")
  }

  func testKeysNamesEveryKeyAndMark() throws {
    let page = try page("keys")
    assertMentions(page, DebuggerReference.keys.map(\.key), "key")
    assertMentions(page, DebuggerReference.keys.map(\.action), "action")
    assertMentions(page, DebuggerReference.legend.map(\.mark), "mark")
  }

  func testFilterNamesEveryKeyTheParserTakes() throws {
    let page = try page("filter")
    assertMentions(page, Filter.keys, "filter key")
    assertMentions(page, DebuggerReference.filterTerms.map(\.meaning), "term")
    // Each key the parser takes has its row in the debugger's table (the help box's filter lines).
    for key in Filter.keys {
      let stem = key.replacingOccurrences(of: "NAME", with: "")
      XCTAssertTrue(DebuggerReference.filterTerms.contains { $0.term.hasPrefix(stem) }, "no row for \(key)")
    }
    // Each listed key is one the parser takes (an unknown key is refused, naming the list).
    for key in Filter.keys {
      let term = key.replacingOccurrences(of: "NAME", with: "x") + (key == "status" ? ":sent" : ":violations")
      if case .failure(let error) = Filter.parse(term) {
        XCTAssertFalse(error.message.contains("unknown key"), "\(term): \(error.message)")
      }
    }
    guard case .failure(let error) = Filter.parse("bogus:1") else { return XCTFail("bogus: parsed") }
    XCTAssertTrue(error.message.contains(Filter.keys.joined(separator: ", ")), error.message)
  }

  func testListenNamesEveryEndpointAndRoute() throws {
    let page = try page("listen")
    assertMentions(page, ListenEndpoints.eventPaths.map(\.path), "SDK path")
    assertMentions(page, ListenEndpoints.queryRoutes.map(\.path), "query route")
    assertMentions(page, ["--bind 0.0.0.0", "--token", "NSLocalNetworkUsageDescription"], "device set-up")
  }

  func testQANamesEveryFormat() throws {
    let page = try page("qa")
    assertMentions(page, ReportFormat.allCases.map(\.rawValue), "report format")
    assertMentions(page, DiffFormat.allCases.map(\.rawValue), "diff format")
    assertMentions(page, ImportFormat.allCases.map(\.rawValue), "import format")
  }

  func testUITestsAndBenchNameTheirTables() throws {
    assertMentions(try page("uitests"), ListenEndpoints.queryRoutes.map(\.path), "query route")
    let bench = try page("bench")
    assertMentions(bench, BenchmarkGroup.allCases.map(\.rawValue), "benchmark group")
    assertMentions(bench, BenchmarkGroup.allCases.map(\.summary), "benchmark summary")
  }

  func testPlanIsTheFormatReference() throws {
    XCTAssertEqual(try page("plan"), PlanFormatReference.text)
  }
}
