import Foundation
import TagscopeServer
import TagscopeTimeline

/// The connection of every source `listen` has seen, from the server's connect and disconnect
/// events: what the debugger's Sources view shows (connected, disconnected since…, gaps).
/// Thread-safe: the live session's worker notes events, the UI's effects read snapshots.
public final class SourceConnections: @unchecked Sendable {
  private let lock = NSLock()
  private var byName: [String: SourceConnection] = [:]
  private var order: [String] = []
  private let now: @Sendable () -> Date

  /// An empty table; `now` is the clock (tests pass their own).
  public init(now: @escaping @Sendable () -> Date = { Date() }) { self.now = now }

  /// Notes the connections and disconnections among `events`.
  public func note(_ events: [ListenEvent]) {
    lock.lock()
    defer { lock.unlock() }
    for event in events {
      switch event {
      case .sourceConnected(let source, let header):
        let time = now()
        if var known = byName[source] {
          if !known.connected {
            known.reconnections += 1
            known.lastGap = known.since...max(known.since, time)
          }
          known.connected = true
          known.since = time
          known.app = header.app ?? known.app
          known.device = header.device ?? known.device
          byName[source] = known
        } else {
          order.append(source)
          byName[source] = SourceConnection(
            name: source, app: header.app, device: header.device, connected: true, since: time)
        }
      case .sourceDisconnected(let source):
        guard var known = byName[source], known.connected else { continue }
        known.connected = false
        known.since = now()
        byName[source] = known
      default: continue
      }
    }
  }

  /// Every source seen, in the order first connected.
  public func snapshot() -> [SourceConnection] {
    lock.lock()
    defer { lock.unlock() }
    return order.compactMap { byName[$0] }
  }
}
