import XCTest

@testable import AnalyticsHub
@testable import TagscopeServer

/// The records of one Firebase bundle hold its context once: their annotations extend the
/// bundle's (``Properties/init(extending:)``) instead of each copying its two dozen pairs, and
/// still read as the context's pairs, then the record's own, in that order.
final class FirebaseSharedContextTests: XCTestCase, ProtobufWriting {
  private static func bundle(device: String, events: [String]) -> [UInt8] {
    var bundle = field(1, int: 1)
    for name in events { bundle += field(2, parameter("level", "3") + field(2, name)) }
    bundle += field(3, field(2, "_id") + field(3, "u-\(device)"))
    return bundle + field(21, device) + field(8, "android") + field(9, "14") + field(17, int: 201_000)
  }

  func testRecordsOfOneBundleShareItsContext() throws {
    let body =
      Self.field(1, Self.bundle(device: "device-1", events: ["level_up", "tutorial_begin", "level_up"]))
      + Self.field(1, Self.bundle(device: "device-2", events: ["purchase"]))
    var records = try FirebaseUploadEndpoint.decode(body).get()
    XCTAssertEqual(records, try FirebaseUploadReference.records(body))
    XCTAssertEqual(
      records.map(\.name), ["level_up", "tutorial_begin", "level_up", "user_id", "purchase", "user_id"])
    let context = ["protocol_version", "app_instance_id", "platform", "os_version", "gmp_version"]
    for (index, record) in records.enumerated() {
      let own = record.kind == .identify ? ["origin", "short_name", "place"] : ["place"]
      XCTAssertEqual(record.annotations.keys.sorted(), (context + own).sorted(), "\(index)")
      XCTAssertEqual(Array(record.annotations.keys.suffix(own.count)), own, "the record's own last")
      XCTAssertEqual(record.annotations.shared.count, context.count, "\(index): \(record.annotations)")
    }
    XCTAssertEqual(records[0].annotations["app_instance_id"], .string("device-1"))
    XCTAssertEqual(records[4].annotations["app_instance_id"], .string("device-2"))
    XCTAssertEqual(records[1].annotations["place"], .string("bundle 1 event 2"))
    XCTAssertEqual(records[3].annotations["short_name"], .string("_id"))
    func sharedPairs(_ record: IngestedEvent) -> UnsafeRawPointer? {
      record.annotations.shared.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }
    let first = sharedPairs(records[0])
    XCTAssertNotNil(first)
    for index in 1...3 { XCTAssertEqual(sharedPairs(records[index]), first, "bundle 1, record \(index + 1)") }
    XCTAssertNotEqual(sharedPairs(records[4]), first, "another bundle, another context")
    XCTAssertEqual(sharedPairs(records[5]), sharedPairs(records[4]))
    records[0].annotations["platform"] = .string("ios")
    XCTAssertEqual(records[0].annotations["platform"], .string("ios"))
    XCTAssertEqual(records[1].annotations["platform"], .string("android"), "a change stays in its record")
    XCTAssertEqual(sharedPairs(records[2]), sharedPairs(records[1]))
  }
}
