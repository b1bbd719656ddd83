import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeLive

/// The live queue is bounded in bytes as well as records: a few large SDK records hold producers
/// back long before the record bound, and room comes back once the worker finished them.
final class IngestQueueBytesTests: XCTestCase {
  private func items(_ count: Int, payload: Int) -> LiveInput {
    .items(
      (0..<count).map { index in
        SinkItem(
          Record(
            seq: UInt64(index + 1), time: .init(timeIntervalSince1970: 0), kind: .event,
            name: "Order Completed",
            raw: String(repeating: "x", count: payload)))
      })
  }

  func testLargeRecordsFillTheByteBoundBeforeTheRecordBound() {
    let queue = IngestQueue(capacity: 1_000, byteCapacity: 100_000)
    let first = items(10, payload: 2_000)
    XCTAssertGreaterThan(first.bytes, 10 * 3 * 2_000, "each record weighs its line three times over")
    queue.put(first)
    XCTAssertTrue(queue.hasRoom, "10 records, about 62 kB")
    let second = items(10, payload: 2_000)
    queue.put(second)
    XCTAssertFalse(queue.hasRoom, "20 records of 1,000 allowed, but over 100 kB")
    let resumed = LockedArray<String>()
    queue.whenRoom { resumed.append("room") }
    XCTAssertEqual(resumed.all, [])
    guard let taken = queue.takeAll() else { return XCTFail("the queue was closed") }
    queue.finished(taken)
    XCTAssertTrue(queue.hasRoom)
    XCTAssertEqual(resumed.all, ["room"], "a producer held back resumes once the bytes are stored")
  }

  func testSmallRecordsKeepTheRecordBound() {
    let queue = IngestQueue(capacity: 5, byteCapacity: 100_000)
    queue.put(items(5, payload: 10))
    XCTAssertFalse(queue.hasRoom, "5 small records reach the record bound")
  }
}
