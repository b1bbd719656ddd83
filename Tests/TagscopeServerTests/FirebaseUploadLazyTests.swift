import AnalyticsHub
import NIOHTTP1
import XCTest

@testable import TagscopeServer

/// A Firebase upload of more than a few hundred records is checked whole and kept as its protobuf,
/// its records built a slice at a time as they are delivered (issue 45: 4,000 small events decoded
/// up front peaked at 129× their body): the records, answers and refusals must be those of the
/// upload decoded whole, as one tree of messages.
final class FirebaseUploadLazyTests: XCTestCase, ProtobufWriting {
  /// Event `index` of a bundle: plain, a screen view, the SDK's own with a session, or one with a
  /// field the schema does not know.
  private static func event(_ index: Int) -> [UInt8] {
    let content: [UInt8]
    switch index % 4 {
    case 0: content = parameter("item", "i\(index)") + field(2, "play")
    case 1: content = parameter("_sc", "Screen\(index)") + parameter("_o", "auto") + field(2, "_vs")
    case 2: content = parameter("_sid", "\(1_700 + index)") + field(2, "_e") + field(9, int: 7)
    default: content = field(2, "e\(index)")
    }
    return field(2, content + field(3, int: 1_700_000_000_000 + UInt64(index)))
  }

  private static func property(_ name: String, _ value: String) -> [UInt8] {
    field(3, varint(1 << 3) + varint(17) + field(2, name) + field(3, value))
  }

  /// Four bundles: many events and user properties, then none, then a group holding an event's
  /// field (the group's, not an event), a bundle field the schema lacks and many user properties,
  /// then an events field of the wrong wire type; and a batch field the schema lacks.
  private static func upload() -> [UInt8] {
    let first =
      (0..<700).flatMap(event) + property("_id", "u-1") + property("_sid", "99") + field(21, "device-1")
      + field(8, "ios") + property("plan", "pro")
    let group = varint(40 << 3 | 3) + event(1) + varint(40 << 3 | 4)
    let third =
      field(8, "android") + group + (0..<10).flatMap(event) + field(45, int: 3)
      + (0..<600).flatMap { property("p\($0)", "v\($0)") } + field(21, "device-3")
    let fourth = varint(2 << 3) + varint(5) + (0..<3).flatMap(event) + field(21, "device-4")
    return field(1, first) + field(1, []) + field(7, int: 1) + field(1, third) + field(1, fourth)
  }

  private static func request(_ body: [UInt8]) -> ReceivedRequest {
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
    return ReceivedRequest(
      method: .POST, path: "/a", query: [], headers: headers, body: body, peerHost: "127.0.0.1")
  }

  func testALargeUploadIsHandedOverUnbuiltAndBuiltSliceBySliceAsTheWholeDecoding() throws {
    let body = Self.upload()
    let whole = try FirebaseUploadReference.records(body)
    XCTAssertEqual(whole.count, 700 + 3 + 10 + 600 + 3)
    let reply = FirebaseUploadEndpoint().handleLazily(Self.request(body))
    XCTAssertEqual(reply.status, .noContent)
    XCTAssertEqual(reply.events.count, 0, "no record built before delivery")
    let batch = try XCTUnwrap(reply.batch, "handed over as a batch built slice by slice")
    XCTAssertEqual(batch.count, whole.count)
    var built: [IngestedEvent] = []
    var slices = 0
    for start in stride(from: 0, to: batch.count, by: BulkDelivery.sliceSize) {
      built += batch.events(start..<min(start + BulkDelivery.sliceSize, batch.count))
      slices += 1
    }
    XCTAssertGreaterThan(slices, 2)
    XCTAssertEqual(built.count, whole.count)
    for (index, (lazy, eager)) in zip(built, whole).enumerated() where lazy != eager {
      XCTFail("record \(index): \(lazy) against \(eager)")
      break
    }
    XCTAssertEqual(Set(built.compactMap(\.identity.deviceID)), ["device-1", "device-3", "device-4"])
    XCTAssertNotNil(built[0].annotations["unread"], "the upload's unknown fields, on its first record")
    // Out of order, as a slice whose bundle is not the one read last.
    XCTAssertEqual(
      batch.events(1_300..<1_310) + batch.events(0..<5), Array(whole[1_300..<1_310] + whole[0..<5]))
    // `handle` and `decode` give the same records at once.
    XCTAssertEqual(FirebaseUploadEndpoint().handle(Self.request(body)).events, whole)
  }

  func testASmallUploadIsDecodedAtOnceAndABadMessageDeepInALargeOneRefusesItWhole() throws {
    let small = Self.field(1, (0..<5).flatMap(Self.event) + Self.field(21, "d"))
    let reply = FirebaseUploadEndpoint().handleLazily(Self.request(small))
    XCTAssertNil(reply.batch)
    XCTAssertEqual(reply.events, try FirebaseUploadReference.records(small))
    var events = (0..<600).flatMap(Self.event)
    // A last event whose name is not UTF-8.
    events += Self.field(2, Self.field(2, [0x65, 0xff]))
    let bad = Self.field(1, events + Self.field(21, "d"))
    let refused = FirebaseUploadEndpoint().handleLazily(Self.request(bad))
    XCTAssertNil(refused.batch)
    XCTAssertEqual(refused.status, .badRequest)
    XCTAssertEqual(refused.body, FirebaseUploadError.schema("a string field is not UTF-8").message)
    guard case .failure(let whole) = FirebaseUploadEndpoint.decodeBatch(bad) else {
      return XCTFail("the whole decoding refuses it too")
    }
    XCTAssertEqual(refused.body, whole.message)
  }
}
