import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

/// Issue 48: UI test scopes in the query API against a real `listen` fed over native streams —
/// two scopes back to back, two device scopes interleaved (each sees only its own records, a wait
/// scoped to one ignores the other's), the assertions passing and failing, and the scope lines
/// in the recording.
final class ScopeQueryTests: XCTestCase {
  /// A second device's native stream (app `App` on `device`: source `App@device`).
  private func device(_ device: String, _ listen: QueryAPIHarness) throws -> RawClient {
    let client = try RawClient(port: listen.server.port)
    client.send(#"{"format":"tagscope-recording","version":1,"app":"App","device":"\#(device)"}"# + "\n")
    return client
  }

  private func post(_ listen: QueryAPIHarness, _ path: String) throws -> APIReply {
    try listen.request(path, method: "POST")
  }

  func testTwoScopesBackToBackEachSeeOnlyTheirOwnRecords() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    try listen.send([recordLine(1, "screen", "home")])
    XCTAssertEqual(try listen.request("wait?filter=name:home").status, 200)

    let begun = try post(listen, "scope/begin?name=first")
    XCTAssertEqual(begun.status, 200, begun.body)
    XCTAssertEqual(begun.json["scope"] as? String, "first")
    XCTAssertEqual(begun.json["open"] as? Bool, true)
    try listen.send([
      recordLine(2, "userAction", "addToCart", properties: #"{"sku":"A-1"}"#),
      recordLine(3, "screen", "cart"),
    ])
    XCTAssertEqual(try listen.request("wait?scope=first&count=2").names, ["addToCart", "cart"])
    let first = try post(listen, "scope/end?name=first")
    XCTAssertEqual(first.status, 200, first.body)
    XCTAssertEqual(first.json["records"] as? Int, 2)
    XCTAssertEqual((first.json["violations"] as? [Any])?.count, 0)

    XCTAssertEqual(try post(listen, "scope/begin?name=second").status, 200)
    try listen.send([recordLine(4, "screen", "home"), recordLine(5, "userAction", "addToCart")])
    XCTAssertEqual(try listen.request("wait?scope=second&count=2").seqs, [4, 5])
    let second = try post(listen, "scope/end?name=second")
    XCTAssertEqual(second.json["records"] as? Int, 2)
    XCTAssertEqual(
      (second.json["violations"] as? [[String: Any]])?.map { $0["rule"] as? String }, ["missing-property"])

    XCTAssertEqual(try listen.request("records?scope=first").seqs, [2, 3])
    XCTAssertEqual(try listen.request("records?scope=second").seqs, [4, 5])
    XCTAssertEqual(try listen.request("records").seqs, [1, 2, 3, 4, 5], "the segment holds them all")
    let summary = try listen.request("summary?scope=first").json
    XCTAssertEqual(summary["records"] as? Int, 2)
    XCTAssertEqual(summary["byKind"] as? [String: Int], ["screen": 1, "userAction": 1])
    XCTAssertEqual(summary["scope"] as? String, "first")
    let violations = try listen.request("violations?scope=second").json["violations"] as? [[String: Any]]
    XCTAssertEqual(violations?.map { $0["seq"] as? Int }, [5])
    XCTAssertEqual((try listen.request("violations?scope=first").json["violations"] as? [Any])?.count, 0)

    // What the scopes refuse, by name and parameter.
    XCTAssertEqual(try listen.request("records?scope=third").status, 404)
    XCTAssertEqual(try post(listen, "scope/end?name=first").status, 404, "already ended")
    XCTAssertEqual(try post(listen, "scope/begin").status, 400)
    XCTAssertEqual(try post(listen, "scope/begin?name=").status, 400)
    XCTAssertEqual(
      try post(listen, "scope/begin?name=a%0Ab").error, "parameter 'name' holds a control character")
    XCTAssertEqual(try post(listen, "scope/begin?name=again").status, 200)
    XCTAssertEqual(try post(listen, "scope/begin?name=again").status, 409, "already open")
    XCTAssertEqual(try listen.request("scope/begin?name=x").status, 405, "begin takes POST")
  }

  func testInterleavedDeviceScopesAndAScopedWaitIgnoringTheOtherDevice() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    let alpha = try device("alpha", listen)
    let bravo = try device("bravo", listen)
    XCTAssertEqual(try post(listen, "scope/begin?name=a&source=App%40alpha").status, 200)
    XCTAssertEqual(try post(listen, "scope/begin?name=b&source=App%40bravo").status, 200)
    alpha.send(recordLine(1, "screen", "home") + "\n")
    bravo.send(recordLine(1, "screen", "home") + "\n")
    XCTAssertEqual(try listen.request("wait?filter=name:home&count=2").status, 200)

    // A wait scoped to a, pending while b's device sends the record it waits for.
    let port = listen.server.port
    let waited = Task.detached {
      try QueryAPIHarnessClient(port: port).request("wait?scope=a&filter=name:addToCart&timeout=120")
    }
    XCTAssertTrue(eventually { listen.query.pendingWaits == 1 }, "listen holds the wait")
    bravo.send(recordLine(2, "userAction", "addToCart", properties: #"{"sku":"B-2"}"#) + "\n")
    XCTAssertEqual(
      try listen.request("wait?scope=b&filter=name:addToCart").status, 200, "b's record is stored")
    alpha.send(recordLine(2, "userAction", "addToCart", properties: #"{"sku":"A-2"}"#) + "\n")
    let reply = try await waited.value
    XCTAssertEqual(reply.status, 200, reply.body)
    let records = reply.json["records"] as? [[String: Any]] ?? []
    XCTAssertEqual(
      records.map { $0["source"] as? String }, ["App@alpha"], "b's addToCart came first but is not a's")
    XCTAssertEqual(records.map { ($0["properties"] as? [String: Any])?["sku"] as? String }, ["A-2"])

    alpha.send(recordLine(3, "screen", "cart") + "\n")
    XCTAssertEqual(try listen.request("wait?scope=a&filter=name:cart").status, 200)
    let a = try post(listen, "scope/end?name=a")
    bravo.send(recordLine(3, "screen", "cart") + "\n")
    XCTAssertEqual(try listen.request("wait?scope=b&filter=name:cart").status, 200)
    let b = try post(listen, "scope/end?name=b")
    XCTAssertEqual(a.json["records"] as? Int, 3)
    XCTAssertEqual(b.json["records"] as? Int, 3)
    let aRecords = try listen.request("records?scope=a")
    XCTAssertEqual(aRecords.names, ["home", "addToCart", "cart"])
    XCTAssertEqual(
      Set((aRecords.json["records"] as? [[String: Any]] ?? []).map { $0["source"] as? String }), ["App@alpha"]
    )
    XCTAssertEqual(try listen.request("summary?scope=b").json["bySource"] as? [String: Int], ["App@bravo": 3])
    // Timeout 0 answers at once from the scope only.
    XCTAssertEqual(try listen.request("wait?scope=b&filter=prop.sku:A-2&timeout=0").status, 408)
    XCTAssertEqual(try listen.request("wait?scope=a&filter=prop.sku:A-2&timeout=0").status, 200)
  }

  func testAssertionsPassAndFailWithTheirRecords() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    XCTAssertEqual(try post(listen, "scope/begin?name=clean").status, 200)
    try listen.send([
      recordLine(1, "screen", "home"), recordLine(2, "userAction", "addToCart", properties: #"{"sku":"A"}"#),
      recordLine(3, "screen", "cart"),
    ])
    XCTAssertEqual(try listen.request("wait?scope=clean&count=3").status, 200)
    XCTAssertEqual(try post(listen, "scope/end?name=clean").status, 200)
    let passing = try listen.request(
      "assert?scope=clean&exactly=3&unplanned=none&order=home,addToCart,cart&violations=none")
    XCTAssertEqual(passing.status, 200, passing.body)
    XCTAssertEqual(passing.json["passed"] as? Bool, true, passing.body)
    XCTAssertEqual(passing.json["checks"] as? Int, 4)
    XCTAssertEqual(
      try listen.request("assert?scope=clean&exactly=1&filter=name:addToCart").json["passed"] as? Bool, true)

    XCTAssertEqual(try post(listen, "scope/begin?name=broken").status, 200)
    try listen.send([
      recordLine(4, "screen", "cart"), recordLine(5, "userAction", "addToCart"),
      recordLine(6, "userAction", "addToCart", properties: #"{"sku":"B"}"#),
      recordLine(7, "event", "surprise"),
    ])
    XCTAssertEqual(try listen.request("wait?scope=broken&count=4").status, 200)
    func failure(_ query: String) throws -> [String: Any] {
      let reply = try listen.request("assert?scope=broken&" + query)
      XCTAssertEqual(reply.status, 200, reply.body)
      XCTAssertEqual(reply.json["passed"] as? Bool, false, reply.body)
      return (reply.json["failures"] as? [[String: Any]])?.first ?? [:]
    }
    let exactly = try failure("exactly=1&filter=name:addToCart")
    XCTAssertEqual(
      exactly["message"] as? String, "expected exactly 1 record(s) passing 'name:addToCart', found 2")
    XCTAssertEqual((exactly["records"] as? [[String: Any]])?.map { $0["seq"] as? Int }, [5, 6])
    let unplanned = try failure("unplanned=none")
    XCTAssertEqual(unplanned["message"] as? String, "1 unplanned tag(s): surprise (#7)")
    let order = try failure("order=home,addToCart")
    XCTAssertEqual(
      order["message"] as? String, "expected 'home', 'addToCart' in this order: no 'home' among 4 record(s)")
    let later = try failure("order=cart,addToCart,addToCart,cart")
    XCTAssertEqual(
      later["message"] as? String,
      "expected 'cart', 'addToCart', 'addToCart', 'cart' in this order: found the first 3, then no 'cart' after them"
    )
    XCTAssertEqual((later["records"] as? [[String: Any]])?.map { $0["seq"] as? Int }, [4, 5, 6])
    let violations = try failure("violations=none")
    XCTAssertEqual((violations["records"] as? [[String: Any]])?.map { $0["seq"] as? Int }, [5, 7])
    XCTAssertTrue((violations["message"] as? String ?? "").hasPrefix("2 violation(s): #5 "), "\(violations)")
    let several = try listen.request("assert?scope=broken&exactly=2&filter=name:addToCart&violations=none")
    XCTAssertEqual(
      (several.json["failures"] as? [[String: Any]])?.map { $0["check"] as? String }, ["violations"])

    // Without a scope the checks read the segment.
    XCTAssertEqual(
      try listen.request("assert?exactly=3&filter=name:addToCart").json["passed"] as? Bool, true)
    let none = try listen.request("assert")
    XCTAssertEqual(none.json["passed"] as? Bool, true, "no check: all of none pass")
    XCTAssertEqual(none.json["checks"] as? Int, 0)
    XCTAssertEqual(
      try listen.request("assert?exactly=7").json["passed"] as? Bool, true, "without a filter, every record")
    let screens = try listen.request("assert?scope=broken&filter=kind:screen&violations=none&unplanned=none")
    XCTAssertEqual(screens.json["passed"] as? Bool, true, "the filter narrows every check")
    XCTAssertEqual(
      try listen.request("assert?unplanned=some").error, "parameter 'unplanned' takes 'none', not 'some'")
    XCTAssertEqual(try listen.request("assert?order=a,,b").status, 400)
    XCTAssertEqual(try listen.request("assert?scope=nobody&violations=none").status, 404)
  }

  func testScopeLinesInTheRecordingAreDropMarkersOfNothing() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    XCTAssertEqual(try post(listen, "scope/begin?name=checkout&source=App%40sim").status, 200)
    try listen.send([recordLine(1, "screen", "home")])
    XCTAssertEqual(try listen.request("wait?scope=checkout").status, 200)
    XCTAssertEqual(try post(listen, "scope/end?name=checkout").status, 200)
    listen.session.flush()
    let reader = try RecordingReader(path: listen.recording.path)
    var scopes: [ScopeMarker] = []
    var records = 0
    while let entry = try reader.next() {
      switch entry {
      case .record: records += 1
      case .dropped(let marker, _):
        XCTAssertEqual(marker.count, 0)
        if let scope = ScopeMarker(marker) { scopes.append(scope) }
      case .problem(let problem): XCTFail("\(problem)")
      }
    }
    XCTAssertEqual(records, 1)
    XCTAssertEqual(scopes.map(\.event), [.begin, .end])
    XCTAssertEqual(scopes.map(\.name), ["checkout", "checkout"])
    XCTAssertEqual(scopes.map(\.source), ["App@sim", "App@sim"])
  }
}

/// Requests to a `listen`'s query API from any task (a wait pending while the test goes on).
struct QueryAPIHarnessClient: Sendable {
  var port: Int

  func request(_ pathAndQuery: String) throws -> APIReply {
    let client = try RawClient(port: port, timeout: 180)
    client.send(
      "GET /tagscope/v1/\(pathAndQuery) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
    )
    guard let (status, body) = client.readResponse() else { throw POSIXError(.ECONNRESET) }
    return APIReply(status: status, body: body)
  }
}
