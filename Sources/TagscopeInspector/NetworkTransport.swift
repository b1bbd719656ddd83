import SystemPackage
import TagscopeRecording

#if canImport(Network)
  import Foundation
  import Network

  /// A TCP connection through Apple's Network framework (iOS, macOS, simulators).
  final class NetworkTransport: LineTransport {
    private let connection: NWConnection
    private let queue = DispatchQueue(label: "tagscope.remote.network")
    private let peer: String
    private let state = TransportState()

    /// Connects to `host:port` within `timeout` seconds.
    init(host: String, port: UInt16, timeout: TimeInterval) throws(SystemError) {
      peer = "\(host):\(port)"
      guard let endpointPort = NWEndpoint.Port(rawValue: port) else {
        throw SystemError("connect", "\(host):\(port)", .invalidArgument)
      }
      let tcp = NWProtocolTCP.Options()
      tcp.noDelay = true
      connection = NWConnection(
        host: NWEndpoint.Host(host), port: endpointPort, using: NWParameters(tls: nil, tcp: tcp))
      let ready = DispatchSemaphore(value: 0)
      let state = self.state
      connection.stateUpdateHandler = { update in
        switch update {
        case .ready:
          state.set(ready: true, closed: false)
          ready.signal()
        case .failed, .waiting, .cancelled:
          state.set(ready: false, closed: true)
          ready.signal()
        default: break
        }
      }
      connection.start(queue: queue)
      if ready.wait(timeout: .now() + timeout) == .timedOut {
        connection.cancel()
        throw SystemError("connect", peer, .timedOut)
      }
      guard state.isReady else {
        connection.cancel()
        throw SystemError("connect", peer, .connectionRefused)
      }
      Self.receive(on: connection, into: state)
    }

    /// Keeps one receive pending, appending what arrives to `state` (acknowledgements).
    private static func receive(on connection: NWConnection, into state: TransportState) {
      connection.receive(minimumIncompleteLength: 1, maximumLength: 65_536) { data, _, isComplete, error in
        if let data, !data.isEmpty { state.received(Array(data)) }
        if isComplete || error != nil {
          state.set(ready: false, closed: true)
          return
        }
        receive(on: connection, into: state)
      }
    }

    func receiveAvailable() -> [UInt8] { state.takeReceived() }

    var peerClosed: Bool { state.isClosed }

    func send(_ bytes: [UInt8]) throws(SystemError) {
      let done = DispatchSemaphore(value: 0)
      let failed = TransportState()
      connection.send(
        content: Data(bytes),
        completion: .contentProcessed { error in
          failed.set(ready: error == nil, closed: error != nil)
          done.signal()
        })
      if done.wait(timeout: .now() + 2) == .timedOut { throw SystemError("send", peer, .timedOut) }
      if failed.isClosed { throw SystemError("send", peer, .brokenPipe) }
    }

    func close() { connection.cancel() }
  }

  /// Connection flags shared with Network's callbacks.
  private final class TransportState: @unchecked Sendable {
    private let lock = NSLock()
    private var ready = false
    private var closed = false
    private var inbox: [UInt8] = []

    func received(_ bytes: [UInt8]) {
      lock.lock()
      if inbox.count < 1 << 20 { inbox += bytes }
      lock.unlock()
    }

    func takeReceived() -> [UInt8] {
      lock.lock()
      defer { lock.unlock() }
      let bytes = inbox
      inbox = []
      return bytes
    }

    func set(ready: Bool, closed: Bool) {
      lock.lock()
      self.ready = ready
      self.closed = closed
      lock.unlock()
    }

    var isReady: Bool {
      lock.lock()
      defer { lock.unlock() }
      return ready
    }

    var isClosed: Bool {
      lock.lock()
      defer { lock.unlock() }
      return closed
    }
  }
#endif
