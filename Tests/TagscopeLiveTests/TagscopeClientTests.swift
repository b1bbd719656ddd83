import Foundation
import TagscopeClient
import TagscopeTestSupport
import XCTest

/// Issue 16: the Swift client against a real `listen` — summary, records, a wait answered as the
/// records arrive and one answered by records already there, a timed-out wait, an invalid filter,
/// reset between two tests, the token, and violations and coverage.
final class TagscopeClientTests: XCTestCase {
  private func client(_ listen: QueryAPIHarness, token: String? = nil) -> TagscopeClient {
    TagscopeClient(baseURL: URL(string: "http://127.0.0.1:\(listen.server.port)")!, token: token)
  }

  func testTheClientWaitsQueriesAndResets() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    let tagscope = client(listen)
    // A wait pending on listen before the records arrive returns when they do.
    async let waited = tagscope.wait(for: "kind:action name:addToCart", count: 2, timeout: .seconds(120))
    XCTAssertTrue(eventually { listen.query.pendingWaits == 1 }, "listen holds the wait")
    try listen.send([
      recordLine(1, "screen", "home"),
      recordLine(2, "userAction", "addToCart", properties: #"{"sku":"A-1"}"#),
      recordLine(3, "userAction", "addToCart"),
    ])
    let records = try await waited
    XCTAssertEqual(records.map(\.seq), [2, 3])
    XCTAssertEqual(records[0].properties?["sku"], .string("A-1"))
    XCTAssertEqual(records[0].source, "App@sim")
    XCTAssertEqual(records[0].json["kind"], .string("userAction"))

    let summary = try await tagscope.summary()
    XCTAssertEqual(summary.records, 3)
    XCTAssertEqual(summary.byKind, ["screen": 1, "userAction": 2])
    XCTAssertEqual(summary.coverage?.plan, "Shop")
    XCTAssertEqual(summary.withViolations, 1, "the addToCart without its sku")
    let page = try await tagscope.records(filter: "name:home")
    XCTAssertEqual(page.records.map(\.name), ["home"])
    let violations = try await tagscope.violations()
    XCTAssertEqual(violations.map(\.rule), ["missing-property"])
    XCTAssertEqual(violations.first?.planFile, "shop.yaml")
    let coverage = try await tagscope.coverage()
    XCTAssertEqual(coverage.planned, 3)
    XCTAssertEqual(Set(coverage.items.map(\.state)), ["passed", "failing", "not-seen"])
    // addToCart passed once, and its record without the sku broke it: failing, 1 of 2.
    let broken = try XCTUnwrap(coverage.items.first { $0.state == "failing" })
    XCTAssertEqual(broken.failures, 1)
    XCTAssertEqual(broken.records, 2)
    XCTAssertEqual(broken.label, "failing · 1 of 2 broke it (missing-property)")

    // A timeout gives what did arrive; an invalid filter is refused with the parser's message.
    do {
      try await tagscope.wait(for: "name:checkout", timeout: .milliseconds(300))
      XCTFail("no checkout was sent")
    } catch TagscopeClientError.timedOut(let timeout) {
      XCTAssertEqual(timeout.received, [])
      XCTAssertEqual(timeout.filter, "name:checkout")
      // The message says what was waited for and what arrived instead.
      let arrived = try XCTUnwrap(timeout.arrived)
      XCTAssertEqual(
        "\(TagscopeClientError.timedOut(timeout))",
        "wait for \"name:checkout\" timed out after 0.3 s with 0 of 1 matching record(s); the segment holds \(arrived.records) record(s) ("
          + arrived.byKind.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
          + ") from "
          + arrived.bySource.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(
            separator: ", ")
          + "; records(filter:) lists them")
      XCTAssertGreaterThan(arrived.records, 0)
    }
    do {
      _ = try await tagscope.records(filter: "kind:nope")
      XCTFail("an invalid filter is refused")
    } catch TagscopeClientError.refused(let status, let message) {
      XCTAssertEqual(status, 400)
      XCTAssertTrue(message.contains("unknown kind"), message)
    }

    // The next test starts from nothing; the recording keeps everything.
    let segment = try await tagscope.reset()
    XCTAssertEqual(segment.segment, 2)
    let afterReset = try await tagscope.summary()
    XCTAssertEqual(afterReset.records, 0)
    try listen.send([recordLine(4, "screen", "cart")])
    let cart = try await tagscope.wait(for: "name:cart", timeout: .seconds(60))
    XCTAssertEqual(cart.map(\.seq), [4])
  }

  func testAWaitForRecordsAlreadyThereReturnsThem() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    let tagscope = client(listen)
    try listen.send([recordLine(1, "screen", "home"), recordLine(2, "screen", "cart")])
    let screens = try await tagscope.wait(for: "kind:screen", count: 2, timeout: .seconds(60))
    XCTAssertEqual(screens.count, 2)
    // Both records are in the segment before this wait starts: it is answered from what is there.
    let records = try await tagscope.wait(for: "name:cart", timeout: .seconds(60))
    XCTAssertEqual(records.map(\.seq), [2])
    XCTAssertEqual(records.first?.source, "App@sim")
    XCTAssertEqual(listen.query.pendingWaits, 0)
  }

  func testAWaitForAPropertyValue() async throws {
    let listen = try await QueryAPIHarness.start()
    addTeardownBlock { try? await listen.stop() }
    let tagscope = client(listen)
    // The UI test waits for "the addToCart with sku A-1", pending before it arrives.
    async let waited = tagscope.wait(for: "prop.sku:A-1", timeout: .seconds(120))
    XCTAssertTrue(eventually { listen.query.pendingWaits == 1 }, "listen holds the wait")
    try listen.send([
      recordLine(1, "userAction", "addToCart", properties: #"{"sku":"B-2"}"#),
      recordLine(2, "userAction", "addToCart", properties: #"{"sku":"A-1","quantity":2}"#),
    ])
    let records = try await waited
    XCTAssertEqual(records.map(\.seq), [2])
    XCTAssertEqual(records.first?.properties?["sku"], .string("A-1"))
    let more = try await tagscope.wait(for: "name:addToCart prop.quantity>=2", timeout: .seconds(60))
    XCTAssertEqual(more.map(\.seq), [2], "a comparison, answered by the record already there")
    do {
      _ = try await tagscope.wait(for: "prop.quantity>two", timeout: .seconds(1))
      XCTFail("a comparison with no number is refused")
    } catch TagscopeClientError.refused(let status, let message) {
      XCTAssertEqual(status, 400)
      XCTAssertTrue(message.contains("prop.quantity>two: \"two\" is not a number"), message)
    }
  }

  func testTheTokenIsSentAndAWrongOneIsRefused() async throws {
    let listen = try await QueryAPIHarness.start(token: "s3cret")
    addTeardownBlock { try? await listen.stop() }
    let summary = try await client(listen, token: "s3cret").summary()
    XCTAssertEqual(summary.records, 0)
    do {
      _ = try await client(listen, token: "wrong").summary()
      XCTFail("a wrong token is refused")
    } catch TagscopeClientError.refused(let status, _) {
      XCTAssertEqual(status, 401)
    }
  }
}
