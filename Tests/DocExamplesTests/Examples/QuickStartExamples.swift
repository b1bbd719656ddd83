// swift-format-ignore-file
// README's "Quick start 2: your app in one line" and the AnalyticsHub catalog's "Connecting an app",
// verbatim (DocExampleCoverageTests checks that they are), each inside a function that compiles it.
// NewUserScriptTests builds and runs the quick start itself, as a new user's package. Not
// formatted: a copy must keep the documents' lines.

import AnalyticsHub
import Foundation
import TagscopeInspector

enum QuickStart {
  static func shop() throws {
enum ShopScreens: String, AnalyticsTag, Hashable {
  case home, cart
  var name: String { rawValue }
}

enum ShopTags: Taxonomy {
  typealias Screen = ShopScreens
}

let hub = try AnalyticsHub<ShopTags>()
#if DEBUG
  let debugger = hub.attachDebugger(device: "My iPhone")  // streams to `tagscope listen` on this machine
#endif
hub.send(screen: .home)
hub.send(screen: .cart)
hub.send(screen: .home)
#if DEBUG
  debugger.close()  // a command-line tool flushes before it exits; an app just keeps running
#endif
  }

  static func connecting<T: Taxonomy>(_ hub: AnalyticsHub<T>, recordingURL: URL) throws {
#if DEBUG
  hub.attachDebugger()  // tagscope listen on this machine, port 7531
#endif

#if DEBUG
  hub.attachDebugger(host: "192.168.1.20", token: "T")  // the Mac's address on this network
#endif

let sink = RemoteSink(host: "192.168.1.20", header: .current(device: "QA iPhone", token: "T"))
let recorder = try Recorder(url: recordingURL, header: .current())
let inspector = Inspector(sinks: [sink, recorder])
hub.addObserver(inspector)
  }
}
