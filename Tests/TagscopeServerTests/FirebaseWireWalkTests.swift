import AnalyticsHub
import Foundation
import TagscopeFuzzing
import XCTest

@testable import TagscopeServer

/// Issue 45's decode rate: the endpoint reads events and user properties straight from the wire
/// (``FirebaseWireWalk``) and leaves only unusual messages to SwiftProtobuf. Both ways must give
/// the same fields and records: every real upload of `Tests/Fixtures/firebase-upload` and a
/// synthetic one with every value kind, then seeded mutations of them, which must be accepted or
/// refused alike, with the same records.
final class FirebaseWireWalkTests: XCTestCase, ProtobufWriting {
  private static let fixtures = [
    "android-2021.pb", "android-2021.pb.gz", "android-2024.pb", "android-2024.pb.gz", "ios-2020-raw.pb",
    "ios-2023-first-open.pb", "ios-2023-first-open.pb.gz",
  ]

  private static func fixed32(_ number: UInt64, _ value: Float) -> [UInt8] {
    varint(number << 3 | 5) + withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init)
  }

  private static func fixed64(_ number: UInt64, _ value: Double) -> [UInt8] {
    varint(number << 3 | 1) + withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init)
  }

  /// An upload with every kind of value an event parameter and a user property hold, items in
  /// items, repeated fields (the last one counts), a negative integer, non-finite numbers, and an
  /// event and a user property with a field the schema lacks (read by SwiftProtobuf, reported).
  static func synthetic() -> [UInt8] {
    let item = field(6, field(1, "id") + field(2, "sku-1")) + field(6, field(1, "qty") + field(3, int: 2))
    let parameters =
      field(1, field(1, "price") + fixed64(5, 9.5)) + field(1, field(1, "ratio") + fixed32(4, 0.25))
      + field(1, field(1, "level") + field(3, int: UInt64(bitPattern: -3)))
      + field(1, field(1, "both") + field(2, "text") + field(3, int: 4))
      + field(1, field(1, "items") + field(6, item) + field(6, field(2, "plain")))
      + field(1, field(1, "odd") + fixed64(5, .infinity)) + field(1, field(1, "nan") + fixed32(4, .nan))
      + field(1, field(1, "empty")) + field(1, field(1, "first") + field(1, "renamed"))
    let purchase =
      field(
        2,
        parameters + field(2, "purchase") + field(3, int: 1_700_000_000_000)
          + field(4, int: 1_699_999_999_000))
    let screen =
      field(
        2,
        field(1, field(1, "_sc") + field(2, "Home")) + field(1, field(1, "_o") + field(2, "auto"))
          + field(1, field(1, "_sid") + field(3, int: 42)) + field(2, "_vs") + field(2, "_vs"))
    let unknown = field(2, field(2, "later") + field(9, int: 7))
    let properties =
      field(3, field(1, int: 5) + field(2, "_sid") + field(4, int: 99))
      + field(3, field(2, "score") + fixed64(6, -0.5)) + field(3, field(2, "weight") + fixed32(5, 1.5))
      + field(3, field(2, "plan") + field(3, "pro") + field(12, "extra"))
      + field(3, field(2, "_id") + field(3, "u-1"))
    let bundle =
      field(1, int: 1) + purchase + screen + unknown + properties + field(8, "ios") + field(21, "device-1")
      + field(10, "iPhone14,2")
    return field(1, bundle) + field(1, field(2, field(2, "second")) + field(21, "device-2"))
  }

  /// Where each event and user property of `protobuf` is, as the index finds them.
  private static func messages(_ protobuf: [UInt8]) -> [(span: Range<Int>, isProperty: Bool)] {
    protobuf.withUnsafeBufferPointer { buffer in
      FirebaseMessageSplit(buffer, 0..<buffer.count, children: (1, nil)).first.flatMap { bundle in
        let split = FirebaseMessageSplit(buffer, bundle, children: (2, 3))
        return split.first.map { ($0, false) } + split.second.map { ($0, true) }
      }
    }
  }

  /// How many messages of `protobuf` the walk read, failing where it and SwiftProtobuf disagree:
  /// a message the walk reads must decode to the same fields (compared as text: a NaN is not
  /// equal to itself).
  private static func compareMessages(
    _ protobuf: [UInt8], _ label: String, file: StaticString = #filePath, line: UInt = #line
  ) -> Int {
    var walked = 0
    protobuf.withUnsafeBufferPointer { buffer in
      for (span, isProperty) in messages(protobuf) {
        let bytes = Array(buffer[span])
        if isProperty {
          guard let fields = FirebaseWireWalk.property(buffer, span) else { continue }
          walked += 1
          let decoded = try? Tagscope_Firebase_UserProperty(serializedBytes: bytes)
          XCTAssertEqual(
            decoded.map { "\(FirebasePropertyFields($0))" }, "\(fields)", "\(label) \(span)", file: file,
            line: line)
        } else {
          var parameters: [FirebaseParameterValue] = []
          guard let event = FirebaseWireWalk.event(buffer, span, parameters: &parameters) else { continue }
          walked += 1
          let decoded = (try? Tagscope_Firebase_Event(serializedBytes: bytes)).map(FirebaseEventFields.init)
          XCTAssertEqual(
            decoded.map { "\(FirebaseEventHeader($0)) \($0.parameters.map { ($0.name, $0.value) })" },
            "\(event) \(parameters.map { ($0.name, $0.value) })", "\(label) \(span)", file: file, line: line)
        }
      }
    }
    return walked
  }

  func testEveryRealUploadAndEveryValueKindReadFromTheWireAsSwiftProtobufDecodesThem() throws {
    for name in Self.fixtures {
      let body = try FirebaseUploadFixtureTests.fixture(name)
      let protobuf = try XCTUnwrap(FirebaseUploadDecoding.protobuf(body), name)
      XCTAssertEqual(
        Self.compareMessages(protobuf, name), Self.messages(protobuf).count, "\(name): every message walked")
      XCTAssertEqual(
        try FirebaseUploadEndpoint.decode(body).get(), try FirebaseUploadReference.records(body), name)
    }
    let synthetic = Self.synthetic()
    XCTAssertEqual(Self.messages(synthetic).count, 9)
    XCTAssertEqual(
      Self.compareMessages(synthetic, "synthetic"), 7, "all but the two with a field the schema lacks")
    let records = try FirebaseUploadEndpoint.decode(synthetic).get()
    XCTAssertEqual(records, try FirebaseUploadReference.records(synthetic))
    let purchase = records[0].properties
    XCTAssertEqual(purchase["price"], .double(9.5))
    XCTAssertEqual(purchase["ratio"], .double(0.25))
    XCTAssertEqual(purchase["level"], .int(-3))
    XCTAssertEqual(purchase["both"], .string("text"))
    XCTAssertEqual(purchase["odd"], .string("inf"))
    XCTAssertEqual(purchase["empty"], .null)
    XCTAssertEqual(purchase["renamed"], .null)
    XCTAssertEqual(
      purchase["items"], .array([.object(["id": .string("sku-1"), "qty": .int(2)]), .string("plain")]))
    XCTAssertEqual(records[0].annotations["previous_timestamp_millis"], .int(1_699_999_999_000))
    XCTAssertEqual(records[1].name, "Home")
    XCTAssertEqual(records[1].identity.sessionID, "42")
    XCTAssertEqual(records[3].identity.sessionID, "99")
    XCTAssertEqual(records[4].properties["value"], .double(-0.5))
    XCTAssertEqual(records[5].properties["value"], .double(1.5))
    XCTAssertEqual(records[7].identity.userID, "u-1")
    let unread = try XCTUnwrap(records[0].annotations["unread"], "the fields the schema lacks, reported")
    XCTAssertTrue("\(unread)".contains("bundle 1 event 3 field 9"), "\(unread)")
    XCTAssertTrue("\(unread)".contains("bundle 1 user property 4 field 12"), "\(unread)")
  }

  /// The records of `body` read by the lazy index (``FirebaseUploadIndex``), whatever its size.
  private static func indexed(_ body: [UInt8]) -> Result<[IngestedEvent], FirebaseUploadError> {
    FirebaseUploadBody.protobuf(body, limit: FirebaseUploadEndpoint.limit).flatMap { bytes in
      FirebaseUploadShape.check(bytes).flatMap { FirebaseUploadIndex.make(bytes, records: $0.records) }
    }.flatMap { index in
      let events = index.events(0..<index.count)
      if let problem = index.unread.problem { return .failure(.schema(problem)) }
      return .success(events)
    }
  }

  func testSeededMutationsOfTheUploadsAreAcceptedOrRefusedAsSwiftProtobufDecidesWithTheSameRecords() throws {
    var bodies = [Self.synthetic()]
    for name in Self.fixtures where !name.hasSuffix(".gz") {
      bodies.append(try FirebaseUploadFixtureTests.fixture(name))
    }
    // Seeded: the same mutations every run.
    var random = SeededGenerator(seed: 45)
    var (accepted, refused, walked) = (0, 0, 0)
    for (number, original) in bodies.enumerated() {
      for mutant in 0..<300 {
        var body = original
        for _ in 0..<Int.random(in: 1...3, using: &random) {
          let at = Int.random(in: 0..<body.count, using: &random)
          switch Int.random(in: 0..<4, using: &random) {
          case 0: body[at] = UInt8.random(in: 0...255, using: &random)
          case 1: body[at] ^= 1 << UInt8.random(in: 0..<8, using: &random)
          case 2: body.remove(at: at)
          default: body.insert(UInt8.random(in: 0...255, using: &random), at: at)
          }
          if body.isEmpty { body = [0] }
        }
        let label = "body \(number) mutant \(mutant)"
        let ours = FirebaseUploadEndpoint.decode(body)
        let reference = Result { try FirebaseUploadReference.records(body) }
        // The lazy index, which a larger upload takes, gives the same records in the same order, or
        // the same refusal.
        switch (ours, Self.indexed(body)) {
        case (.success(let records), .success(let indexed)):
          XCTAssertEqual(records, indexed, label)
          XCTAssertEqual(records.map(\.annotations.keys), indexed.map(\.annotations.keys), label)
        case (.failure(let refusal), .failure(let indexed)): XCTAssertEqual(refusal, indexed, label)
        default: XCTFail("\(label): built \(ours) against indexed \(Self.indexed(body))")
        }
        switch (ours, reference) {
        case (.success(let records), .success(let expected)):
          accepted += 1
          XCTAssertEqual(records, expected, label)
        case (.failure, .failure): refused += 1
        default: XCTFail("\(label): \(ours) against \(reference)")
        }
        if let protobuf = FirebaseUploadDecoding.protobuf(body) {
          walked += Self.compareMessages(protobuf, label)
        }
      }
    }
    XCTAssertGreaterThan(accepted, 150, "mutations that stay uploads")
    XCTAssertGreaterThan(refused, 300, "mutations that do not")
    XCTAssertGreaterThan(walked, 3_000, "messages read from the wire, compared")
  }
}
