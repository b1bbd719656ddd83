import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// `--token` guards every way in: native streams and each SDK endpoint, compared on bytes.
final class TokenTests: XCTestCase {
  private let token = "s3cr\u{E9}t"  // precomposed é
  private let decomposed = "s3cre\u{301}t"  // the same text, decomposed: equal as Swift Strings

  func testTheCheckComparesBytesNotUnicodeTextAndNeverNumbers() throws {
    let check = try XCTUnwrap(TokenCheck(token))
    XCTAssertEqual(token, decomposed, "Swift String equality would let this through")
    XCTAssertTrue(check.matches(token))
    XCTAssertFalse(check.matches(decomposed))
    XCTAssertFalse(check.matches("s3cr"))
    XCTAssertFalse(check.matches(token + "x"))
    XCTAssertFalse(check.matches(""))
    let numeric = try XCTUnwrap(TokenCheck("12345"))
    XCTAssertFalse(numeric.matches(PropertyValue.int(12345)))
    XCTAssertFalse(numeric.matches(PropertyValue.double(12345)))
    XCTAssertTrue(numeric.matches(PropertyValue.string("12345")))
    XCTAssertNil(TokenCheck(nil))
  }

  func testHTTPEndpointsRequireTheTokenInTheirSDKsOwnField() async throws {
    let (server, collector) = try await startServer(ListenConfiguration(port: 0, token: token))
    func status(_ path: String, _ body: String, headers: [String] = [], form: Bool = false) throws -> Int? {
      try httpRequest(
        port: server.port, path: path,
        contentType: form ? "application/x-www-form-urlencoded" : "application/json",
        headers: headers, body: body)?.status
    }
    let track = #"{"type":"track","userId":"u","event":"E"}"#
    // Refused: no credential, a wrong one, a decomposed é, a number.
    XCTAssertEqual(try status("/v1/track", track), 401)
    XCTAssertEqual(
      try status("/v1/track", #"{"type":"track","userId":"u","event":"E","writeKey":"guess"}"#), 401)
    XCTAssertEqual(
      try status("/v1/track", #"{"type":"track","userId":"u","event":"E","writeKey":"\#(decomposed)"}"#), 401)
    XCTAssertEqual(
      try status("/2/httpapi", #"{"api_key":12345,"events":[{"event_type":"e","user_id":"uuuuu"}]}"#), 400)
    XCTAssertEqual(
      try status("/2/httpapi", #"{"api_key":"k","events":[{"event_type":"e","user_id":"uuuuu"}]}"#), 401)
    XCTAssertEqual(
      try status("/com.snowplowanalytics.snowplow/tp2", #"{"data":[{"e":"pv","url":"u"}]}"#), 401)
    XCTAssertEqual(
      try status(
        "/mp/collect?measurement_id=G-1&api_secret=guess", #"{"client_id":"c","events":[{"name":"a"}]}"#), 401
    )
    XCTAssertEqual(collector.records.count, 0, "nothing refused reaches the recording")
    // Accepted: each SDK's own field, or a bearer token.
    XCTAssertEqual(
      try status("/v1/track", #"{"type":"track","userId":"u","event":"S","writeKey":"\#(token)"}"#), 200)
    let basic = Data((token + ":").utf8).base64EncodedString()
    XCTAssertEqual(try status("/v1/track", track, headers: ["Authorization: Basic \(basic)"]), 200)
    XCTAssertEqual(
      try status("/2/httpapi", #"{"api_key":"\#(token)","events":[{"event_type":"A","user_id":"uuuuu"}]}"#),
      200)
    XCTAssertEqual(
      try status(
        "/com.snowplowanalytics.snowplow/tp2", #"{"data":[{"e":"pv","url":"u"}]}"#,
        headers: ["Authorization: Bearer \(token)"]), 200)
    XCTAssertEqual(
      try status(
        "/mp/collect?measurement_id=G-1&api_secret=\(token.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
        #"{"client_id":"c","events":[{"name":"g"}]}"#), 204)
    func mixpanel(_ key: String) -> String {
      let payload = #"[{"event":"M","properties":{"token":"\#(key)","distinct_id":"d-1","time":1700000000}}]"#
      return "data=" + Data(payload.utf8).base64EncodedString().addingPercentEncoding(
        withAllowedCharacters: .alphanumerics)!
    }
    XCTAssertEqual(try status("/track", mixpanel("t"), form: true), 401)
    XCTAssertEqual(try status("/track", mixpanel(token), form: true), 200)
    let records = collector.waitForRecords(6)
    try await server.shutdown()
    XCTAssertEqual(records.count, 6, "\(records.map(\.name))")
    XCTAssertEqual(server.statistics.rejected[.badToken], 7, server.statistics.summary)
  }

  func testANativeStreamWithADecomposedOrNumericTokenIsRefused() async throws {
    let (server, collector) = try await startServer(ListenConfiguration(port: 0, token: "12345"))
    let record = #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"in"}"# + "\n"
    let numeric = try RawClient(port: server.port)
    numeric.send(#"{"format":"tagscope-recording","version":1,"app":"A","token":12345}"# + "\n" + record)
    XCTAssertTrue(numeric.waitForClose())
    let friend = try RawClient(port: server.port)
    friend.send(#"{"format":"tagscope-recording","version":1,"app":"B","token":"12345"}"# + "\n" + record)
    let records = collector.waitForRecords(1)
    try await server.shutdown()
    XCTAssertEqual(records.map(\.source), ["B"])
    XCTAssertEqual(server.statistics.rejected[.badToken], 1)
  }
}
