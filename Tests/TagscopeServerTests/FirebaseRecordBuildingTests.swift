import AnalyticsHub
import XCTest

@testable import TagscopeServer

/// The pieces issue 45's faster record building rests on give what the slower ones gave: the wire
/// walk's text (``FirebaseWireWalk/text(_:)``) is `String(validating:as:)`'s for every byte
/// string, a record's properties built a pair at a time (``FirebaseUniqueProperties``) are
/// ``FirebaseLogRecords/properties(_:)``'s, in the same order, and the context of a bundle with
/// fields the schema lacks, walked past them, is the one its decoded message gives.
final class FirebaseRecordBuildingTests: XCTestCase, ProtobufWriting {
  /// ASCII, multi-byte UTF-8 and invalid bytes, each at every place in and past the first words.
  func testWireTextIsValidatedUTF8() {
    var samples: [[UInt8]] = [[], Array("a".utf8), Array("screen_view".utf8), Array("é".utf8)]
    let bad: [[UInt8]] = [
      [0x80], [0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xc3, 0xa9], [0xf0, 0x9f, 0x98, 0x80],
    ]
    for length in [1, 7, 8, 9, 15, 16, 17, 24, 31] {
      for at in 0..<length {
        for bytes in bad where at + bytes.count <= length {
          var sample = [UInt8](repeating: UInt8(ascii: "x"), count: length)
          sample.replaceSubrange(at..<at + bytes.count, with: bytes)
          samples.append(sample)
        }
      }
    }
    var invalid = 0
    for sample in samples {
      let expected = sample.withUnsafeBufferPointer { String(validating: $0, as: UTF8.self) }
      if expected == nil { invalid += 1 }
      XCTAssertEqual(sample.withUnsafeBufferPointer(FirebaseWireWalk.text), expected, "\(sample)")
    }
    XCTAssertGreaterThan(invalid, 100, "invalid text in every word and the tail")
  }

  /// Repeated keys, below and past the linear search's 12 keys, as the pairs' properties.
  func testPropertiesBuiltAPairAtATimeAreThePairs() {
    for count in [0, 1, 3, 11, 12, 13, 14, 30, 100] {
      for distinct in [1, 5, 12, 13, 40] {
        let pairs = (0..<count).map { index in
          ("key\((index * 7) % distinct)", PropertyValue.int(index))
        }
        var built = FirebaseUniqueProperties(capacity: count)
        for (key, value) in pairs { built.set(key, value) }
        let expected = FirebaseLogRecords.properties(pairs)
        XCTAssertEqual(built.properties.map(\.key), expected.map(\.key), "\(count) of \(distinct)")
        XCTAssertEqual(built.properties.map(\.value), expected.map(\.value), "\(count) of \(distinct)")
      }
    }
  }

  /// Fields the schema lacks of every wire type among a bundle's own, before, between and after
  /// them (a two-byte key, a repeated field: the last counts), then a group, which only
  /// SwiftProtobuf reads: the records are those of the upload decoded whole, each field listed.
  func testABundleWithFieldsTheSchemaLacksHasTheContextItsMessageGives() throws {
    let unknown =
      Self.field(45, int: 300) + Self.varint(99 << 3 | 1) + [1, 2, 3, 4, 5, 6, 7, 8]
      + Self.field(500, "opaque")
      + Self.varint(1000 << 3 | 5) + [9, 9, 9, 9]
    let event = Self.field(2, Self.parameter("level", "3") + Self.field(2, "level_up"))
    let known =
      Self.field(21, "device-1") + Self.field(8, "android") + Self.field(9, "14")
      + Self.field(17, int: 201_000)
      + Self.field(8, "ios")
    let bundle =
      unknown + Self.field(1, int: 1) + event + known + unknown
      + Self.field(3, Self.field(2, "_id") + Self.field(3, "u-1"))
    let group = Self.varint(77 << 3 | 3) + Self.field(1, int: 5) + Self.varint(77 << 3 | 4)
    for body in [Self.field(1, bundle), Self.field(1, bundle + group)] {
      let records = try FirebaseUploadEndpoint.decode(body).get()
      XCTAssertEqual(records, try FirebaseUploadReference.records(body))
      XCTAssertEqual(records.map(\.name), ["level_up", "user_id"])
      let annotations = records[0].annotations
      XCTAssertEqual(annotations["app_instance_id"], .string("device-1"))
      XCTAssertEqual(annotations["platform"], .string("ios"), "the last of a repeated field")
      XCTAssertEqual(annotations["os_version"], .string("14"))
      XCTAssertEqual(annotations["gmp_version"], .int(201_000))
      XCTAssertEqual(annotations["protocol_version"], .int(1))
      XCTAssertEqual(records[0].identity.userID, "u-1")
      let fields = try XCTUnwrap(Payload.object(annotations["unknown_fields"])["fields"], "\(annotations)")
      XCTAssertTrue("\(fields)".contains("bundle 1 field 1000"), "\(fields)")
    }
  }
}
