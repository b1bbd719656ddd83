import Foundation
import TagscopeBasics
import TagscopeTimeline
import XCTest

@testable import TaggingPlan

/// Issue 31: no pattern and no value can stall a check. A pattern expanding past
/// ``LinearPattern/maximumSize`` instructions is refused where it is written; an accepted one is
/// matched by a lazily built DFA, whatever its shape.
final class PatternBoundsTests: XCTestCase {
  private func foundation(_ pattern: String, _ text: String) -> Bool? {
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
    return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
  }

  func testTheIssuesBombsAreRefusedNamingTheQuantifierAndTheLimit() {
    for (pattern, offset) in [
      ("(a|aa|aaa|aaaa){900}b", 15), ("(a?){300}(a?){300}(a?){300}(a?){300}", 13), ("x((){1000}){1000}", 11),
      ("[a-z]{1000}[0-9]{1000}", 5), ("((a{1000}){1000}){1000}", 17),
    ] {
      XCTAssertThrowsError(try LinearPattern(pattern), pattern) { error in
        let error = error as? PatternError
        XCTAssertEqual(error?.offset, offset, pattern)
        XCTAssertTrue(
          error?.reason.contains("expands to more than \(LinearPattern.maximumSize) steps") == true,
          "\(pattern): \(String(describing: error))")
      }
    }
  }

  func testABombInAPlanIsRefusedAtItsFileLineAndColumn() {
    let yaml = "plan: P\nactions:\n  play:\n    properties:\n      id: {pattern: \"(a|aa|aaa|aaaa){900}b\"}\n"
    XCTAssertThrowsError(try PlanLoader.load(yaml: yaml, file: "bomb.yaml")) { error in
      let text = "\(error)"
      XCTAssertTrue(text.contains("bomb.yaml:5:21"), text)
      XCTAssertTrue(text.contains("at 15: the pattern expands to more than 1000 steps"), text)
      XCTAssertTrue(text.contains("(a|aa|aaa|aaaa){900}b"), text)
    }
  }

  func testTheLargestAcceptedRepetitionsMatchLongValuesRight() throws {
    // (a?){300}a{300}: 11 s on one value before; it matches 300 a's in a row, nothing shorter.
    let bomb = try PlanPattern("(a?){300}a{300}")
    XCTAssertTrue(bomb.matches(String(repeating: "a", count: 300)))
    XCTAssertFalse(bomb.matches(String(repeating: "a", count: 299)))
    let long = String(repeating: String(repeating: "a", count: 299) + "b", count: 340)
    XCTAssertFalse(bomb.matches(long), "100 KB, no run of 300")
    XCTAssertTrue(bomb.matches(long + String(repeating: "a", count: 300)))
    let bounded = try LinearPattern("^[a-z_]{1,499}$")
    XCTAssertTrue(bounded.matches(String(repeating: "ab_", count: 166)))
    XCTAssertFalse(bounded.matches(String(repeating: "ab_", count: 166) + "ab"))
    XCTAssertFalse(bounded.matches(""))
  }

  func testAPatternWhoseDFAIsExponentialFallsBackAndStillAgreesWithFoundation() throws {
    // a[ab]{16}c: the DFA needs a state per 17-letter window, more than its tables keep, so it
    // clears them and then runs thread by thread; the answers stay Foundation's.
    var random = SystemRandomNumberGenerator()
    let letters: [Character] = ["a", "b"]
    var text = String((0..<30_000).map { _ in letters[Int(random.next() % 2)] })
    for pattern in ["a[ab]{16}c", "a[ab]{16}$", "b.{15}a"] {
      let linear = try LinearPattern(pattern)
      XCTAssertEqual(linear.matches(text), foundation(pattern, text), pattern)
      XCTAssertEqual(linear.matches(text + "c"), foundation(pattern, text + "c"), pattern)
    }
    text = String(repeating: "ab", count: 20_000)
    XCTAssertFalse(try LinearPattern("a[ab]{16}c").matches(text))
    XCTAssertTrue(
      try LinearPattern("a[ab]{16}c").matches(text + "a" + String(repeating: "b", count: 16) + "c"))
  }

  func testEveryIgluCentralPatternCompilesAndAgreesWithFoundation() throws {
    let values = [
      "", "1.2.3", "10.20.30-rc1", "1.2", "v1.2.3", "$ENV_NAME", "$", "s3://bucket/key", "http://x",
      "iglu:com.acme/event/jsonschema/1-0-0", "iglu:com.acme/event/jsonschema/1-*-*",
      "iglu:com.acme/event/jsonschema/0-0-0", "abc-DEF_1.2", "abc def", "2026-11-25.123",
      "12.5,-3.25", "1920x1080", "1920.5/1080", "sp_ABCDEFGHIJKLMNOPQRSTUVWXYZ", "sp_abc",
      "3f2504e0-4f89-11d3-9a0c-0305e82c3301", "3F2504E0-4F89-11D3-9A0C-0305E82C3301", "0123456789abcdef",
      "QUJD", "QUI=", "QQ==", "QUJDRA=", "é", String(repeating: "QUJD", count: 2_500),
      String(repeating: "a-b_c.", count: 2_000) + " ",
    ]
    XCTAssertEqual(igluCentralPatterns.count, 25)
    var compared = 0
    for (pattern, schema) in igluCentralPatterns {
      let linear = try LinearPattern(pattern)
      for value in values {
        guard let expected = foundation(pattern, value) else { continue }
        XCTAssertEqual(linear.matches(value), expected, "/\(pattern)/ (\(schema)) on \"\(value.prefix(40))\"")
        compared += 1
      }
    }
    XCTAssertEqual(compared, 25 * values.count)
  }

  func testSubstringTermsAreLiteralPatternsThatAgreeWithFoundation() throws {
    var state: UInt64 = 31
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let letters = Array("aAbB-_ .")
    for _ in 0..<500 {
      let needle = String((0...next(4)).map { _ in letters[next(letters.count)] })
      let text = String((0..<next(20)).map { _ in letters[next(letters.count)] })
      let literal = try XCTUnwrap(LinearPattern(caseInsensitiveLiteral: needle))
      XCTAssertEqual(
        literal.matches(text), text.range(of: needle, options: .caseInsensitive) != nil,
        "\(needle) in \(text)")
    }
    XCTAssertNil(LinearPattern(caseInsensitiveLiteral: ""))
    XCTAssertNil(LinearPattern(caseInsensitiveLiteral: "café"), "not ASCII: a plain search")
    // A 1,000-character needle in 100 KB: 5 s in a plain search.
    let value = String(repeating: "a", count: 100_000)
    let matcher = FilterTerms.matcher(.substring(String(repeating: "a", count: 999) + "b"))
    XCTAssertFalse(matcher(value))
    XCTAssertTrue(matcher(value + "B"))
  }

  func testRandomPatternsAgreeWithFoundationStepByStepAndThreadByThread() throws {
    // Alternations, optional and counted parts, classes and assertions; texts short (the DFA) and
    // 20,000 scalars (the tables fill and the bit-set stepping takes over).
    let atoms = [
      "a", "b", "c", ".", "[ab]", "[^a]", "\\w", "\\W", "(a|b)", "(ab|ba|a)", "\\b", "\\B", "^", "$", " ",
      "(a|.)",
      "(|a)", "[a-c]", "\\d", "\\s",
    ]
    let letters = Array("aab c-1_".unicodeScalars)
    var state: UInt64 = 17
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var compared = 0
    for round in 0..<300 {
      var pattern = ""
      while pattern.count < 1 + next(12) {
        var atom = atoms[next(atoms.count)]
        if next(3) == 0 { atom = "(" + atom + (next(2) == 0 ? "|" : "") + atoms[next(atoms.count)] + ")" }
        atom += ["*", "{\(next(4)),\(4 + next(4))}", "?", "+", "{\(next(5))}", "", ""][next(7)]
        pattern += atom
      }
      guard let linear = try? LinearPattern(pattern) else { continue }
      for index in 0..<8 {
        let length = round % 20 == 0 && index == 0 ? 20_000 : next(40)
        let text = String(String.UnicodeScalarView((0..<length).map { _ in letters[next(letters.count)] }))
        guard let expected = foundation(pattern, text) else { continue }
        XCTAssertEqual(linear.matches(text), expected, "/\(pattern)/ on \"\(text.prefix(60))\"")
        compared += 1
      }
    }
    XCTAssertGreaterThan(compared, 1_500)
    // (a|b) is one set, not an alternation of four steps: 500 of them fit in the limit.
    XCTAssertTrue(try LinearPattern("^(a|b){500}$").matches(String(repeating: "ab", count: 250)))
  }

  func testMatchingFromManyThreadsAtOnceAgrees() throws {
    let pattern = try LinearPattern("^[a-z]+_[0-9]{2,4}$")
    let values = (0..<2_000).map { $0 % 3 == 0 ? "screen_\(1_000 + $0)" : "screen-\($0)" }
    let wrong = LockedCount()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for (index, value) in values.enumerated() where pattern.matches(value) != (index % 3 == 0) {
        wrong.add()
      }
    }
    XCTAssertEqual(wrong.value, 0)
  }
}

private final class LockedCount: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func add() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}
