import Foundation
import NIOConcurrencyHelpers
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `tagscope listen` without a user interface: starts the server, writes every record to the
/// recording (when asked), prints one line per record (unless quiet), and on SIGINT/SIGTERM closes
/// every connection, flushes the recording and prints the counters.
public enum ListenRunner {
  /// What went wrong before the server could run.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// Runs until SIGINT or SIGTERM (or until `stop` finishes, for tests); returns the final counters.
  ///
  /// - Parameters:
  ///   - output: receives record lines (standard output by default).
  ///   - notices: receives notices and the summary (standard error by default).
  ///   - ready: called with the bound port once the server accepts connections.
  ///   - stop: awaited instead of a signal when given.
  ///   - annotate: extra lines printed under each record in headless mode (the plan's violations).
  public static func run(
    _ options: ListenOptions, output: @escaping @Sendable (String) -> Void = ListenRunner.standardOutput,
    notices: @escaping @Sendable (String) -> Void = ListenRunner.standardError,
    ready: @Sendable (Int) -> Void = { _ in }, stop: (@Sendable () async -> Void)? = nil,
    annotate: (@Sendable (Record) -> [String])? = nil
  ) async throws -> ServerStatistics {
    let recorder: Recorder?
    if let path = options.recordPath {
      do {
        recorder = try Recorder(
          url: URL(fileURLWithPath: path),
          header: RecordingHeader(
            app: "tagscope listen",
            device: options.port == 0 ? options.host : "\(options.host):\(options.port)",
            started: Date()))
      } catch {
        throw Failure(description: "cannot write the recording \(path): \(error)")
      }
    } else {
      recorder = nil
    }
    // Caught from before the server accepts anything, so a signal right after `ready` is seen.
    let signals = stop == nil ? TerminationSignals() : nil
    let writeFailed = NIOLockedValueBox(false)
    let printRecords = options.headless && !options.quiet
    let server: ListenServer
    do {
      server = try await ListenServer.start(configuration: options.configuration) { event in
        if let recorder {
          var bytes: [UInt8] = []
          switch event {
          case .records(let records):
            bytes.reserveCapacity(records.count * 512)
            for record in records { RecordLineEncoder.appendLine(record, to: &bytes) }
          case .dropped(_, let marker): RecordLineEncoder.appendLine(marker, to: &bytes)
          default: break
          }
          if !bytes.isEmpty {
            do { try recorder.appendLines(bytes) } catch {
              let first = writeFailed.withLockedValue { failed -> Bool in
                defer { failed = true }
                return !failed
              }
              if first { notices("cannot write the recording: \(error)") }
            }
          }
        }
        var lines = HeadlessPrinter.lines(for: event)
        if let annotate, case .records(let records) = event {
          lines.output = zip(records, lines.output).flatMap { record, line in
            [line] + annotate(record).map { "  " + TerminalText.sanitize($0) }
          }
        }
        if printRecords, !lines.output.isEmpty { output(lines.output.joined(separator: "\n")) }
        for notice in lines.notices { notices(notice) }
      }
    } catch {
      recorder?.close()
      throw Failure(description: "cannot listen on \(options.host):\(options.port): \(error)")
    }
    if !["127.0.0.1", "::1", "localhost"].contains(options.host) {
      notices(
        "warning: listening on \(options.host), reachable from other machines"
          + (options.token == nil ? "; native clients need no token (see --token)" : ""))
    }
    notices(
      "listening on \(options.host):\(server.port)"
        + (options.recordPath.map { ", recording to \($0)" } ?? ""))
    ready(server.port)
    if let stop { await stop() } else { await signals?.wait() }
    try await server.shutdown()
    recorder?.close()
    let statistics = server.statistics
    notices("stopped: " + statistics.summary)
    return statistics
  }

  /// Writes a line to standard output.
  public static func standardOutput(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }

  /// Writes a line to standard error.
  public static func standardError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }

  /// Returns once the process receives SIGINT or SIGTERM (which no longer terminate it).
  public static func waitForTerminationSignal() async {
    let signals = TerminationSignals()
    await signals.wait()
  }
}

/// SIGINT and SIGTERM caught from creation until ``wait()`` returns, then restored.
final class TerminationSignals {
  private let stream: AsyncStream<Int32>
  private var sources: [any DispatchSourceSignal] = []
  private static let numbers = [SIGINT, SIGTERM]

  init() {
    let (stream, continuation) = AsyncStream<Int32>.makeStream()
    self.stream = stream
    for signalNumber in Self.numbers {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      source.setEventHandler { continuation.yield(signalNumber) }
      source.resume()
      sources.append(source)
    }
  }

  /// Returns at the first SIGINT or SIGTERM, and gives both signals their default action back.
  func wait() async {
    for await _ in stream { break }
    for source in sources { source.cancel() }
    sources = []
    for signalNumber in Self.numbers { signal(signalNumber, SIG_DFL) }
  }
}
