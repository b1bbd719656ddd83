import AnalyticsHub
import Foundation

extension AnalyticsHub {
  /// Streams every tag this hub dispatches to `tagscope listen` at `host:port`, named with this app
  /// and device (``PlatformIdentity``, or `app` and `device` when given): one call in a debug
  /// build. `token` is the one `listen --token` was started with. The returned inspector is
  /// attached already; `close()` it to flush and disconnect (the app may also just keep running).
  ///
  /// From a real device, `host` is the Mac's address on the same network, and `listen` binds to it
  /// (`tagscope listen --bind 0.0.0.0 --token T`); the app's Info.plist needs
  /// `NSLocalNetworkUsageDescription` for iOS to let it connect. Reaching `listen` never blocks the
  /// app: until it answers, records wait in a bounded queue (see ``RemoteSink``).
  @discardableResult
  public func attachDebugger(
    host: String = "127.0.0.1", port: UInt16 = 7531, token: String? = nil, app: String? = nil,
    device: String? = nil
  ) -> Inspector {
    let sink = RemoteSink(host: host, port: port, header: .current(app: app, device: device, token: token))
    let inspector = Inspector(sinks: [sink])
    addObserver(inspector)
    return inspector
  }
}
