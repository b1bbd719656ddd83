import Foundation
import TagscopeRecording
import TagscopeServer
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

/// The query API on a real `listen` (server, live session, timeline, plan): summary, records with
/// a filter and pages, waits (concurrent, timed out, refused), reset between two tests, token.
final class QueryAPITests: XCTestCase {
  func testSummaryCountsTheSegmentByKindSourceAndProviderWithCoverage() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    try listen.send([
      recordLine(1, "screen", "home"), recordLine(2, "userAction", "addToCart"),
      recordLine(3, "userAction", "checkout"),
    ])
    XCTAssertEqual(try listen.request("wait?count=3&timeout=60").status, 200)
    let summary = try listen.request("summary")
    XCTAssertEqual(summary.status, 200, summary.body)
    let json = summary.json
    XCTAssertEqual(json["segment"] as? Int, 1)
    XCTAssertEqual(json["records"] as? Int, 3)
    XCTAssertEqual(json["withViolations"] as? Int, 2, "a missing sku and an unplanned tag")
    XCTAssertEqual(json["byKind"] as? [String: Int], ["screen": 1, "userAction": 2])
    XCTAssertEqual(json["bySource"] as? [String: Int], ["App@sim": 3])
    XCTAssertEqual(json["byProvider"] as? [String: Int], [:])
    XCTAssertEqual(json["seqAnomalies"] as? Int, 0)
    XCTAssertEqual(json["retriesSkipped"] as? Int, 0)
    let coverage = json["coverage"] as? [String: Any]
    XCTAssertEqual(coverage?["plan"] as? String, "Shop")
    XCTAssertEqual(coverage?["planned"] as? Int, 3)
    XCTAssertEqual(coverage?["passed"] as? Int, 1)
    XCTAssertEqual(coverage?["failing"] as? Int, 1)
    XCTAssertEqual(coverage?["notSeen"] as? Int, 1)

    let violations = try listen.request("violations")
    XCTAssertEqual(violations.status, 200)
    let list = violations.json["violations"] as? [[String: Any]] ?? []
    XCTAssertEqual(
      Set(list.compactMap { $0["rule"] as? String }), ["missing-property", "unplanned-tag"], violations.body)
    for key in [
      "seq", "severity", "tag", "message", "source", "time", "planFile", "planLine", "expected", "actual",
    ] {
      XCTAssertTrue(list.allSatisfy { $0.keys.contains(key) }, "\(key) in \(violations.body)")
    }
    XCTAssertEqual(list.first?["source"] as? String, "App@sim")
    let items =
      (try listen.request("coverage").json["coverage"] as? [String: Any])?["items"] as? [[String: Any]]
    XCTAssertEqual(items?.compactMap { $0["state"] as? String }, ["passed", "not-seen", "failing"])
  }

  /// Issue 31: a native record whose `seq` repeats within its stream is recorded (not dropped)
  /// and counted in the summary's `seqAnomalies` (a `seq` back to 1 is a restart, not counted).
  func testTheSummaryCountsSeqAnomaliesOfRecordsKept() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    try listen.send([
      recordLine(2, "screen", "home"), recordLine(3, "screen", "cart"), recordLine(2, "screen", "home"),
    ])
    XCTAssertEqual(try listen.request("wait?count=3&timeout=60").status, 200)
    let json = try listen.request("summary").json
    XCTAssertEqual(json["records"] as? Int, 3, "recorded, not dropped")
    XCTAssertEqual(json["seqAnomalies"] as? Int, 1)
  }

  func testRecordsAreFilteredWithTheDebuggersLanguageAndPaginated() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    try listen.send(
      (1...5).map { recordLine($0, "screen", $0 % 2 == 0 ? "cart" : "home") }
        + [recordLine(6, "userAction", "addToCart", properties: #"{"sku":"A-1"}"#)])
    XCTAssertEqual(try listen.request("wait?count=6&timeout=60").status, 200)

    var names: [String] = []
    var since = 0
    var pages = 0
    while true {
      let page = try listen.request("records?filter=\(queryValue("kind:screen"))&limit=2&since=\(since)")
      XCTAssertEqual(page.status, 200, page.body)
      names += page.names
      pages += 1
      since = page.json["next"] as? Int ?? -1
      if page.json["more"] as? Bool != true { break }
    }
    XCTAssertEqual(names, ["home", "cart", "home", "cart", "home"])
    XCTAssertEqual(pages, 3)
    XCTAssertEqual(since, 6, "the last page's cursor is the end, to ask again later")

    let carts = try listen.request(
      "records?filter=\(queryValue("name:cart kind:screen"))&source=\(queryValue("App@sim"))")
    XCTAssertEqual(carts.names, ["cart", "cart"])
    XCTAssertEqual(try listen.request("records?source=nobody").names, [])
    let records = try listen.request("records").json["records"] as? [[String: Any]]
    XCTAssertEqual(records?.last?["properties"] as? [String: String], ["sku": "A-1"], "the recording's lines")
    XCTAssertEqual(records?.last?["source"] as? String, "App@sim")
    XCTAssertEqual(try listen.request("records?filter=has:violations").names, [])

    let invalid = try listen.request("records?filter=\(queryValue("kind:tap"))")
    XCTAssertEqual(invalid.status, 400)
    XCTAssertTrue(invalid.error.hasPrefix("parameter 'filter': unknown kind \"tap\""), invalid.error)
    for (query, parameter) in [
      ("limit=0", "limit"), ("limit=x", "limit"), ("since=-1", "since"), ("colour=red", "colour"),
    ] {
      let refused = try listen.request("records?\(query)")
      XCTAssertEqual(refused.status, 400, query)
      XCTAssertTrue(refused.error.contains("'\(parameter)'"), refused.error)
    }
    XCTAssertEqual(try listen.request("summary?x=1").status, 400)
    XCTAssertEqual(try listen.request("nothing").status, 404)
    XCTAssertEqual(try listen.request("reset").status, 405)
    XCTAssertEqual(try listen.request("summary", method: "POST").status, 405)
  }

  func testRecordsAndWaitsFilterOnPropertiesAndCallParameters() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    let replies = LockedArray<APIReply>()
    let group = DispatchGroup()
    group.enter()
    // Pending before the records arrive: the live records are checked as they come.
    Thread {
      let path = "wait?filter=\(queryValue("prop.sku:A-1"))&count=2&timeout=120"
      if let reply = try? listen.request(path, timeout: 120) { replies.append(reply) }
      group.leave()
    }.start()
    XCTAssertTrue(eventually { listen.query.pendingWaits == 1 }, "the wait is pending")
    let firebase =
      #","outputs":[{"provider":"firebase","status":"sent","calls":[{"method":"logEvent","name":"add_to_cart","parameters":{"value":12.5,"currency":"EUR"}}]}]}"#
    try listen.send([
      recordLine(1, "screen", "home"),
      recordLine(2, "userAction", "addToCart", properties: #"{"sku":"A-2","price":20}"#),
      String(recordLine(3, "userAction", "addToCart", properties: #"{"sku":"A-1","price":12}"#).dropLast())
        + firebase,
      recordLine(4, "userAction", "addToCart", properties: #"{"sku":"a-1","price":3,"title":"Night Vale"}"#),
    ])
    XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
    XCTAssertEqual(replies.all.first?.status, 200, replies.all.first?.body ?? "no reply")
    XCTAssertEqual(replies.all.first?.seqs, [3, 4], "the sku A-1 (any case), not A-2")

    func seqs(_ filter: String) throws -> [Int] {
      let reply = try listen.request("records?filter=\(queryValue(filter))")
      XCTAssertEqual(reply.status, 200, reply.body)
      return reply.seqs
    }
    XCTAssertEqual(try seqs("prop.sku:A-1"), [3, 4])
    XCTAssertEqual(try seqs("prop.sku:A-1 prop.price>10"), [3])
    XCTAssertEqual(try seqs("prop.price>=12"), [2, 3])
    XCTAssertEqual(try seqs("prop.title~night"), [4])
    XCTAssertEqual(try seqs("prop.title:\"night vale\""), [4])
    XCTAssertEqual(try seqs("param.value>10 param.currency:EUR"), [3])
    XCTAssertEqual(try seqs("prop.sku~/^A-[0-9]$/ kind:action"), [2, 3])
    XCTAssertEqual(try seqs("prop.colour:red"), [])
    XCTAssertEqual(try seqs("prop.sku>1"), [], "a string is no number")
    XCTAssertEqual(
      try listen.request("wait?filter=\(queryValue("name:addToCart prop.price<5"))&timeout=60").seqs, [4],
      "a wait answered by records already there")

    let nameless = try listen.request("records?filter=\(queryValue("prop."))")
    XCTAssertEqual(nameless.status, 400)
    XCTAssertEqual(nameless.error, "parameter 'filter': prop. needs a name and a value (prop.sku:A-1)")
    let notANumber = try listen.request("wait?filter=\(queryValue("param.x>abc"))&timeout=0")
    XCTAssertEqual(notANumber.status, 400)
    XCTAssertEqual(
      notANumber.error, "parameter 'filter': param.x>abc: \"abc\" is not a number (> compares numbers)")
  }

  func testAPageFindsRecordsBeyondTheFirstChunkOfTheIndex() async throws {
    let listen = try await QueryAPIHarness.start(plan: nil)
    addTeardownBlock { try? await listen.stop() }
    let records = screenRecords(70_000, source: "App@sim").enumerated().map { index, record in
      var renamed = record
      renamed.name = index == 69_999 ? "last" : index == 65_536 ? "middle" : "screen"
      return SinkItem(renamed)
    }
    listen.session.receive(records)
    listen.session.flush()
    XCTAssertEqual(try listen.request("records?filter=last").names, ["last"])
    let page = try listen.request("records?filter=\(queryValue("name:middle name:last"))")
    XCTAssertEqual(page.names, [])
    XCTAssertEqual(page.json["next"] as? Int, 70_000)
    let middle = try listen.request("records?filter=\(queryValue("name~l"))&limit=1")
    XCTAssertEqual(middle.names, ["middle"])
    XCTAssertEqual(middle.json["next"] as? Int, 65_537)
    XCTAssertEqual(try listen.request("records?filter=\(queryValue("name~l"))&since=65537").names, ["last"])
    XCTAssertEqual(try listen.request("summary").json["records"] as? Int, 70_000)
  }

  func testConcurrentWaitsReturnAsSoonAsTheirRecordsArrive() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    let replies = LockedArray<(String, APIReply)>()
    let group = DispatchGroup()
    // Timeouts far beyond the test: a wait answered 200 with its records was answered by them.
    let waits = [
      ("cart", "wait?filter=\(queryValue("name:cart"))&count=1&timeout=120"),
      ("screens", "wait?filter=\(queryValue("kind:screen"))&count=3&timeout=120"),
      ("action", "wait?filter=\(queryValue("kind:action"))&count=1&timeout=120"),
      ("any", "wait?count=4&timeout=120"),
    ]
    for (label, path) in waits {
      group.enter()
      // Threads of their own: blocked global-queue workers are added slowly.
      Thread {
        if let reply = try? listen.request(path, timeout: 120) { replies.append((label, reply)) }
        group.leave()
      }.start()
    }
    XCTAssertTrue(eventually { listen.query.pendingWaits == 4 }, "the four waits are pending")
    XCTAssertTrue(replies.all.isEmpty, "nothing arrived yet")
    try listen.send([recordLine(1, "screen", "home"), recordLine(2, "screen", "cart")])
    XCTAssertTrue(eventually { replies.all.count == 1 }, "the cart wait returns")
    XCTAssertEqual(replies.all.first?.0, "cart")
    XCTAssertEqual(replies.all.first?.1.status, 200)
    XCTAssertEqual(replies.all.first?.1.names, ["cart"])
    XCTAssertEqual(listen.query.pendingWaits, 3, "the others still wait for their records")
    try listen.send([recordLine(3, "userAction", "addToCart"), recordLine(4, "screen", "home")])
    XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
    let byLabel = Dictionary(uniqueKeysWithValues: replies.all.map { ($0.0, $0.1) })
    XCTAssertEqual(byLabel.mapValues(\.status), ["cart": 200, "screens": 200, "action": 200, "any": 200])
    XCTAssertEqual(byLabel["screens"]?.names, ["home", "cart", "home"])
    XCTAssertEqual(byLabel["action"]?.names, ["addToCart"])
    XCTAssertEqual(byLabel["any"]?.json["count"] as? Int, 4)

    let already = try listen.request("wait?filter=\(queryValue("name:cart"))&timeout=60")
    XCTAssertEqual(already.status, 200, "records of the segment that arrived before the wait count")
  }

  func testAWaitTimesOutWith408AndWhatArrivedAndAnInvalidWaitIs400() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    try listen.send([recordLine(1, "screen", "home")])
    let clock = ContinuousClock()
    let start = clock.now
    let partial = try listen.request("wait?filter=\(queryValue("kind:screen"))&count=2&timeout=0.5")
    XCTAssertEqual(partial.status, 408)
    XCTAssertEqual(partial.names, ["home"])
    // A lower bound, which load cannot break: the wait is not answered before its timeout.
    XCTAssertGreaterThanOrEqual(clock.now - start, .milliseconds(500))
    let now = try listen.request("wait?filter=\(queryValue("kind:screen"))&timeout=0")
    XCTAssertEqual(now.status, 200, "timeout=0 answers at once with what is there: \(now.body)")
    XCTAssertEqual(now.json["count"] as? Int, 1)
    let notYet = try listen.request("wait?filter=never&timeout=0")
    XCTAssertEqual(notYet.status, 408)
    XCTAssertEqual(notYet.json["count"] as? Int, 0)
    let none = try listen.request("wait?filter=never&timeout=0.2")
    XCTAssertEqual(none.status, 408)
    XCTAssertEqual(none.json["count"] as? Int, 0)

    let invalid = try listen.request("wait?filter=\(queryValue("status:lost"))")
    XCTAssertEqual(invalid.status, 400)
    XCTAssertTrue(invalid.error.contains("parameter 'filter': unknown status"), invalid.error)
    XCTAssertTrue(try listen.request("wait?filter=\(queryValue("name~/(/"))").error.contains("filter"))
    for (query, parameter) in [
      ("count=0", "count"), ("timeout=-1", "timeout"), ("timeout=301", "timeout"),
      ("timeout=soon", "timeout"),
    ] {
      let refused = try listen.request("wait?\(query)")
      XCTAssertEqual(refused.status, 400, query)
      XCTAssertTrue(refused.error.contains("'\(parameter)'"), refused.error)
    }
  }

  /// A UI test stopped mid-`wait` closes its socket; the server reads that as the end of the
  /// client's input (it keeps half-closed connections open for SDK replies owed), and ends the
  /// wait at once instead of holding it, and its filter, until its timeout. Other calls are still
  /// answered to a client that only shut its sending side.
  func testAWaitWhoseClientGoesAwayEndsAtOnce() async throws {
    let listen = try await QueryAPIHarness.start(plan: nil)
    addTeardownBlock { try? await listen.stop() }
    for closes in [true, false] {
      var client: RawClient? = try RawClient(port: listen.server.port)
      // Longer than `eventually` waits: the wait ends because its client left, not by its timeout.
      client?.send("GET /tagscope/v1/wait?timeout=300 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      XCTAssertTrue(eventually { listen.query.pendingWaits == 1 })
      if closes {
        client = nil
      } else if let client {
        shutdown(client.descriptor, Int32(SHUT_WR))
        XCTAssertTrue(client.waitForClose(), "the server closes once the wait is dropped")
      }
      XCTAssertTrue(
        eventually { listen.query.pendingWaits == 0 }, "not kept until its timeout (closes: \(closes))")
    }
    let client = try RawClient(port: listen.server.port)
    client.send("GET /tagscope/v1/summary HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    shutdown(client.descriptor, Int32(SHUT_WR))
    XCTAssertEqual(client.readResponse()?.status, 200, "a summary is still owed to a half-closed client")
  }

  func testResetStartsASegmentBetweenTwoTestsAndTheRecordingKeepsEverything() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    // First test: taps through the cart.
    try listen.send([recordLine(1, "screen", "cart"), recordLine(2, "userAction", "addToCart")])
    XCTAssertEqual(try listen.request("wait?filter=\(queryValue("name:addToCart"))&timeout=60").status, 200)
    XCTAssertEqual(try listen.request("violations").json["violations"].map { ($0 as? [Any])?.count }, 1)

    let reset = try listen.request("reset", method: "POST")
    XCTAssertEqual(reset.status, 200, reset.body)
    XCTAssertEqual(reset.json["segment"] as? Int, 2)
    let empty = try listen.request("summary").json
    XCTAssertEqual(empty["segment"] as? Int, 2)
    XCTAssertEqual(empty["records"] as? Int, 0)
    XCTAssertEqual((empty["coverage"] as? [String: Any])?["notSeen"] as? Int, 3)
    XCTAssertEqual(try listen.request("records").names, [])
    XCTAssertEqual(try listen.request("violations").json["violations"].map { ($0 as? [Any])?.count }, 0)
    XCTAssertEqual(try listen.request("wait?filter=\(queryValue("name:addToCart"))&timeout=0.2").status, 408)

    // Second test: only home.
    try listen.send([recordLine(3, "screen", "home")])
    XCTAssertEqual(try listen.request("wait?filter=\(queryValue("name:home"))&timeout=60").names, ["home"])
    XCTAssertEqual(try listen.request("records").names, ["home"])
    XCTAssertEqual(try listen.request("records?since=0").names, ["home"], "since cannot reach back")
    XCTAssertEqual(try listen.request("summary").json["records"] as? Int, 1)

    listen.session.flush()
    XCTAssertEqual(try recordedRecords(listen.recording).map(\.name), ["cart", "addToCart", "home"])
    let lines = try String(contentsOf: listen.recording, encoding: .utf8).split(separator: "\n")
    let marker = try XCTUnwrap(lines.first { $0.contains(#""by":"reset""#) })
    XCTAssertTrue(marker.hasPrefix(#"{"dropped":0,"time":""#), String(marker))
    XCTAssertTrue(marker.hasSuffix(#","by":"reset","segment":2}"#), String(marker))
    // Readers take it as a drop marker of nothing: replay lists a gap of 0, validate loses nothing.
    let reader = try RecordingReader(path: listen.recording.path)
    var entries: [String] = []
    while let entry = try reader.next() {
      switch entry {
      case .record(let record, _): entries.append(record.name)
      case .dropped(let dropped, _):
        entries.append(
          "marker \(dropped.count) \(dropped.origin) \(dropped.extra["segment"].map { "\($0)" } ?? "")")
      case .problem(let problem): entries.append("problem \(problem.reason)")
      }
    }
    XCTAssertEqual(entries, ["cart", "addToCart", "marker 0 reset int(2)", "home"])
  }

  func testTheTokenProtectsTheAPI() async throws {
    let listen = try await QueryAPIHarness.start(token: "s3cret")
    addTeardownBlock { try? await listen.stop() }
    let missing = try listen.request("summary")
    XCTAssertEqual(missing.status, 401)
    XCTAssertTrue(missing.error.contains("token"), missing.body)
    XCTAssertEqual(try listen.request("summary", token: "wrong").status, 401)
    XCTAssertEqual(try listen.request("reset", method: "POST", token: "s3cre").status, 401)
    XCTAssertEqual(try listen.request("openapi.json").status, 401)
    XCTAssertEqual(
      try listen.request("wait?timeout=0.1", headers: ["Authorization: Basic czNjcmV0"]).status, 401)
    XCTAssertEqual(try listen.request("summary", token: "s3cret").status, 200)
    XCTAssertEqual(try listen.request("reset", method: "POST", token: "s3cret").status, 200)
  }

  func testViolationsAndCoverageNeedAPlan() async throws {
    let listen = try await QueryAPIHarness.start(plan: nil)
    addTeardownBlock { try? await listen.stop() }
    for route in ["violations", "coverage"] {
      let reply = try listen.request(route)
      XCTAssertEqual(reply.status, 404)
      XCTAssertTrue(reply.error.contains("--plan"), reply.body)
    }
    let summary = try listen.request("summary")
    XCTAssertEqual(summary.status, 200)
    XCTAssertTrue(summary.body.contains(#""coverage":null"#), summary.body)
  }

  func testTheServedOpenAPIDocumentParsesAndListsEveryRoute() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    let reply = try listen.request("openapi.json")
    XCTAssertEqual(reply.status, 200)
    XCTAssertEqual(reply.body, OpenAPIDocument.json)
    let document = reply.json
    XCTAssertEqual(document["openapi"] as? String, "3.1.0")
    let paths = document["paths"] as? [String: [String: Any]] ?? [:]
    XCTAssertEqual(Set(paths.keys), Set(APIRoute.allCases.map(\.path)))
    for route in APIRoute.allCases {
      XCTAssertNotNil(paths[route.path]?[route.method.lowercased()], "\(route.method) \(route.path)")
    }
  }
}
