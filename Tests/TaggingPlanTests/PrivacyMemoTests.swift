import AnalyticsHub
import Foundation
import XCTest

@testable import TaggingPlan

/// The privacy check's cheap parts: the one-pass summary of a text, counted a word at a time,
/// and the memo's table, keyed by a hash of the text's and the key's bytes.
final class PrivacyMemoTests: XCTestCase {
  /// The summary counts each byte class as a byte-by-byte count does, on texts longer than the
  /// 255 bytes one word sums (one class repeated 300 times, every byte value, mixed texts).
  func testTheSummaryCountsEachClassAsAByteByByteCount() {
    var texts: [[UInt8]] = [Array(0...255), Array((0...255).reversed())]
    for byte in "0@:.-beBx Z\u{7F}".utf8 {
      texts.append(Array(repeating: byte, count: 300))
      texts.append(Array(repeating: byte, count: 255) + Array("1 a".utf8))
    }
    var generator = SeededBytes(seed: 7)
    for length in [0, 1, 7, 8, 9, 254, 255, 256, 511, 1_000] {
      texts.append((0..<length).map { _ in generator.next() })
    }
    for text in texts {
      let summary = text.withUnsafeBufferPointer { PIIScanner.Summary($0) }
      func count(_ test: (UInt8) -> Bool) -> Int { text.filter(test).count }
      let token: Set<UInt8> = [UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "e")]
      XCTAssertEqual(summary.digits, count(PIIBytes.isDigit), "\(text)")
      XCTAssertEqual(summary.at, text.contains(UInt8(ascii: "@")), "\(text)")
      XCTAssertEqual(summary.colons, count { $0 == UInt8(ascii: ":") }, "\(text)")
      XCTAssertEqual(summary.dots, count { $0 == UInt8(ascii: ".") }, "\(text)")
      XCTAssertEqual(summary.dashes, count { $0 == UInt8(ascii: "-") }, "\(text)")
      XCTAssertEqual(summary.letters, count(PIIBytes.isAlpha), "\(text)")
      XCTAssertEqual(summary.spaces, count { $0 == UInt8(ascii: " ") }, "\(text)")
      XCTAssertEqual(summary.tokenLetters, text.contains { token.contains($0) }, "\(text)")
    }
  }

  /// Thousands of texts under a few keys, through a table that grows many times: each answer from
  /// memory is the answer of a fresh scan, per key.
  func testTheMemoAnswersEachTextPerKeyThroughItsGrowth() {
    let keys = ["id", "idfa", "phone", "note"]
    let texts = (0..<3_000).map { index in
      switch index % 4 {
      case 0: return "0F8FAD5B-D9CB-469F-A165-\(String(format: "%012d", index))"
      case 1: return "06 12 34 \(String(format: "%02d", index % 100)) \(String(format: "%02d", index / 100))"
      case 2: return "user\(index)@example.com"
      default: return "order \(index) of 2024"
      }
    }
    var memo = PrivacyMemo()
    for round in 0..<2 {
      for text in texts {
        for key in keys {
          let remembered = PrivacyScan.holdsAny([key: .string(text)], kinds: .all, memo: &memo)
          var fresh = PrivacyMemo()
          XCTAssertEqual(
            remembered, PrivacyScan.holdsAny([key: .string(text)], kinds: .all, memo: &fresh),
            "round \(round), \(key): \(text)")
        }
      }
    }
    XCTAssertEqual(memo.count, texts.count * keys.count)
  }

  /// Texts whose hashes share one slot are each remembered apart (up to the probe limit) and
  /// answered by their own bytes, not by a neighbour's.
  func testTextsHashedAlikeAreToldApartByTheirBytes() {
    var memo = PrivacyMemo()
    let texts = ["a@b.co", "0612345678", "x@y.fr", "0798765432"]
    for (index, text) in texts.enumerated() {
      let result = memo.result(for: text, textHash: 42, key: "k", looking: .all) {
        PrivacyMemo.Result(context: PIIKeyContext(), found: index % 2 == 0 ? [.email] : [])
      }
      XCTAssertEqual(result.found, index % 2 == 0 ? [.email] : [])
    }
    for (index, text) in texts.enumerated() {
      let result = memo.result(for: text, textHash: 42, key: "k", looking: .all) {
        XCTFail("\(text) was remembered")
        return PrivacyMemo.Result(context: PIIKeyContext(), found: [])
      }
      XCTAssertEqual(result.found, index % 2 == 0 ? [.email] : [], text)
    }
    XCTAssertEqual(memo.count, texts.count)
  }
}

/// Bytes from a fixed seed (a linear congruential generator), the same on every run.
private struct SeededBytes {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt8 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return UInt8(truncatingIfNeeded: state >> 33)
  }
}
