import Foundation
import TagscopeRecording
import TagscopeTestSupport
import TagscopeVendors
import XCTest

@testable import TagscopeServer

/// Firebase's largest upload (as many events as `/a` takes, each with a 220-byte parameter, under
/// 1 MB) and its smallest-evented one (as many events of 12 bytes, 48 KB) reach the live session in
/// slices (``BulkDelivery``): of the two slices a delivery keeps in flight, the recording lines
/// weigh less than the body, so an upload's records are never all encoded and held at once, and a
/// small one's slices are cut to its body (issue 45's memory bound, ≤ 20× the body).
final class FirebaseUploadMemoryTests: XCTestCase, ProtobufWriting {
  func testTheLargestUploadIsDeliveredInSlicesWhoseLinesWeighLessThanTheBody() async throws {
    let counts = try await deliverInSlices(padding: 220)
    XCTAssertEqual(Set(counts.dropLast()), [BulkDelivery.sliceSize], "large events: full slices")
  }

  func testTheSmallestEventsAreDeliveredInSlicesWhoseLinesWeighLessThanTheBody() async throws {
    let counts = try await deliverInSlices(padding: 0)
    XCTAssertLessThan(counts.max() ?? 0, BulkDelivery.sliceSize, "small events: slices cut to the body")
  }

  /// Sends an upload of as many events as `/a` takes, each with a parameter of `padding` bytes,
  /// checks that the lines of any two slices delivered one after the other weigh less than the
  /// body, and returns the slices' sizes.
  private func deliverInSlices(padding: Int) async throws -> [Int] {
    let counts = LockedArray<Int>()
    let lineBytes = LockedArray<Int>()
    let server = try await ListenServer.start(
      configuration: ListenConfiguration(host: "127.0.0.1", port: 0)
    ) { event in
      guard case .records(let records) = event else { return }
      counts.append(records.count)
      lineBytes.append(SinkItem.items(records).reduce(0) { $0 + $1.line.count })
    }
    let events = try XCTUnwrap(Vendor.Limit.firebaseUpload.eventsPerRequest)
    let body = Self.bundle(Self.events(events, padding: padding))
    let reply = try XCTUnwrap(
      try httpRequest(
        port: server.port, path: "/a", contentType: "application/x-www-form-urlencoded", body: body))
    XCTAssertEqual(reply.status, 204, reply.body)
    XCTAssertTrue(eventually { counts.all.reduce(0, +) == events }, "\(counts.all)")
    try await server.shutdown()
    let sizes = lineBytes.all
    let twoAtOnce = zip(sizes, sizes.dropFirst()).map { $0 + $1 }.max() ?? sizes.reduce(0, +)
    XCTAssertGreaterThan(sizes.count, 2, "delivered in slices: \(counts.all)")
    XCTAssertLessThan(
      twoAtOnce, body.count, "the lines of two slices in flight, against the body; slices of \(counts.all)")
    return counts.all
  }

  /// `count` events `e` with one timestamp and a parameter `p` of `padding` bytes, side by side
  /// (as `TagscopeBench hostile` sends them).
  private static func events(_ count: Int, padding: Int) -> [UInt8] {
    let parameter = field(1, field(1, Array("p".utf8)) + field(2, [UInt8](repeating: 0x61, count: padding)))
    let one = field(2, parameter + field(2, Array("e".utf8)) + varint(3 << 3) + varint(1_700_000_000_000))
    return Array([[UInt8]](repeating: one, count: count).joined())
  }

  private static func bundle(_ content: [UInt8]) -> [UInt8] {
    field(
      1, varint(1 << 3) + varint(1) + content + field(8, Array("android".utf8)) + field(21, Array("d1".utf8)))
  }

}
