import Foundation

/// The four proxies the mitmproxy comparisons (``MitmproxyBench``, ``FirebaseMitmproxyBench``) run
/// side by side in `directory`: tagscope's proxy answering locally, without and with a written
/// recording, and mitmdump, without and with one. Started together, stopped together (in reverse);
/// when one fails to start, those already started are stopped.
struct ProxyPeers {
  let plain: LocalTagscopeProxy
  let recorded: LocalTagscopeProxy
  let mitm: MitmproxyPeer
  let mitmRecorded: MitmproxyPeer

  static func start(in directory: URL) throws -> ProxyPeers {
    var started: [() -> Void] = []
    do {
      let plain = try LocalTagscopeProxy(
        directory: directory.appendingPathComponent("tagscope"), records: false)
      started.append(plain.stop)
      let recorded = try LocalTagscopeProxy(
        directory: directory.appendingPathComponent("tagscope-recorded"), records: true)
      started.append(recorded.stop)
      let mitm = try MitmproxyPeer.start(in: directory.appendingPathComponent("mitm"), records: false)
      started.append(mitm.stop)
      let mitmRecorded = try MitmproxyPeer.start(
        in: directory.appendingPathComponent("mitm-recorded"), records: true)
      return ProxyPeers(plain: plain, recorded: recorded, mitm: mitm, mitmRecorded: mitmRecorded)
    } catch {
      for stop in started.reversed() { stop() }
      throw error
    }
  }

  func stop() {
    mitmRecorded.stop()
    mitm.stop()
    recorded.stop()
    plain.stop()
  }
}
