import AnalyticsHub
import XCTest

@testable import TagscopeRecording

/// Integers past `Int`'s range are kept as their digits: read, written back unchanged, compared
/// exactly. Before, the JSON cursor made them doubles, so 2^64 came back as
/// `1.8446744073709552e+19` and equalled 2^64 + 1.
final class LargeIntegerTests: XCTestCase {
  private static let line =
    #"{"seq":18446744073709551615,"time":"2026-11-21T10:00:01.000Z","kind":"event","name":"big","#
    + #""properties":{"above":18446744073709551616,"below":-9223372036854775809,"#
    + #""list":[123456789012345678901234567890,-1,1.5],"max":9223372036854775807,"min":-9223372036854775808},"#
    + #""context":{"history":[]},"outputs":[{"provider":"firebase","status":"sent","calls":[{"method":"logEvent","#
    + #""name":"big","parameters":{"value":18446744073709551616}}]}]}"#

  func testARecordWithLargeIntegersRoundTripsByteForByte() throws {
    let record = try RecordLineDecoder.decodeRecord(Self.line)
    XCTAssertEqual(record.seq, UInt64.max)
    XCTAssertEqual(
      record.properties["above"], .largeInteger(try XCTUnwrap(LargeInteger("18446744073709551616"))))
    XCTAssertEqual(
      record.properties["below"], .largeInteger(try XCTUnwrap(LargeInteger("-9223372036854775809"))))
    XCTAssertEqual(record.properties["max"], .int(.max))
    XCTAssertEqual(record.properties["min"], .int(.min))
    XCTAssertEqual(RecordLineEncoder.line(record), Self.line)
  }

  func testTheParserKeepsDigitsAndTellsNeighboursApart() throws {
    let above = try JSONParser.parse("18446744073709551616")
    let next = try JSONParser.parse("18446744073709551617")
    XCTAssertEqual(above.displayText, "18446744073709551616")
    XCTAssertNotEqual(above, next)
    XCTAssertEqual(above.typeName, "integer")
    XCTAssertEqual(try JSONParser.parse("1e20"), .double(1e20))
    XCTAssertEqual(try JSONParser.parse("18446744073709551616.0"), .double(18_446_744_073_709_551_616))
    XCTAssertEqual(try JSONParser.parse("-0"), .int(0))
  }

  func testLargeIntegersAreCanonicalAndOnlyOutsideInt() {
    XCTAssertNil(LargeInteger("9223372036854775807"))
    XCTAssertNil(LargeInteger("-9223372036854775808"))
    XCTAssertNil(LargeInteger("0000000000000000000000042"))
    XCTAssertNil(LargeInteger("1.5"))
    XCTAssertNil(LargeInteger("12a"))
    XCTAssertNil(LargeInteger("-"))
    XCTAssertEqual(LargeInteger("+00018446744073709551616")?.text, "18446744073709551616")
    XCTAssertEqual(LargeInteger("-9223372036854775809")?.text, "-9223372036854775809")
    XCTAssertEqual(PropertyValue.integer(digits: "42"), .int(42))
    XCTAssertEqual(PropertyValue.integer(digits: "18446744073709551615")?.typeName, "integer")
  }

  func testNumbersCompareExactly() throws {
    func value(_ text: String) -> PropertyValue {
      PropertyValue.integer(digits: text) ?? .double(Double(text)!)
    }
    let ordered: [PropertyValue] = [
      value("-100000000000000000000000"), value("-9223372036854775810"), value("-9223372036854775809"),
      .double(-9_223_372_036_854_775_808), .int(-1), .double(-0.5), .int(0), .double(0.5), .int(.max),
      .double(9_223_372_036_854_775_808), value("9223372036854775809"), value("18446744073709551615"),
      value("18446744073709551616"), .double(18_446_744_073_709_551_616 * 2), value("36893488147419103233"),
      value("100000000000000000000000"),
    ]
    for (i, left) in ordered.enumerated() {
      for (j, right) in ordered.enumerated() {
        XCTAssertEqual(NumberOrder.compare(left, right), i < j ? -1 : i == j ? 0 : 1, "\(left) vs \(right)")
      }
    }
    // A double holding 2^64 exactly equals the integer 2^64, not 2^64 - 1.
    XCTAssertEqual(NumberOrder.compare(value("18446744073709551616"), .double(18_446_744_073_709_551_616)), 0)
    XCTAssertEqual(
      NumberOrder.compare(value("18446744073709551615"), .double(18_446_744_073_709_551_616)), -1)
    XCTAssertEqual(NumberOrder.compare(.int(.min), .double(-9_223_372_036_854_775_808)), 0)
    XCTAssertNil(NumberOrder.compare(.int(1), .string("1")))
    XCTAssertNil(NumberOrder.compare(.int(1), .double(.nan)))
  }
}
