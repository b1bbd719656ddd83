import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// Every parse is linear in its input, however many keys repeat: a 2.2 MB body whose last key
/// repeats took 100 s of CPU on an event loop, an 88,000-field Snowplow event 21 s.
/// The limits below only stop a quadratic parse that would run for minutes: a busy machine never
/// reaches them (`TagscopeBench`'s hostile.payload.ms measures the worst body's time).
final class LinearParseTests: XCTestCase {
  /// `count` distinct keys, then the last one `repeats` more times, as one JSON object.
  private func repeatedKeyObject(keys count: Int, repeats: Int) -> String {
    var text = "{"
    for index in 0..<count { text += "\"key\(index)\":\(index)," }
    for index in 0..<repeats { text += "\"key\(count - 1)\":\(index)," }
    text.removeLast()
    return text + "}"
  }

  private func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  func testRepeatedKeysKeepTheFirstPositionAndTheLastValue() throws {
    let value = try JSONParser.parse(repeatedKeyObject(keys: 40, repeats: 3))
    guard case .object(let object) = value else { return XCTFail("not an object") }
    XCTAssertEqual(object.count, 40)
    XCTAssertEqual(object.keys.last, "key39")
    XCTAssertEqual(object["key39"], .int(2))
    XCTAssertEqual(object["key0"], .int(0))
    // Repeats in the middle, once the keys are indexed: the key stays where it first was.
    let middle = try JSONParser.parse(
      #"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"c":30,"a":10,"n":14}"#
    )
    guard case .object(let mixed) = middle else { return XCTFail("not an object") }
    XCTAssertEqual(mixed.keys, ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n"])
    XCTAssertEqual(mixed["a"], .int(10))
    XCTAssertEqual(mixed["c"], .int(30))
  }

  func testTheLastKeyRepeated80000TimesParsesInLinearTime() throws {
    // Quadratic, this took 75 s in a release build; linear, well under a second.
    let text = repeatedKeyObject(keys: 40_000, repeats: 40_000)
    let elapsed = try seconds {
      guard case .object(let object) = try JSONParser.parse(text) else { return XCTFail("not an object") }
      XCTAssertEqual(object.count, 40_000)
      XCTAssertEqual(object["key39999"], .int(39_999))
    }
    XCTAssertLessThan(elapsed, 60, "\(text.utf8.count) bytes in \(elapsed) s")
  }

  func testARecordLineWithManyRepeatedExtraKeysReadsInLinearTime() throws {
    var line = #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"home""#
    for index in 0..<40_000 { line += ",\"x\(index)\":\(index)" }
    for index in 0..<40_000 { line += ",\"x39999\":\(index)" }
    line += "}"
    let elapsed = try seconds {
      let record = try RecordLineDecoder.decodeRecord(line)
      XCTAssertEqual(record.extra.count, 40_000)
      XCTAssertEqual(record.extra["x39999"], .int(39_999))
    }
    XCTAssertLessThan(elapsed, 60)
  }

  func testASnowplowEventWith88000FieldsIsLinear() throws {
    var fields: [(name: String, value: String)] = [("e", "se"), ("se_ac", "play"), ("se_ca", "media")]
    for index in 0..<44_000 { fields.append(("f\(index)", "v")) }
    for index in 0..<44_000 { fields.append(("f43999", "\(index)")) }
    var event: IngestedEvent?
    let elapsed = seconds { event = SnowplowEndpoint.event(fields, raw: "") }
    XCTAssertNotNil(event)
    XCTAssertLessThan(elapsed, 60)
  }

  func testMergingPropertiesIsLinearAndReplacesInPlace() {
    var properties: Properties = ["a": 1, "b": 2]
    let pairs = (0..<100_000).map { ("k\($0 % 1000)", PropertyValue.int($0)) } + [("a", .int(9))]
    let elapsed = seconds { properties.merge(pairs) }
    XCTAssertEqual(properties.count, 1002)
    XCTAssertEqual(properties.keys.prefix(3), ["a", "b", "k0"])
    XCTAssertEqual(properties["a"], .int(9))
    XCTAssertEqual(properties["k999"], .int(99_999))
    XCTAssertEqual(Properties(pairs).count, 1001)
    XCTAssertLessThan(elapsed, 60)
  }
}
