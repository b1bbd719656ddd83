import Foundation
import TagscopeBasics
import TagscopeFuzzing
import TagscopeTimeline
import XCTest

@testable import TaggingPlan

/// Plan patterns (and the debugger's name filter) run in time linear in the value, and agree with
/// a backtracking engine (Foundation's) wherever both apply.
final class LinearPatternTests: XCTestCase {
  private func foundation(_ pattern: String, _ text: String) -> Bool? {
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
    return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
  }

  func testTheCatastrophicPatternFromTheIssueIsFast() throws {
    let pattern = try PlanPattern("^([a-z0-9]+_?)+$")
    let start = DispatchTime.now().uptimeNanoseconds
    for length in 20..<30 {
      XCTAssertFalse(pattern.matches("page_view_" + String(repeating: "abcd", count: length) + "!"))
    }
    XCTAssertTrue(pattern.matches("page_view_abcd"))
    let long = String(repeating: "a_", count: 50_000) + "!"
    XCTAssertFalse(pattern.matches(long))
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    // A limit only a backtracking engine reaches (the long value would take it forever), not a
    // busy machine.
    XCTAssertLessThan(elapsed, 60, "12.7 s in a backtracking engine for the first ten alone")
  }

  func testHandPickedPatternsAgreeWithFoundation() throws {
    let patterns = [
      "^[a-z_]+$", "^screen_[0-9]{2,4}$", "a|b|", "(ab|a)(c|bcd)(d*)", "^$", "x*", "\\d+\\.\\d*",
      "^\\w+@\\w+$",
      "colou?r", "^(a+)+b$", "[^a-c]", "a{3}", "a{2,}", "^a{0,2}$", "\\bplay\\b", "\\Bay", "^(?:ab)*$",
      "(?<name>ab)c", "[a\\-z]", "[\\d_]+", "\\u00e9", "é", "[.]", "a.c", "^\\s*$", "\\S", "[]a]", "{",
      "a{,2}",
    ]
    let texts = [
      "", "a", "ab", "abc", "abcd", "page_view", "screen_12", "screen_12345", "x", "3.14", "me@host", "color",
      "colour", "aaab", "aaaa", "d", "play now", "replay", "abab", "abc", "-", "12_3", "café", "a.c", "abc ",
      "   ", "]", "a{,2}", "{",
    ]
    for pattern in patterns {
      let linear = try LinearPattern(pattern)
      for text in texts {
        guard let expected = foundation(pattern, text) else { continue }
        XCTAssertEqual(linear.matches(text), expected, "/\(pattern)/ on \"\(text)\"")
      }
    }
  }

  func testRandomPatternsAgreeWithFoundation() throws {
    var random = SeededGenerator(seed: 11)
    let atoms = ["a", "b", "c", ".", "[ab]", "[^a]", "\\d", "\\w", "_", "1"]
    func pattern(_ depth: Int) -> String {
      var parts: [String] = []
      for _ in 0..<(1 + random.below(3)) {
        var atom =
          depth < 2 && random.below(4) == 0
          ? "(" + pattern(depth + 1) + ")" : atoms[random.below(atoms.count)]
        switch random.below(6) {
        case 0: atom += "*"
        case 1: atom += "+"
        case 2: atom += "?"
        case 3: atom += "{\(random.below(3)),\(2 + random.below(2))}"
        default: break
        }
        parts.append(atom)
      }
      var text = parts.joined()
      if random.below(4) == 0 { text += "|" + atoms[random.below(atoms.count)] }
      if random.below(5) == 0 { text = "^" + text }
      if random.below(5) == 0 { text += "$" }
      return text
    }
    let alphabet = Array("abc1_ ")
    var compared = 0
    for _ in 0..<400 {
      let source = pattern(0)
      let linear = try LinearPattern(source)
      for _ in 0..<12 {
        let text = String((0..<random.below(9)).map { _ in alphabet[random.below(alphabet.count)] })
        guard let expected = foundation(source, text) else { continue }
        XCTAssertEqual(linear.matches(text), expected, "/\(source)/ on \"\(text)\"")
        compared += 1
      }
    }
    XCTAssertGreaterThan(compared, 4_000)
  }

  func testWhatALinearMatcherCannotDoIsRefusedWithItsPlace() {
    for (pattern, fragment) in [
      ("(a)\\1", "backreferences"), ("(?=a)", "lookahead"), ("(?<!a)b", "lookahead"),
      ("a{2000}", "above 1000"),
      ("(a", "missing )"), ("a)", "unmatched )"), ("*a", "nothing to repeat"), ("[z-a]", "out of order"),
      ("\\q", "unknown escape"), ("((((a{1000}){1000})))", "expands"),
    ] {
      XCTAssertThrowsError(try LinearPattern(pattern), pattern) { error in
        XCTAssertTrue("\(error)".contains(fragment), "\(pattern): \(error)")
      }
    }
    XCTAssertThrowsError(
      try LinearPattern(String(repeating: "(", count: 500) + String(repeating: ")", count: 500)))
  }
}
