import Foundation
import XCTest

/// README.md is a first page: at most 200 lines, and every `tagscope help TOPIC` and DocC article
/// it sends the reader to exists.
final class ReadmeTests: XCTestCase {
  func testReadmeFitsInTwoHundredLines() throws {
    let readme = try DocExampleCoverageTests.read("README.md")
    let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count - 1
    XCTAssertLessThanOrEqual(lines, 200, "README.md is a first page: move the rest to a help topic or DocC")
  }

  func testEveryHelpTopicReadmeNamesExists() throws {
    let readme = try DocExampleCoverageTests.read("README.md")
    let named = Set(matches(of: #"`tagscope help ([a-z]+)`"#, in: readme))
    XCTAssertGreaterThanOrEqual(named.count, 6, "README's read-on table: \(named)")
    for topic in named.sorted() {
      let result = try BuiltProducts.run(["help", topic])
      XCTAssertEqual(result.status, 0, "tagscope help \(topic): \(result.error)")
      XCTAssertFalse(result.output.isEmpty, topic)
    }
  }

  func testEveryCatalogArticleReadmeNamesExists() throws {
    let readme = try DocExampleCoverageTests.read("README.md")
    let articles = try DocExampleCoverageTests.catalogArticles()
    let titles = try articles.map { try DocExampleCoverageTests.read($0).prefix { $0 != "\n" } }
    let named = matches(of: #"DocC: ([A-Za-z]+) › ([^|]+?) \|"#, in: readme, group: 2)
    XCTAssertGreaterThanOrEqual(named.count, 6)
    for title in named {
      XCTAssertTrue(titles.contains("# " + title), "README names the article \(title), no catalog has it")
    }
  }
}

/// The text of capture group `group` of each match of `pattern` in `text`.
private func matches(of pattern: String, in text: String, group: Int = 1) -> [String] {
  guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
  return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
    Range($0.range(at: group), in: text).map { String(text[$0]) }
  }
}
