import AnalyticsHub
import Foundation
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Large bodies are parsed off the event loops: a hostile 1.1 MB payload does not hold the other
/// connections that share its loop.
final class LargeBodyTests: XCTestCase {
  private func post(_ path: String, _ body: String) -> String {
    let bytes = body.utf8.count
    return "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(bytes)\r\n\r\n" + body
  }

  /// An Amplitude batch whose one event has `keys` properties, the last one repeated as often.
  private func hostileBody(keys: Int) -> String {
    var properties = ""
    for index in 0..<keys { properties += "\"key\(index)\":0," }
    for index in 0..<keys { properties += "\"key\(keys - 1)\":\(index)," }
    properties.removeLast()
    return #"{"api_key":"k","events":[{"event_type":"big","user_id":"hostile-user","event_properties":{"#
      + properties + "}}]}"
  }

  func testALargeBodyIsParsedOffTheLoopAndRecorded() async throws {
    let (server, collector) = try await startServer()
    let client = try RawClient(port: server.port, timeout: 60)
    client.send(post("/batch", hostileBody(keys: 5_000)))
    let reply = client.readResponse()
    let records = collector.waitForRecords(1)
    try await server.shutdown()
    XCTAssertEqual(reply?.status, 200)
    XCTAssertEqual(records.first?.properties.count, 5_000)
    XCTAssertEqual(records.first?.properties["key4999"], .int(4_999))
    XCTAssertEqual(server.statistics.offloadedBodies, 1)
  }

  func testSmallRequestsOnEveryLoopAreAnsweredWhileAHostileBodyIsParsed() async throws {
    let (server, collector) = try await startServer()
    // The queue that parses large bodies is held until the small requests are answered: the hostile
    // body waits there however fast or slow the machine is.
    let parsing = DispatchSemaphore(value: 0)
    RequestPolicy.parser.async { parsing.wait() }
    var held = true
    defer { if held { parsing.signal() } }
    let hostile = try RawClient(port: server.port)
    // Connections are spread over the event loops in turn: with several small clients, some share
    // the hostile one's loop.
    var small: [RawClient] = []
    for _ in 0..<4 { small.append(try RawClient(port: server.port)) }
    let hostileReplies = LockedArray<Int>()
    let request = post("/batch", hostileBody(keys: 40_000))
    let reader = Thread {
      hostile.send(request)
      hostileReplies.append(hostile.readResponse()?.status ?? -1)
    }
    reader.start()
    XCTAssertTrue(eventually { server.statistics.offloadedBodies == 1 }, "the hostile body is off the loop")
    var answered = 0
    for round in 0..<20 {
      let client = small[round % small.count]
      client.send(post("/v1/track", #"{"type":"track","userId":"u","event":"Small\#(round)"}"#))
      if client.readResponse()?.status == 200 { answered += 1 }
    }
    XCTAssertEqual(answered, 20)
    XCTAssertEqual(hostileReplies.all, [], "every small request was answered while the big one waited")
    parsing.signal()
    held = false
    XCTAssertTrue(eventually { hostileReplies.all == [200] }, "\(hostileReplies.all)")
    _ = collector.waitForRecords(21)
    try await server.shutdown()
  }
}
