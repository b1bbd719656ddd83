import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// Firebase uploads Google's SDKs do not send but a body may be: empty, many bundles, fields no
/// schema knows, zlib or raw instead of gzip, and bodies that are not uploads at all (truncated,
/// lengths past the end, 100,000 nested items, a gzip bomb): each answered, refused alone with
/// the place it breaks, never a crash.
final class FirebaseUploadEdgeTests: XCTestCase, ProtobufWriting {
  private static func event(_ name: String, _ parameters: [UInt8] = []) -> [UInt8] {
    field(2, parameters + field(2, name) + field(3, int: 1_700_000_000_000))
  }

  private static func bundle(_ content: [UInt8], device: String = "d1") -> [UInt8] {
    field(1, field(1, int: 1) + content + field(8, "android") + field(21, device))
  }

  private func reply(_ body: [UInt8]) throws -> SDKReply {
    try XCTUnwrap(FirebaseUploadFixtureTests.reply(body))
  }

  func testAnEmptyBatchIsAnsweredWithNoRecords() throws {
    for body in [[], StoredDeflate.gzip([])] as [[UInt8]] {
      let reply = try reply(body)
      XCTAssertEqual(reply.status, .noContent)
      XCTAssertEqual(reply.events.count, 0)
      XCTAssertNil(reply.rejection)
    }
  }

  /// An upload that is not empty but holds no event or user property (fields the schema lacks,
  /// a bundle of context alone) is recorded as the request, what it held said, not dropped.
  func testAnUploadWithoutEventsIsRecordedAsTheRequest() throws {
    let unknownOnly = try reply(StoredDeflate.gzip(Self.field(7, int: 1)))
    XCTAssertEqual(unknownOnly.status, .noContent)
    XCTAssertEqual(unknownOnly.events.map(\.name), ["request"])
    XCTAssertEqual(unknownOnly.events.first?.call.method, "request")
    XCTAssertEqual(unknownOnly.events.first?.annotations["bundles"], .int(0))
    XCTAssertEqual(unknownOnly.events.first?.violations.map(\.rule), ["sdk.field-not-understood"])
    XCTAssertEqual(unknownOnly.events.first?.annotations["unread"], .object(["upload field 7": "varint 1"]))

    let contextOnly = try reply(Self.bundle(Self.field(99, "opaque"), device: "d9"))
    XCTAssertEqual(contextOnly.events.map(\.name), ["request"])
    let request = try XCTUnwrap(contextOnly.events.first)
    XCTAssertEqual(request.identity.deviceID, "d9")
    XCTAssertEqual(request.annotations["bundles"], .int(1))
    XCTAssertEqual(request.annotations["platform"], "android")
    XCTAssertEqual(request.violations.map(\.rule), ["sdk.field-not-understood"])
  }

  func testManyBundlesKeepTheirDevicesAndPlaces() throws {
    var body: [UInt8] = []
    for index in 0..<200 {
      body += Self.bundle(
        Self.event("tap", Self.parameter("_o", "app") + Self.parameter("button", "b\(index)"))
          + Self.event("_vs", Self.parameter("_sn", "Screen \(index)")), device: "device-\(index)")
    }
    let reply = try reply(StoredDeflate.gzip(body))
    XCTAssertEqual(reply.status, .noContent, reply.body)
    XCTAssertEqual(reply.events.count, 400)
    guard reply.events.count == 400 else { return }
    XCTAssertEqual(reply.events[398].properties, ["button": "b199"])
    XCTAssertEqual(reply.events[398].identity.deviceID, "device-199")
    XCTAssertEqual(reply.events[399].name, "Screen 199")
    XCTAssertEqual(reply.events[399].kind, .screen)
    XCTAssertEqual(reply.events[399].properties, ["screen_name": "Screen 199"])
    XCTAssertEqual(reply.events[399].call.method, "logEvent", "no origin: the app's")
    XCTAssertEqual(reply.events[399].annotations["place"], "bundle 200 event 2")
  }

  /// Fields no schema declares, at each level, are kept and listed with their place and value.
  func testUnknownFieldsAreReportedWithTheirPlace() throws {
    let parameter = Self.field(1, Self.field(1, "level") + Self.field(3, int: 7) + Self.field(9, int: 5))
    let event = Self.field(2, parameter + Self.field(2, "level_up") + Self.field(5, int: 3))
    let property = Self.field(3, Self.field(2, "plan") + Self.field(3, "gold") + Self.field(12, "x"))
    let bundle = Self.field(1, event + property + Self.field(99, "opaque") + Self.field(21, "d1"))
    let body = bundle + Self.field(7, int: 1)
    let reply = try reply(body)
    XCTAssertEqual(reply.status, .noContent, reply.body)
    XCTAssertEqual(reply.events.map(\.name), ["level_up", "plan"])
    XCTAssertEqual(reply.events.first?.properties, ["level": 7])
    XCTAssertEqual(reply.events.last?.properties, ["value": "gold"])
    XCTAssertEqual(reply.events.last?.call.method, "setUserProperty")
    for event in reply.events {
      XCTAssertEqual(
        Payload.object(event.annotations["unknown_fields"]),
        [
          "count": .int(5),
          "fields": [
            "upload field 7 (varint 1)", "bundle 1 field 99 (\"opaque\")",
            "bundle 1 event 1 field 5 (varint 3)",
            "bundle 1 event 1 parameter 1 field 9 (varint 5)", "bundle 1 user property 1 field 12 (\"x\")",
          ],
        ])
    }
  }

  /// Values of each type: float, double, negative integers, and items (nested parameters).
  func testEveryValueTypeIsRead() throws {
    let double =
      Self.varint(1 << 3 | 1) + withUnsafeBytes(of: (2.5 as Double).bitPattern.littleEndian, Array.init)
    let float =
      Self.varint(1 << 3 | 5) + withUnsafeBytes(of: (0.5 as Float).bitPattern.littleEndian, Array.init)
    let item = Self.field(6, Self.field(6, Self.field(1, "item_id") + Self.field(2, "sku-1")))
    let parameters =
      Self.field(1, Self.field(1, "price") + Array(double.dropFirst()).withKey(5, wireType: 1))
      + Self.field(1, Self.field(1, "ratio") + Array(float.dropFirst()).withKey(4, wireType: 5))
      + Self.field(1, Self.field(1, "delta") + Self.field(3, int: UInt64(bitPattern: -3)))
      + Self.field(1, Self.field(1, "items") + item)
    let reply = try reply(Self.bundle(Self.event("purchase", parameters)))
    XCTAssertEqual(reply.status, .noContent, reply.body)
    XCTAssertEqual(
      reply.events.first?.properties,
      ["price": 2.5, "ratio": 0.5, "delta": -3, "items": [["item_id": "sku-1"]]])
  }

  func testZlibAndRawBodiesAreReadAsGzipIs() throws {
    let body = Self.bundle(Self.event("tap", Self.parameter("button", "ok")))
    for (name, encoded) in [
      ("raw", body), ("gzip", StoredDeflate.gzip(body)), ("zlib", StoredDeflate.zlib(body)),
    ] {
      let reply = try reply(encoded)
      XCTAssertEqual(reply.status, .noContent, "\(name): \(reply.body)")
      XCTAssertEqual(reply.events.map(\.properties), [["button": "ok"]], name)
    }
  }

  func testBadBodiesAreRefusedWithThePlace() throws {
    let good = Self.bundle(Self.event("tap", Self.parameter("button", "ok")))
    let cases: [(String, [UInt8], String)] = [
      ("truncated", Array(good.dropLast(3)), "not protobuf at byte"),
      ("length past the body", Self.varint(1 << 3 | 2) + Self.varint(1000) + [1, 2, 3], "in the batch"),
      (
        "length past its bundle", Self.field(1, Self.varint(2 << 3 | 2) + Self.varint(50) + [0x10, 1]),
        "in bundle 1: a field runs past its end"
      ),
      ("wire type 7", [0x0f, 0], "an impossible field key"),
      ("not UTF-8", Self.bundle(Self.event("tap", Self.field(1, Self.field(1, [0xff, 0xfe])))), "not UTF-8"),
      ("not gzip after all", [0x1f, 0x8b, 0x08, 0, 1, 2, 3], "does not decompress"),
    ]
    for (name, body, words) in cases {
      let reply = try reply(body)
      XCTAssertEqual(reply.status, .badRequest, name)
      XCTAssertTrue(reply.body.contains(words), "\(name): \(reply.body)")
      XCTAssertTrue(reply.events.isEmpty, name)
      XCTAssertNotNil(reply.rejection, name)
    }
  }

  /// 100,000 items nested in one another: refused at the depth limit, in linear time, no stack
  /// overflow; 100,000 empty parameters side by side: past the message limit.
  func testNestingAndCountsAreBounded() throws {
    // Built inside out, backwards: wrapping a copy each time would be quadratic.
    var backwards = Array(Self.field(1, "x").reversed())
    for _ in 0..<100_000 {
      backwards += Self.varint(UInt64(backwards.count)).reversed()
      backwards.append(6 << 3 | 2)
    }
    let nested = Array(backwards.reversed())
    let deep = Self.bundle(Self.event("e", Self.field(1, nested)))
    let deepReply = try reply(deep)
    XCTAssertEqual(deepReply.status, .badRequest)
    XCTAssertTrue(deepReply.body.contains("nested deeper than"), deepReply.body)
    let wide = Self.bundle(Self.event("e", Array([UInt8]([0x0a, 0]).repeated(100_000))))
    let wideReply = try reply(wide)
    XCTAssertEqual(wideReply.status, .badRequest)
    XCTAssertEqual(wideReply.rejection, .tooManyEvents)
    XCTAssertTrue(wideReply.body.contains("messages"), wideReply.body)
    let events = Self.field(1, Array(Self.field(2, [UInt8]()).repeated(20_000)))
    let eventsReply = try reply(events)
    XCTAssertEqual(eventsReply.rejection, .tooManyEvents)
    XCTAssertTrue(eventsReply.body.contains("events and user properties"), eventsReply.body)
  }

  func testAGzipBombIsRefusedAsTooLarge() throws {
    let bomb = try gzip([UInt8](repeating: 0, count: 16 * 1024 * 1024))
    let reply = try reply(bomb)
    XCTAssertEqual(reply.status, .payloadTooLarge)
    XCTAssertEqual(reply.rejection, .bodyTooLarge)
    XCTAssertTrue(reply.events.isEmpty)
  }
}

extension Array where Element == UInt8 {
  fileprivate func withKey(_ number: UInt64, wireType: UInt64) -> [UInt8] {
    [UInt8(number << 3 | wireType)] + self
  }

  fileprivate func repeated(_ count: Int) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(self.count * count)
    for _ in 0..<count { out += self }
    return out
  }
}
