import Foundation
import XCTest

@testable import TagscopeBasics

/// Issue 31, pattern memory: a pattern's lookup tables are capped (past the cap it steps without
/// them, finding the same matches), and the cache of compiled filter patterns keeps the tables of
/// all its patterns within a byte budget, evicting the least recently used.
final class PatternMemoryTests: XCTestCase {
  /// Letters and spaces from a fixed seed, so `\b` sees every pair of position kinds.
  private func text(_ count: Int, seed: UInt64, alphabet: [Character] = ["a", "b", " "]) -> String {
    var state = seed
    return String(
      (0..<count).map { _ -> Character in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return alphabet[Int(state >> 33) % alphabet.count]
      })
  }

  /// Before, the largest pattern with `\b` could take 4.6 MB of closure tables.
  func testTheLargestPatternWithAssertionsKeepsItsTablesWithinTheCap() throws {
    let pattern = try LinearPattern(#"\b[ab]{995}\b"#)
    _ = pattern.matches(text(20_000, seed: 1))
    _ = pattern.matches(String(repeating: "ab ", count: 4_000))
    XCTAssertGreaterThan(pattern.tableBytes, 0)
    XCTAssertLessThanOrEqual(pattern.tableBytes, PatternAutomaton.budget * 8 + BitStepper.tableLimit + 16_384)
  }

  func testWithoutRoomForTablesThePatternFindsTheSameMatches() throws {
    let patterns = [
      #"\b[ab]{20}\b"#, "(a|b)*a(a|b){40}c", "^(ab|a)*b$", "a[ab]{60}c", "((a|b)*a){10}c",
      #"\wa(a|b){5,30}$"#,
      #"^\b(a|b b)+\b$"#, "(a?){30}a{30}",
    ]
    for (index, source) in patterns.enumerated() {
      let tabled = try LinearPattern(source)
      let meter = PatternTableMeter(limit: 0)
      let untabled = try LinearPattern(source, meter: meter)
      for seed in 0..<40 {
        let value = text(10 + seed * 7, seed: UInt64(index * 100 + seed), alphabet: ["a", "b", " ", "c"])
        XCTAssertEqual(untabled.matches(value), tabled.matches(value), "\(source) on \(value)")
      }
      // Only what every pattern needs is taken past the limit: the start rows, a few words.
      XCTAssertLessThan(meter.bytes, 4_096, source)
    }
  }

  func testTheCacheKeepsItsPatternsTablesWithinItsBudget() throws {
    let cache = PatternCache(byteBudget: 1 << 20)
    // Runs of letters keep hundreds of threads alive: each pattern builds many DFA states.
    let value = text(5_000, seed: 7, alphabet: ["a", "b"])
    for index in 0..<24 {
      let pattern = try cache.pattern(#"\b[ab]{990}\b|x\#(index)"#).get()
      _ = pattern.matches(value)
      // The limit, plus what every live pattern takes whatever the meter says (its start rows).
      XCTAssertLessThanOrEqual(cache.meter.bytes, cache.meter.limit + 24 * 4_096, "pattern \(index)")
    }
    XCTAssertLessThan(cache.count, 24, "the least recently used were evicted")
    // Evicted patterns no longer held give their bytes back.
    XCTAssertLessThanOrEqual(cache.meter.bytes, cache.meter.limit)
  }
}
