import Foundation
import XCTest

/// `tagscope listen --log firebase -` when its standard input ends (a device log piped in): it
/// says so on standard error and serves on, or with `--exit-on-eof` stops there as on SIGTERM; and
/// a logcat record keeps the log's own time, not its arrival's. Run as a user would, on the built
/// binary with a real pipe.
final class ListenStandardInputEndTests: XCTestCase {
  /// A threadtime logcat line of Firebase's logging an event, at 11-25 20:15:33.101 device time.
  static let logcat =
    "11-25 20:15:33.101  4120  4188 V FA-SVC  : Logging event: origin=app,name=select_content,"
    + "params=Bundle[{ga_event_origin(_o)=app, content_type=image}]\n"

  /// A started `tagscope listen ARGUMENTS…` whose standard input is a pipe the test writes.
  private struct Listen {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()

    init(_ arguments: [String]) throws {
      process.executableURL = try BuiltProducts.tagscope()
      process.arguments = ["listen"] + arguments
      process.standardInput = input
      process.standardOutput = output
      process.standardError = errors
      try process.run()
    }

    /// Standard error read until it holds `text` (or ends); what was read.
    func errorsUntil(_ text: String) -> String {
      var read = Data()
      while !String(decoding: read, as: UTF8.self).contains(text) {
        let chunk = errors.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        read += chunk
      }
      return String(decoding: read, as: UTF8.self)
    }
  }

  /// The logcat time 11-25 20:15:33.101 as headless prints a record's time (UTC, `HH:MM:SS.mmm`),
  /// read in this machine's zone in the year the log is read.
  private func printedClock() throws -> String {
    let calendar = Calendar.current
    let now = Date()
    var year = calendar.component(.year, from: now)
    func date() -> Date? {
      calendar.date(from: DateComponents(year: year, month: 11, day: 25, hour: 20, minute: 15, second: 33))
    }
    if let this = date(), this.timeIntervalSince(now) > 86_400 { year -= 1 }
    let time = try XCTUnwrap(date()).addingTimeInterval(0.101)
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "UTC")!
    let parts = utc.dateComponents([.hour, .minute, .second], from: time)
    return String(format: "%02d:%02d:%02d.101", parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
  }

  func testWithExitOnEofItStopsWhenTheLogEndsAndTheRecordKeepsTheLogsTime() throws {
    let listen = try Listen(["--headless", "--port", "0", "--log", "firebase", "-", "--exit-on-eof"])
    _ = listen.errorsUntil("listening on")
    listen.input.fileHandleForWriting.write(Data(Self.logcat.utf8))
    try listen.input.fileHandleForWriting.close()
    let said = listen.errorsUntil("stopped:")
    listen.process.waitUntilExit()
    let printed = String(decoding: listen.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    XCTAssertEqual(listen.process.terminationStatus, 0, said)
    XCTAssertTrue(said.contains("firebase log stdin: standard input ended: stopping (--exit-on-eof)"), said)
    XCTAssertTrue(printed.contains("select_content"), printed)
    XCTAssertTrue(
      printed.hasPrefix(try printedClock() + " "), "the log's time, not the arrival's: \(printed)")
  }

  func testWithoutItListenSaysTheInputEndedAndServesOnUntilASignal() throws {
    let listen = try Listen(["--headless", "--port", "0", "--log", "firebase", "-"])
    _ = listen.errorsUntil("listening on")
    try listen.input.fileHandleForWriting.close()
    let said = listen.errorsUntil("standard input ended")
    XCTAssertTrue(
      said.contains(
        "firebase log stdin: standard input ended; listen goes on for apps and SDKs until Ctrl-C "
          + "(--exit-on-eof stops when it ends)"), said)
    XCTAssertTrue(listen.process.isRunning, "it serves on")
    listen.process.interrupt()
    listen.process.waitUntilExit()
    XCTAssertEqual(listen.process.terminationStatus, 0)
  }

  func testExitOnEofNeedsHeadlessAndStandardInput() throws {
    for arguments in [["--log", "firebase", "-", "--exit-on-eof"], ["--headless", "--exit-on-eof"]] {
      let run = try BuiltProducts.run(["listen", "--port", "0"] + arguments)
      XCTAssertEqual(run.status, 64, run.error)
      XCTAssertTrue(
        run.error.contains("--exit-on-eof needs --headless and --log FORMAT - (standard input)"), run.error)
    }
  }

  /// `help listen` says what happens when standard input ends, and how CI stops there.
  func testHelpListenSaysWhatHappensWhenStandardInputEnds() throws {
    let words = try BuiltProducts.run(["help", "listen"]).output.split(whereSeparator: \.isWhitespace)
      .joined(separator: " ")
    XCTAssertTrue(words.contains("When standard input ends listen says so"), words)
    XCTAssertTrue(words.contains("headless with --exit-on-eof it stops there as on SIGTERM"), words)
    XCTAssertTrue(words.contains("A logcat record keeps the log's time"), words)
  }
}
