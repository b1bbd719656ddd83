import Foundation
import TagscopeClient
import TagscopeInspector
import TagscopeRecording

/// The UI-test example of TagscopeClient's catalog is compiled here; it skips unless TAGSCOPE_URL names a listen (the
/// client's calls run against a real listen in TagscopeClientTests). Its app tap: the hub's record
/// of "Add to cart" streamed to that listen by a RemoteSink.
func tapAddToCart() async throws {
  let url = URL(string: ProcessInfo.processInfo.environment["TAGSCOPE_URL"] ?? "http://127.0.0.1:7531")!
  let sink = RemoteSink(
    host: url.host ?? "127.0.0.1", port: UInt16(url.port ?? 7531),
    header: RecordingHeader(app: "Shop", device: "ui-test"), log: { _ in })
  var record = Record(seq: 1, time: Date(), kind: .userAction, name: "addToCart", properties: ["sku": "A-1"])
  record.context = RecordContext(screen: "cart", history: ["home", "cart"])
  sink.send(record)
  _ = sink.waitUntilAcknowledged(timeout: 60)
  sink.close()
}

/// TagscopeClient's doc-comment example, verbatim (compiled, not run: it needs a listen on the
/// default port; TagscopeClientTests runs the same calls against a real one).
func tagscopeClientDocExample() async throws {
  let tagscope = TagscopeClient()  // listen on 127.0.0.1:7531
  try await tagscope.reset()
  // … the UI test taps through the app …
  let orders = try await tagscope.wait(for: #"name:"Order Completed""#, count: 1, timeout: .seconds(5))
  _ = orders
}
