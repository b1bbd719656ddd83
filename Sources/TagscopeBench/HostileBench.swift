import Foundation
import TagscopeServer

/// Issue 14: what one hostile client costs the others. While one client sends the worst payload
/// found (a 2.2 MB Amplitude batch whose last property key repeats 80,000 times: 100 s of CPU on
/// an event loop when parsing was quadratic) in a loop, another sends normal Segment batches; the
/// figure is the p99 latency of those, beside the same requests with no hostile client.
enum HostileBench {
  static let normalRequests = 300

  static func run(_ report: inout BenchReport) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let running = try RecordingServer(recording: directory.appendingPathComponent("h.jsonl"), live: true)
    let port = running.server.port
    let quiet = try latencies(port: port)
    let stop = Flag()
    let hostileTimes = LockedTimes()
    let hostile = Thread {
      guard let socket = try? BenchSocket(port: port) else { return }
      let request = hostileRequest()
      while !stop.isSet {
        let start = DispatchTime.now().uptimeNanoseconds
        socket.send(request)
        guard socket.readResponseStatus() > 0 else { return }
        hostileTimes.add(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
      }
    }
    hostile.start()
    while hostileTimes.count == 0 { usleep(1_000) }
    let loaded = try latencies(port: port)
    stop.set()
    while !hostile.isFinished { usleep(1_000) }
    try running.stop()
    report.add(
      "hostile.normal.p99", loaded.p99, unit: "ms", baseline: "normal /v1/batch beside the worst payload",
      atMost: 50)
    report.add("hostile.normal.p50", loaded.p50, unit: "ms", baseline: "same requests")
    report.add("hostile.quiet.p99", quiet.p99, unit: "ms", baseline: "the same requests, no hostile client")
    report.add(
      "hostile.payload.ms", hostileTimes.median, unit: "ms",
      baseline: "one 2.2 MB batch, 80,000 repeated keys, answered (\(hostileTimes.count) sent)")
  }

  /// p50 and p99 of `normalRequests` Segment batches (10 events) sent one after the other, in turn
  /// on 4 connections (the server spreads connections over its event loops, so some share the
  /// hostile client's).
  static func latencies(port: Int) throws -> (p50: Double, p99: Double) {
    let sockets = try (0..<4).map { _ in try BenchSocket(port: port) }
    var times: [Double] = []
    let request = normalRequest()
    for index in 0..<normalRequests {
      let socket = sockets[index % sockets.count]
      let start = DispatchTime.now().uptimeNanoseconds
      socket.send(request)
      guard socket.readResponseStatus() == 200 else { throw BenchError("a normal batch was refused") }
      times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    times.sort()
    return (times[times.count / 2], times[min(times.count - 1, times.count * 99 / 100)])
  }

  static func normalRequest() -> [UInt8] {
    let messages = (0..<10).map { index in
      #"{"type":"track","userId":"u","event":"Play","messageId":"n-\#(index)","properties":{"position":\#(index)}}"#
    }
    return request(
      path: "/v1/batch", body: #"{"writeKey":"k","batch":["# + messages.joined(separator: ",") + "]}")
  }

  static func hostileRequest() -> [UInt8] {
    var properties = ""
    properties.reserveCapacity(2_400_000)
    for index in 0..<80_000 { properties += "\"key\(index)\":0," }
    for index in 0..<80_000 { properties += "\"key79999\":\(index)," }
    properties.removeLast()
    let body =
      #"{"api_key":"k","events":[{"event_type":"e","user_id":"hostile-user","event_properties":{"#
      + properties
      + "}}]}"
    return request(path: "/batch", body: body)
  }

  static func request(path: String, body: String) -> [UInt8] {
    let bytes = Array(body.utf8)
    return Array(
      ("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(bytes.count)\r\n\r\n").utf8) + bytes
  }
}

/// A flag set once, read from another thread.
final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}

/// Durations collected on one thread and read on another.
final class LockedTimes: @unchecked Sendable {
  private let lock = NSLock()
  private var times: [Double] = []
  func add(_ time: Double) { lock.withLock { times.append(time) } }
  var count: Int { lock.withLock { times.count } }
  var median: Double { lock.withLock { times.isEmpty ? 0 : times.sorted()[times.count / 2] } }
}
