import Dispatch
import XCTest

@testable import TagscopeServer

/// A device identity holds its parts once, copy-on-write, however many records carry it: each copy
/// must still behave as a value (a change is its own, equality and hashing by the parts), also
/// when copies of one identity are changed on several threads at once.
final class DeviceIdentityTests: XCTestCase {
  func testACopysChangeIsItsOwnAndEqualityAndHashingGoByTheParts() {
    let bundle = DeviceIdentity(deviceID: "d-1", app: "com.example", platform: "android", model: "")
    XCTAssertNil(bundle.model, "an empty part is none")
    var event = bundle
    event.sessionID = "42"
    XCTAssertNil(bundle.sessionID)
    XCTAssertEqual(event.sessionID, "42")
    XCTAssertNotEqual(bundle, event)
    event.sessionID = nil
    XCTAssertEqual(bundle, event)
    XCTAssertEqual(bundle.hashValue, event.hashValue)
    // Set to the value it has: still equal, and so is one made apart with the same parts.
    event.app = "com.example"
    let apart = DeviceIdentity(deviceID: "d-1", app: "com.example", platform: "android")
    XCTAssertEqual(Set([bundle, event, apart]).count, 1)
    var every = apart
    every.deviceID = "d-2"
    every.app = "a"
    every.platform = "p"
    every.model = "m"
    every.userID = "u"
    every.anonymousID = "an"
    every.previousID = "pr"
    every.sessionID = "s"
    XCTAssertEqual(
      [
        every.deviceID, every.app, every.platform, every.model, every.userID, every.anonymousID,
        every.previousID,
        every.sessionID,
      ],
      ["d-2", "a", "p", "m", "u", "an", "pr", "s"])
    XCTAssertEqual(apart, DeviceIdentity(deviceID: "d-1", app: "com.example", platform: "android"))
  }

  func testCopiesOfOneIdentityChangedOnManyThreadsAtOnceStayApart() {
    let shared = DeviceIdentity(deviceID: "d", sessionID: "0")
    let results = UnsafeMutableBufferPointer<DeviceIdentity>.allocate(capacity: 1_000)
    results.initialize(repeating: shared)
    defer {
      results.deinitialize()
      results.deallocate()
    }
    nonisolated(unsafe) let slots = results
    DispatchQueue.concurrentPerform(iterations: 1_000) { index in
      var mine = shared
      mine.sessionID = String(index)
      mine.userID = "u\(index % 7)"
      slots[index] = mine
    }
    for index in 0..<1_000 {
      XCTAssertEqual(results[index].sessionID, String(index))
      XCTAssertEqual(results[index].userID, "u\(index % 7)")
      XCTAssertEqual(results[index].deviceID, "d")
    }
    XCTAssertEqual(shared.sessionID, "0")
    XCTAssertNil(shared.userID)
  }
}
