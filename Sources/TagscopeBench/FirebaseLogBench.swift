import Foundation
import TagscopeServer

/// `listen --log firebase`: lines per second `FirebaseLogParser` reads, against reading the same
/// file line by line without parsing (what the follower does around the parser). The log is the
/// real and format fixtures of `Tests/Fixtures/firebase-log` repeated, three lines of other tags
/// between two Firebase lines, as a device's logcat or console shows them.
enum FirebaseLogBench {
  static let runs = 5
  static let copies = 4_000
  static let noise = [
    "11-25 20:15:33.101  4120  4188 D OpenGLRenderer: Davey! duration=712ms; Flags=0, IntendedVsync=1",
    "2025-11-25 20:15:33.101234+0100 Shop[51031:2f1c3] [Assert] UINavigationBar decoded as unlocked",
    "11-25 20:15:33.200  1310  1310 I ActivityTaskManager: Displayed com.example.shop/.MainActivity: +412ms",
  ]

  static func run(_ report: inout BenchReport) throws {
    let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/firebase-log")
    let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path)
      .filter { $0.hasSuffix(".txt") && $0 != "malformed.txt" }.sorted()
    var lines: [String] = []
    for name in names {
      let text = try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
      for line in text.split(separator: "\n") {
        lines.append(String(line))
        lines += noise
      }
    }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "firebaselog-bench-\(getpid()).txt")
    defer { try? FileManager.default.removeItem(at: file) }
    let block = lines.joined(separator: "\n") + "\n"
    try Data(String(repeating: block, count: copies).utf8).write(to: file)
    let total = lines.count * copies

    var entries = 0
    let parse = try median { try read(file) { parser, line in entries += parser.feed(line).count } }
    let plain = try median { try read(file) { _, line in blackHole(line) } }
    guard entries > 0 else { throw BenchFailure(description: "the parser read no entry") }
    report.add(
      "firebaselog parse lines/s", Double(total) / parse, unit: "lines/s",
      baseline: "reading the same \(total) lines without parsing: \(Int(Double(total) / plain)) lines/s",
      atLeast: 200_000)
    report.add(
      "firebaselog parse/read time", parse / plain, unit: "×",
      baseline: "reading the file line by line (64 KiB reads, a String per line)", atMost: 20)
  }

  struct BenchFailure: Error, CustomStringConvertible {
    var description: String
  }

  /// The median of ``runs`` timings.
  static func median(_ body: () throws -> Void) rethrows -> Double {
    var timings: [Double] = []
    for _ in 0..<runs { timings.append(try measureSeconds(body)) }
    return timings.sorted()[runs / 2]
  }

  /// Reads `file` in 64 KiB chunks and hands each line, as a String, to `body`, as the follower does.
  static func read(_ file: URL, _ body: (inout FirebaseLogParser, String) -> Void) throws {
    let descriptor = open(file.path, O_RDONLY)
    guard descriptor >= 0 else { throw BenchFailure(description: "cannot open \(file.path)") }
    defer { close(descriptor) }
    var parser = FirebaseLogParser()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var pending: [UInt8] = []
    while true {
      let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, 64 * 1024) }
      guard count > 0 else { break }
      pending.append(contentsOf: buffer[0..<count])
      var start = 0
      while let end = pending[start...].firstIndex(of: 0x0A) {
        body(&parser, String(decoding: pending[start..<end], as: UTF8.self))
        start = end + 1
      }
      pending.removeFirst(start)
    }
  }
}
