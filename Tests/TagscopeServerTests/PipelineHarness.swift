import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPCompression
import TagscopeRecording

@testable import TagscopeServer

/// An ingest a pipeline test steers: whether it has room, and when what it took is stored (held
/// until ``releaseStorage()``).
final class SteeredIngest: ListenIngest, @unchecked Sendable {
  private let lock = NSLock()
  private var room = true
  private var holdsStorage = false
  private var waiting: [@Sendable () -> Void] = []
  private var taken = 0
  private var reported: [String] = []

  init(room: Bool = true, holdsStorage: Bool = false) {
    self.room = room
    self.holdsStorage = holdsStorage
  }

  func deliver(_ event: ListenEvent) {
    switch event {
    case .records(let records): lock.withLock { taken += records.count }
    case .problem(_, let message): lock.withLock { reported.append(message) }
    default: break
    }
  }

  /// The problems reported, in order.
  var problems: [String] { lock.withLock { reported } }

  var hasRoom: Bool { lock.withLock { room } }

  func whenRoom(_ resume: @escaping @Sendable () -> Void) { resume() }

  func whenStored(_ done: @escaping @Sendable () -> Void) {
    let now = lock.withLock {
      if holdsStorage { waiting.append(done) }
      return !holdsStorage
    }
    if now { done() }
  }

  /// How many records were delivered.
  var records: Int { lock.withLock { taken } }

  /// How many storage waits are held.
  var heldWaits: Int { lock.withLock { waiting.count } }

  /// Stores what was taken: the waits held are called, and later ones at once.
  func releaseStorage() {
    let held = lock.withLock {
      holdsStorage = false
      defer { waiting = [] }
      return waiting
    }
    for done in held { done() }
  }
}

/// One client connection to a pipeline on an `EmbeddedChannel`: raw bytes in, raw bytes out,
/// virtual time.
struct PipelineConnection {
  let channel: EmbeddedChannel

  /// A connection to `listen`'s HTTP handlers, as ``ProtocolDetector`` installs them.
  static func listen(_ server: ServerContext) throws -> PipelineConnection {
    let channel = EmbeddedChannel()
    try channel.pipeline.syncOperations.addHandlers([
      HTTPResponseEncoder(), ChunkSizeGuard(limit: server.configuration.maximumBodyBytes),
      ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)),
      HTTPServerPipelineHandler(),
      NIOHTTPRequestDecompressor(limit: .size(server.configuration.maximumBodyBytes)),
      HTTPIngestHandler(server: server),
    ])
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
    return PipelineConnection(channel: channel)
  }

  /// Sends `text` as the client.
  func send(_ text: String) throws { try channel.writeInbound(ByteBuffer(string: text)) }

  /// Sends `count` bytes of body.
  func send(bytes count: Int) throws {
    try channel.writeInbound(ByteBuffer(repeating: UInt8(ascii: "x"), count: count))
  }

  /// Ends the client's side (a half-close).
  func halfClose() { channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed) }

  /// Runs what the event loop has queued, then moves time on by `amount`.
  func advance(by amount: TimeAmount = .zero) { channel.embeddedEventLoop.advanceTime(by: amount) }

  /// Everything written to the client since the last call, as text.
  func written() throws -> String {
    advance()
    var text = ""
    while let part = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: part) }
    return text
  }

  /// Whether the connection is still open.
  var isOpen: Bool { channel.isActive }
}

/// The status lines of the responses in `text` (a body may run into the next response's).
func pipelineStatusLines(_ text: String) -> [String] {
  text.components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap { rest in
    guard rest.prefix(3).allSatisfy(\.isNumber) else { return nil }
    return "HTTP/1.1 " + (rest.components(separatedBy: "\r\n").first ?? rest)
  }
}

/// An HTTP/1.1 request with `headers` and `body` (its `Content-Length` added unless given).
func pipelineRequest(
  _ path: String, method: String = "POST", headers: [String] = [], body: String = ""
) -> String {
  var lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1"] + headers
  let framed = headers.contains {
    $0.lowercased().hasPrefix("content-length") || $0.lowercased().hasPrefix("transfer-encoding")
  }
  if !framed {
    lines.append("Content-Length: \(body.utf8.count)")
  }
  return lines.joined(separator: "\r\n") + "\r\n\r\n" + body
}
