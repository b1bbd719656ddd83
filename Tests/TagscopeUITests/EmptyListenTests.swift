import XCTest

@testable import TagscopeUI

/// Issue 49: an empty `listen` says how to connect — the attach line for an app with the
/// inspector, the host to point SDKs at, the proxy — with the address and ports it listens on.
final class EmptyListenTests: XCTestCase {
  private func frame(_ label: String, size: Size = Size(width: 80, height: 24)) -> String {
    let store = Fixtures.store([])
    let source = InspectorTimelineSource(timeline: store.timeline, sourceLabel: label, plan: nil)
    let state = UISession(source: source, mode: .live, size: size, now: 1000)
    return render(state).text
  }

  /// The Events pane's text, its wrapped lines joined.
  private func words(_ text: String) -> String {
    text.split(separator: "\n").map { line in
      String(
        line.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "│" || $0 == "├" }).dropFirst()
          .first
          ?? "")
    }.joined(separator: " ").split(separator: " ").joined(separator: " ")
  }

  func testTheDefaultPortAndTheProxyAreNamed() {
    let text = frame("listening on 127.0.0.1:7531, proxy on 127.0.0.1:8888")
    let shown = words(text)
    XCTAssertTrue(shown.contains("hub.attachDebugger(host: \"127.0.0.1\")"), text)
    XCTAssertTrue(shown.contains("set its host to http://127.0.0.1:7531"), text)
    XCTAssertTrue(shown.contains("set its HTTP proxy to 127.0.0.1:8888 and trust the CA"), text)
    XCTAssertFalse(text.contains("…│"), "nothing cut:\n\(text)")
    assertGolden(text, "empty-listen-proxy-80x24")
  }

  func testAnotherPortAndEveryInterfaceAreSaidAsTheAppNeedsThem() {
    let shown = words(
      frame("listening on 0.0.0.0:9000 · no token: open to the network", size: Size(width: 100, height: 30)))
    XCTAssertTrue(shown.contains("hub.attachDebugger(host: \"<this machine's address>\", port: 9000)"), shown)
    XCTAssertTrue(shown.contains("http://<this machine's address>:9000"), shown)
    XCTAssertTrue(shown.contains("an app you cannot change: tagscope proxy"), shown)
  }

  /// A listen with --token says so in its header, and the hint passes the token where it goes.
  func testWithATokenTheAttachLineAndTheSDKPassIt() {
    let text = frame(
      "listening on 0.0.0.0:7531" + ConnectHint.tokenRequired, size: Size(width: 100, height: 30))
    let shown = words(text)
    XCTAssertTrue(
      shown.contains("hub.attachDebugger(host: \"<this machine's address>\", token: \"<your --token>\")"),
      text)
    XCTAssertTrue(shown.contains("http://<this machine's address>:7531 and its key to your --token"), text)
    XCTAssertFalse(words(frame("listening on 127.0.0.1:7531")).contains("token"), "none without --token")
  }

  func testADemoOrAFilterSaysWhatItSaidBefore() {
    XCTAssertTrue(frame("podcast app simulator").contains("waiting for records…"))
    XCTAssertFalse(frame("podcast app simulator").contains("attachDebugger"))
    XCTAssertNil(ConnectHint.address(after: "listening on ", in: "listening on nowhere"))
    XCTAssertEqual(ConnectHint.address(after: "listening on ", in: "listening on ::1:7531")?.host, "::1")
  }
}
