import AnalyticsHub
import XCTest

@testable import TagscopeServer

/// An upload of at most ``BulkDelivery/offloadEvents`` records is read into its records in one pass
/// (``FirebaseUploadBuilder``), a larger one indexed and built a slice at a time
/// (``FirebaseUploadIndex``): both must give the records of the batch decoded whole
/// (`FirebaseUploadReference`), their annotations in the same order (equality of properties does
/// not see their order; a recording and the debugger do), the fields the schema lacks on every
/// record wherever they are.
final class FirebaseUploadBuilderTests: XCTestCase, ProtobufWriting {
  /// Two bundles with fields the schema lacks: the first in its own fields, in an event and in a
  /// user property; the second in its own fields only. And a bundle with none, which makes no record.
  private static func unknownEverywhere() -> [UInt8] {
    let event = field(2, field(1, field(1, "_o") + field(2, "app")) + field(2, "tap") + field(9, int: 7))
    let plain = field(2, field(2, "_e") + field(3, int: 1_700_000_000_000))
    let property = field(3, field(2, "plan") + field(3, "pro") + field(12, "extra"))
    let first = field(45, int: 3) + event + plain + property + field(21, "device-1") + field(8, "android")
    let second =
      plain + field(3, field(2, "_id") + field(3, "u-2")) + field(46, "note") + field(21, "device-2")
    return field(1, first) + field(1, field(47, int: 1)) + field(1, second)
  }

  /// The records of `body` as the builder, the index and the whole decoding give them.
  private func assertAllThreeAgree(
    _ body: [UInt8], _ label: String, file: StaticString = #filePath, line: UInt = #line
  )
    throws
  {
    let protobuf = try XCTUnwrap(FirebaseUploadDecoding.protobuf(body), label, file: file, line: line)
    let counts = try FirebaseUploadShape.check(protobuf).get()
    let built = try FirebaseUploadBuilder.records(protobuf, count: counts.records).get()
    let index = try FirebaseUploadIndex.make(protobuf, records: counts.records).get()
    let indexed = index.events(0..<index.count)
    let whole = try FirebaseUploadReference.records(body)
    XCTAssertEqual(built, whole, label, file: file, line: line)
    XCTAssertEqual(indexed, whole, label, file: file, line: line)
    for (position, (one, other)) in zip(built, indexed).enumerated() {
      XCTAssertEqual(
        one.annotations.keys, other.annotations.keys, "\(label) record \(position)", file: file, line: line)
      XCTAssertEqual(
        one.properties.keys, other.properties.keys, "\(label) record \(position)", file: file, line: line)
    }
    for (position, (one, other)) in zip(built, whole).enumerated() {
      XCTAssertEqual(
        one.annotations.keys, other.annotations.keys, "\(label) record \(position)", file: file, line: line)
    }
  }

  func testEveryRealUploadIsBuiltAsTheIndexAndTheWholeDecodingGiveIt() throws {
    for name in [
      "android-2021.pb", "android-2021.pb.gz", "android-2024.pb.gz", "ios-2020-raw.pb",
      "ios-2023-first-open.pb",
    ] {
      try assertAllThreeAgree(try FirebaseUploadFixtureTests.fixture(name), name)
    }
    try assertAllThreeAgree(FirebaseWireWalkTests.synthetic(), "synthetic")
  }

  func testFieldsTheSchemaLacksAreOnEveryRecordInTheOrderTheWholeDecodingListsThem() throws {
    let body = Self.unknownEverywhere()
    try assertAllThreeAgree(body, "unknown everywhere")
    let records = try FirebaseUploadEndpoint.decode(body).get()
    XCTAssertEqual(records.count, 5)
    let expected = [
      "bundle 1 field 45 (varint 3)", "bundle 1 event 1 field 9 (varint 7)",
      "bundle 1 user property 1 field 12 (\"extra\")", "bundle 2 field 47 (varint 1)",
      "bundle 3 field 46 (\"note\")",
    ]
    for record in records {
      XCTAssertEqual(
        record.annotations["unknown_fields"],
        .object(["count": .int(5), "fields": .array(expected.map(PropertyValue.string))]), record.name)
      // After the bundle's context, before the record's own annotations.
      let keys = record.annotations.keys
      let note = try XCTUnwrap(keys.firstIndex(of: "unknown_fields"))
      XCTAssertEqual(keys[note + 1], keys.contains("origin") ? "origin" : "short_name", "\(keys)")
    }
    XCTAssertEqual(
      Payload.object(records[0].annotations["unread"]).keys,
      [
        "bundle 1 field 45", "bundle 1 event 1 field 9", "bundle 1 user property 1 field 12",
        "bundle 2 field 47",
        "bundle 3 field 46",
      ])
    // Fields the schema lacks only in the bundles' own fields: known before any record is made.
    let bundlesOnly = Self.field(1, Self.field(45, int: 3) + Self.field(2, Self.field(2, "_e")))
    try assertAllThreeAgree(bundlesOnly, "bundles only")
  }

  func testAShortNameTableFindsWhatItsDictionaryHoldsAndNothingElse() {
    var pairs = FirebaseShortNames.parameters
    pairs["a-name-past-eight-bytes"] = "long"
    pairs["_x\u{0}"] = "zero byte"
    let table = FirebaseShortNameTable(pairs)
    for (name, value) in pairs { XCTAssertEqual(table[name], value, name) }
    for name in ["", "_", "_ox", "o", "_sn2", "a-name-past-eight-byte", "_x", "\u{0}", "é_o"] {
      XCTAssertNil(table[name], name)
    }
    let events = FirebaseShortNameTable(FirebaseShortNames.events)
    for (name, value) in FirebaseShortNames.events { XCTAssertEqual(events[name], value, name) }
  }

  func testAPlaceIsItsPrefixAndTheNumbersDigits() {
    for number in [-1, 0, 1, 9, 10, 99, 100, 4_000, 65_535, Int.max] {
      XCTAssertEqual(FirebaseRecordPlaces.place("bundle 2 event ", number), "bundle 2 event \(number)")
      XCTAssertEqual(FirebaseRecordPlaces.place("", number), "\(number)")
      XCTAssertEqual(FirebaseRecordPlaces.place("écran ", number), "écran \(number)")
    }
  }

  /// The places made once (the first bundles' first records) are the places made each time.
  func testThePlacesMadeOnceAreThePlacesMadeForEachRecord() {
    for bundle in [-1, 0, 1, 2, FirebaseRecordPlaces.madeBundles, FirebaseRecordPlaces.madeBundles + 1, 70] {
      let places = FirebaseRecordPlaces(bundle: bundle)
      for number in [-1, 0, 1, 2, 9, 10, 63, 64, 65, 256, 10_000] {
        XCTAssertEqual(places.event(number), "bundle \(bundle) event \(number)")
        XCTAssertEqual(places.property(number), "bundle \(bundle) user property \(number)")
      }
    }
  }

  /// Bundles whose own fields the schema lacks, of every wire type it keeps (varint, fixed32,
  /// fixed64, text, bytes that are not text, text past 64 bytes), more of them than a note lists,
  /// and a key written in three bytes (which the walk leaves to SwiftProtobuf).
  func testEveryKindOfFieldTheSchemaLacksInABundleIsListedAsTheWholeDecodingListsIt() throws {
    let event = Self.field(2, Self.field(2, "_e") + Self.field(3, int: 1_700_000_000_000))
    var own = Self.field(45, int: 3) + Self.varint(46 << 3 | 5) + [1, 2, 3, 4] + Self.varint(47 << 3 | 1)
    own += [1, 2, 3, 4, 5, 6, 7, 8] + Self.field(48, "note") + Self.field(49, [0x01, 0x02, 0xff])
    own += Self.field(50, String(repeating: "long ", count: 14))
    own += (0..<40).flatMap { Self.field(80 + UInt64($0), int: UInt64($0)) }
    let walked = Self.field(1, own + event + Self.field(21, "device-1"))
    // Field 51 as a varint, its key 408 written in three bytes instead of two.
    let threeByteKey = Self.field(1, [0x98, 0x83, 0x00, 0x07] + event + Self.field(21, "device-2"))
    try assertAllThreeAgree(walked + threeByteKey, "every kind")
    let records = try FirebaseUploadEndpoint.decode(walked + threeByteKey).get()
    guard case .object(let note)? = records[1].annotations["unknown_fields"] else {
      return XCTFail("no note on the second bundle's record")
    }
    XCTAssertEqual(note["count"], .int(47))
    XCTAssertEqual(Payload.array(note["fields"])?.count, FirebaseUnknownFields.listed)
    XCTAssertEqual(Payload.object(records[0].annotations["unread"])["bundle 2 field 51"], .string("varint 7"))
  }

  /// A bundle the walk leaves to SwiftProtobuf (a field it declares, of another wire type) has the
  /// context, annotations and their order the whole decoding gives.
  func testABundleSwiftProtobufReadsHasTheRecordsOfTheWholeDecoding() throws {
    let event = Self.field(2, Self.field(1, Self.parameter("item", "x")) + Self.field(2, "buy"))
    let platformAsNumber = Self.field(
      1, Self.field(8, int: 5) + Self.field(45, int: 1) + event + Self.field(21, "d"))
    try assertAllThreeAgree(
      platformAsNumber + Self.field(1, event + Self.field(8, "ios")), "platform as a number")
  }

  /// An upload with two bad messages is refused naming the one the whole decoding meets first, in
  /// the wire's order, though the builder reads a bundle's own fields and user properties first.
  func testARefusalNamesTheFirstBadMessageInTheWiresOrder() throws {
    let notText: [UInt8] = [0xff]
    let bodies: [(String, [UInt8], String)] = [
      (
        "an event's name that is not text, then a cut user property",
        Self.field(
          1,
          Self.field(1, int: 1) + Self.field(2, Self.field(2, notText)) + Self.field(3, [0x10])
            + Self.field(21, "d")),
        "a string field is not UTF-8"
      ),
      (
        "an event's name that is not text, then a bundle with a stray group end",
        Self.field(1, Self.field(2, Self.field(2, notText)))
          + Self.field(1, [0x0c] + Self.field(2, Self.field(2, "e"))),
        "a string field is not UTF-8"
      ),
      (
        "a cut user property, then a bundle whose platform is not text",
        Self.field(1, Self.field(2, Self.field(2, "e")) + Self.field(3, [0x10]))
          + Self.field(1, Self.field(8, notText) + Self.field(2, Self.field(2, "e"))),
        "truncated protobuf"
      ),
    ]
    for (label, body, words) in bodies {
      guard case .failure(let refusal) = FirebaseUploadEndpoint.decode(body),
        case .failure(let whole) = FirebaseUploadEndpoint.decodeBatch(body)
      else {
        XCTFail("\(label): not refused")
        continue
      }
      XCTAssertEqual(refusal, whole, label)
      XCTAssertEqual(refusal.message, FirebaseUploadError.schema(words).message, label)
    }
  }
}
