import Foundation
import TagscopeRecording

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A blocking loopback TCP client for sending exact bytes (truncated requests, raw JSONL…).
public final class RawClient: @unchecked Sendable {
  /// -1 once closed (a failed connect closes it; `deinit` then leaves it alone).
  public private(set) var descriptor: Int32

  /// A connection to `port` (`TCP_NODELAY`: each write goes out as written); a read or a write
  /// waits at most `timeout` seconds, a guard against a server that never answers or never reads,
  /// not a wait.
  public init(port: Int, timeout: TimeInterval = 60) throws {
    #if canImport(Glibc)
      descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      close(descriptor)
      descriptor = -1
      throw POSIXError(.ECONNREFUSED)
    }
    var interval = timeval(tv_sec: Int(timeout), tv_usec: .init((timeout - Double(Int(timeout))) * 1_000_000))
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    var one: Int32 = 1
    setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    #if canImport(Darwin)
      setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// Closes the connection (a client killed mid-stream: nothing more is read or sent).
  public func disconnect() {
    if descriptor >= 0 { close(descriptor) }
    descriptor = -1
  }

  /// Writes `bytes` in pieces ending at `splits` (offsets into `bytes`), one write each, without
  /// `SIGPIPE`; returns whether all of it was written (the server may close first).
  @discardableResult
  public func send(_ bytes: [UInt8], splits: [Int] = []) -> Bool {
    #if canImport(Glibc)
      let flags = Int32(MSG_NOSIGNAL)
    #else
      let flags: Int32 = 0
    #endif
    var start = 0
    for end in (splits.filter { $0 > 0 && $0 < bytes.count }.sorted() + [bytes.count]) where end > start {
      var offset = start
      while offset < end {
        let written = bytes[offset..<end].withUnsafeBytes {
          Foundation.send(descriptor, $0.baseAddress, $0.count, flags)
        }
        if written <= 0 { return false }
        offset += written
      }
      start = end
    }
    return true
  }

  public func send(_ text: String) { send(Array(text.utf8)) }

  /// Everything the server sends until it closes the connection.
  public func readAll() -> [UInt8] {
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      result += chunk[0..<count]
    }
    return result
  }

  /// Whether the server closed the connection (a read returns 0).
  public func waitForClose() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count == 0 { return true }
      if count < 0 { return errno == ECONNRESET }
    }
  }

  /// Reads one HTTP response (status and body by `Content-Length`).
  public func readResponse() -> (status: Int, body: String)? {
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      if let split = findHeaderEnd(data) {
        let head = String(decoding: data[0..<split], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        let length =
          lines.dropFirst().first { $0.lowercased().hasPrefix("content-length:") }
          .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        while data.count < split + 4 + length {
          let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
          if count <= 0 { return nil }
          data += chunk[0..<count]
        }
        return (status, String(decoding: data[(split + 4)..<(split + 4 + length)], as: UTF8.self))
      }
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count <= 0 { return nil }
      data += chunk[0..<count]
    }
  }

  private func findHeaderEnd(_ data: [UInt8]) -> Int? {
    guard data.count >= 4 else { return nil }
    for index in 0...(data.count - 4)
    where data[index] == 13 && data[index + 1] == 10 && data[index + 2] == 13 && data[index + 3] == 10 {
      return index
    }
    return nil
  }
}

/// Sends one HTTP request and reads the response.
public func httpRequest(
  port: Int, method: String = "POST", path: String, contentType: String? = "application/json",
  headers: [String] = [], body: [UInt8]
) throws -> (status: Int, body: String)? {
  let client = try RawClient(port: port)
  var head = "\(method) \(path) HTTP/1.1\r\nConnection: close\r\n"
  if !headers.contains(where: { $0.lowercased().hasPrefix("host:") }) { head += "Host: 127.0.0.1\r\n" }
  if let contentType { head += "Content-Type: \(contentType)\r\n" }
  for header in headers { head += header + "\r\n" }
  head += "Content-Length: \(body.count)\r\n\r\n"
  client.send(Array(head.utf8) + body)
  return client.readResponse()
}

/// ``httpRequest(port:method:path:contentType:headers:body:)`` with a text body.
public func httpRequest(
  port: Int, method: String = "POST", path: String, contentType: String? = "application/json",
  headers: [String] = [], body: String
) throws -> (status: Int, body: String)? {
  try httpRequest(
    port: port, method: method, path: path, contentType: contentType, headers: headers, body: Array(body.utf8)
  )
}

extension RawClient {
  /// The status line and headers (lower-cased names) of the reply to `request` (sent with
  /// `Connection: close`).
  public static func exchange(_ port: Int, _ request: String) throws -> (
    status: Int, headers: [String: String]
  ) {
    let client = try RawClient(port: port, timeout: 20)
    client.send(request)
    let text = String(decoding: client.readAll(), as: UTF8.self)
    let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
    let lines = head.components(separatedBy: "\r\n")
    let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
        in: .whitespaces)
    }
    return (status, headers)
  }

  /// Reads the native stream's `{"ack":N}` lines until one reaches `target` or the connection
  /// ends (or the read guard passes); returns every acknowledged `seq`, in order.
  public func acknowledgements(until target: UInt64) -> [UInt64] {
    var acknowledged: [UInt64] = []
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while acknowledged.last.map({ $0 < target }) ?? true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      buffer += chunk[0..<count]
      while let newline = buffer.firstIndex(of: 10) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        if case .object(let object)? = try? JSONParser.parse(line), case .int(let seq)? = object["ack"] {
          acknowledged.append(UInt64(seq))
        }
      }
    }
    return acknowledged
  }
}
