import AnalyticsHub
import Foundation
import TagscopeClient
import TagscopeInspector
import TagscopeRecording

/// The UI-test examples of TagscopeClient's catalog are compiled here; they skip unless TAGSCOPE_URL names a listen (the
/// client's calls run against a real listen in TagscopeClientTests). Their app taps: the hub's record
/// of "Add to cart" (or of the purchase) streamed to that listen by a RemoteSink.
func tapAddToCart() async throws {
  try await streamTap(name: "addToCart", properties: ["sku": "A-1"])
}

/// The scope example's tap: the purchase.
func tapPay() async throws {
  try await streamTap(name: "purchase", properties: ["value": 42.5])
}

private func streamTap(name: String, properties: Properties) async throws {
  let url = URL(string: ProcessInfo.processInfo.environment["TAGSCOPE_URL"] ?? "http://127.0.0.1:7531")!
  let sink = RemoteSink(
    host: url.host ?? "127.0.0.1", port: UInt16(url.port ?? 7531),
    header: RecordingHeader(app: "Shop", device: "ui-test"), log: { _ in })
  var record = Record(seq: 1, time: Date(), kind: .userAction, name: name, properties: properties)
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
