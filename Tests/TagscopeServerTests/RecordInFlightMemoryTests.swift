import Foundation
import TagscopeRecording
import XCTest

@testable import AnalyticsHub
@testable import TagscopeServer

/// What each record of a many-event upload holds while it is in flight (issue 45: a 48 KB
/// Firebase upload of 4,000 events grew `listen` by 49 times its body): the fields its device and
/// bundle share are shared, not copied per record, and what is its own takes the room it needs.
final class RecordInFlightMemoryTests: XCTestCase, ProtobufWriting {
  private func event(_ name: String, device: String) -> IngestedEvent {
    IngestedEvent(
      provider: "segment", kind: .event, name: name, properties: [:],
      identity: DeviceIdentity(deviceID: device, app: "Shop", model: "iPhone15,2"),
      call: CallDescription(method: "track", name: name), raw: "{}")
  }

  /// The address of the storage of `properties`' pairs.
  private func storage(_ properties: Properties) -> UnsafeRawPointer? {
    properties.storage.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
  }

  /// The `device` field of `context`.
  private func device(_ context: RecordContext) -> Properties? {
    guard case .object(let fields)? = context.extra["device"] else { return nil }
    return fields
  }

  func testRecordsOfOneDeviceShareTheirContextsFields() {
    var registry = DeviceRegistry(limit: 16)
    let first = registry.place(event("a", device: "d1"), address: "10.0.0.1").context
    let second = registry.place(event("b", device: "d1"), address: "10.0.0.1").context
    XCTAssertEqual(first, second)
    XCTAssertNotNil(storage(second.extra))
    XCTAssertEqual(storage(first.extra), storage(second.extra), "one copy of the device's fields")
    let other = registry.place(event("c", device: "d2"), address: "10.0.0.1").context
    XCTAssertEqual(device(other)?["id"], .string("d2"), "another device: its own fields")
    let moved = registry.place(event("d", device: "d1"), address: "10.0.0.2").context
    XCTAssertEqual(device(moved)?["connection"], .string("10.0.0.2"), "another connection: its own")
  }

  func testAFirebaseRecordsAnnotationsTakeTheRoomTheyNeed() throws {
    let events = (0..<300).flatMap { index in
      Self.field(2, Self.field(2, "e\(index % 3)") + Self.varint(3 << 3) + Self.varint(1_700_000_000_000))
    }
    let property = Self.field(
      3, Self.varint(1 << 3) + Self.varint(17) + Self.field(2, "_fot") + Self.field(3, "5"))
    let body = Self.field(
      1,
      Self.varint(1 << 3) + Self.varint(1) + events + property + Self.field(8, "android")
        + Self.field(21, "d1"))
    let records = try FirebaseUploadEndpoint.decode(body).get()
    XCTAssertEqual(records.count, 301)
    for record in records {
      let annotations = record.annotations.storage
      XCTAssertEqual(annotations.capacity, annotations.count, "\(record.name): \(record.annotations.keys)")
    }
  }

  func testARecordsLineIsKeptAtItsOwnSize() {
    let record = Record(
      seq: 1, time: Date(timeIntervalSince1970: 1_700_000_000), kind: .event, name: "e", properties: [:],
      context: RecordContext(), outputs: [])
    for item in [SinkItem(record)] + SinkItem.items([record, record]) {
      XCTAssertLessThan(item.line.capacity - item.line.count, 32, "a line of \(item.line.count) bytes")
    }
  }
}
