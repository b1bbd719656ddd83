import Foundation
import TaggingPlan
import TagscopeInspector
import TagscopeRecording
import TagscopeServer
import TagscopeTimeline

/// Runs `tagscope listen` (and `proxy`) without a user interface: the headless observer of the one
/// live-session root (``LiveSessionRoot``), which starts the server, the ``LiveSession`` (recording,
/// plan check) and the query API; it prints one line per record (unless quiet) and, on
/// SIGINT/SIGTERM, shuts the session down in the root's one order, then prints the counters and
/// writes the reports.
///
/// An existing recording at the record path is continued, not overwritten: its native runs' highest
/// `seq` are read first, so after `listen` was killed and started again on the same file, records a
/// `RemoteSink` sends again (unacknowledged when the first `listen` died) are taken once; so are
/// an SDK's retries of its last messages (``RecordedMessages``).
public enum ListenRunner {
  /// What went wrong before the server could run.
  public typealias Failure = LiveSessionRoot.Failure

  /// Runs until SIGINT or SIGTERM (or until `stop` finishes, for tests); returns the final counters.
  ///
  /// - Parameters:
  ///   - output: receives record lines (standard output by default).
  ///   - notices: receives notices and the summary (standard error by default).
  ///   - ready: called with the bound port once the server accepts connections.
  ///   - stop: awaited instead of a signal when given.
  ///   - plan: the tagging plan; each violation prints under its record, the plan's summary at
  ///     the end, and the session's report goes to the options' JUnit and JSON paths.
  ///   - capacity: the ingest queue's bound, in records.
  public static func run(
    _ options: ListenOptions, output: @escaping @Sendable (String) -> Void = ListenRunner.standardOutput,
    notices: @escaping @Sendable (String) -> Void = ListenRunner.standardError,
    ready: @Sendable (Int) -> Void = { _ in }, stop: (@Sendable () async -> Void)? = nil,
    plan: Plan? = nil, capacity: Int = LiveSession.defaultCapacity
  ) async throws -> ServerStatistics {
    // Caught from before the server accepts anything, so a signal right after `ready` is seen.
    let signals = stop == nil ? TerminationSignals.catching() : nil
    let (ended, inputEnded) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let parts = try await LiveSessionRoot.start(
      LiveSessionOptions(listen: options, plan: plan, capacity: capacity),
      observer: .headless(options, output: output, notices: notices, inputEnded: { inputEnded.yield() }))
    guard let server = parts.server else { throw Failure(description: "the session started no server") }
    ready(server.port)
    let stopped: @Sendable () async -> Void = stop ?? { await signals?.next() }
    if options.exitOnEndOfInput {
      // The first of a signal (or `stop`) and the end of standard input's log.
      await withTaskGroup(of: Void.self) { group in
        group.addTask { await stopped() }
        group.addTask { for await _ in ended { return } }
        await group.next()
        group.cancelAll()
      }
      signals?.signals.cancel()
    } else {
      await stopped()
    }
    try await parts.shutdown { parts in
      notices("stopped: " + server.statistics.summary)
      if let line = parts.session.delivery.flatMap({ HeadlessPrinter.deliveryLine($0.snapshot()) }) {
        notices(TerminalText.sanitize(line))
      }
      guard let checker = parts.checker else { return }
      notices("plan: " + TerminalText.sanitize(checker.monitor.headerText))
      guard options.junitPath != nil || options.jsonPath != nil else { return }
      let report = SessionReport.make(checker: checker, timeline: parts.timeline)
      for failure in SessionReport.write(report, junitPath: options.junitPath, jsonPath: options.jsonPath) {
        notices(failure)
      }
    }
    return server.statistics
  }

  /// Writes a line to standard output.
  public static func standardOutput(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }

  /// Writes a line to standard error, terminal-safe (``TerminalText``).
  public static func standardError(_ text: String) {
    FileHandle.standardError.write(Data((TerminalText.sanitizeLines(text) + "\n").utf8))
  }
}

extension ListenRunner {
  /// A new recording at `path` (starting with `header`, by default `listen`'s), or the existing one
  /// continued (with its runs' highest `seq`, their far-ahead `seq`s and its SDK devices' last
  /// states).
  static func openRecording(
    _ path: String, options: ListenOptions, header: RecordingHeader? = nil,
    notices: @Sendable (String) -> Void
  ) throws -> (Recorder, RecordedRuns.Scan) {
    let url = URL(fileURLWithPath: path)
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    if size > 0 {
      let existing: RecordedRuns.Scan
      let version: Int
      do {
        // One reader: its header's version decides, and it reads on from there.
        let reader = try RecordingReader(path: path)
        version = reader.header.version
        // A newer tagscope's recording is not continued: this version's lines would be mixed into
        // a format it does not know.
        if version <= RecordingHeader.currentVersion {
          existing = try RecordedRuns.scan(reader, path: path)
        } else {
          existing = RecordedRuns.Scan()
        }
      } catch {
        throw Failure(description: "\(error); not overwriting it (give another --record path)")
      }
      guard version <= RecordingHeader.currentVersion else {
        throw Failure(
          description:
            "\(path): format version \(version) is newer than this tagscope writes "
            + "(\(RecordingHeader.currentVersion)): not continuing it (give another --record path, or update tagscope)"
        )
      }
      do {
        let recorder = try Recorder(continuing: url)
        notices(
          "continuing the recording \(path): \(existing.records) records"
            + (existing.messages.until.map { until in
              existing.messages.count == 0
                ? ""
                : "; the ids of its last \(existing.messages.count) SDK messages kept until "
                  + "\(ISO8601Timestamp.string(from: until)) (10 minutes after its last write), so their SDKs' "
                  + "retries are taken once"
            } ?? ""))
        if let torn = existing.tornLastLine {
          notices(
            "\(path):\(torn.line): the last line was cut mid-write (no newline at its end): ended and set aside, "
              + "readers skip it; each run's mark is from complete lines")
        }
        let anomalies = existing.sequence.anomalies
        if anomalies > 0 {
          notices(
            "\(path): \(anomalies) record\(anomalies == 1 ? "" : "s") whose seq repeats, goes backwards or "
              + "jumps far ahead within its source (kept; each run continues after its highest seq)")
        }
        return (recorder, existing)
      } catch {
        throw Failure(description: "cannot write the recording \(path): \(SystemErrorWords.reason(error))")
      }
    }
    do {
      let header =
        header
        ?? RecordingHeader(
          app: "tagscope listen",
          device: options.port == 0 ? options.host : "\(options.host):\(options.port)",
          started: Date())
      return (try Recorder(url: url, header: header), RecordedRuns.Scan())
    } catch {
      throw Failure(description: "cannot write the recording \(path): \(SystemErrorWords.reason(error))")
    }
  }
}

/// A recording and the query API's timeline, written alike.
final class TeeStore: LiveStore, @unchecked Sendable {
  private let recording: any LiveStore
  private let timeline: Timeline

  init(_ recording: any LiveStore, _ timeline: Timeline) {
    self.recording = recording
    self.timeline = timeline
  }

  var lastWriteError: SystemError? { recording.lastWriteError }

  func receive(_ items: [SinkItem]) {
    recording.receive(items)
    timeline.receive(items)
  }

  func receive(segments: [[SinkItem]]) {
    recording.receive(segments: segments)
    timeline.receive(segments: segments)
  }

  func flush() {
    recording.flush()
    timeline.flush()
  }

  /// The recording is what must survive; the query API's timeline is rebuilt from it.
  func sync() { recording.sync() }

  func close() {
    recording.close()
    timeline.close()
  }
}

extension LiveObserver {
  /// The headless printer: one line per record (with its plan violations) on `output` unless
  /// quiet, the notices on `notices` (with `--quiet`, only the start, the end of standard input,
  /// the summary and write failures); `inputEnded` is called when a log read from standard input
  /// ends.
  public static func headless(
    _ options: ListenOptions, output: @escaping @Sendable (String) -> Void,
    notices: @escaping @Sendable (String) -> Void, inputEnded: @escaping @Sendable () -> Void = {}
  ) -> LiveObserver {
    let printRecords = options.headless && !options.quiet
    let quiet = options.quiet
    let stopping = options.exitOnEndOfInput
    return LiveObserver(
      update: { update in
        let lines = HeadlessLines(update)
        if printRecords, !lines.output.isEmpty { output(lines.output.joined(separator: "\n")) }
        if !quiet { for notice in lines.notices { notices(notice) } }
        for case .inputEnded(let source) in update.events {
          notices(HeadlessPrinter.endedLine(source, stopping: stopping))
          inputEnded()
        }
      }, notice: notices)
  }
}

/// The headless lines for one live update: each record's line with its plan violations under it
/// (standard output), and notices (standard error), all sanitized.
struct HeadlessLines {
  var output: [String] = []
  var notices: [String] = []

  init(_ update: LiveUpdate) {
    var record = 0
    for event in update.events {
      if case .inputEnded = event { continue }  // said by the observer, even when quiet
      let lines = HeadlessPrinter.lines(for: event)
      notices += lines.notices
      guard case .records(let records) = event else { continue }
      for (line, recorded) in zip(lines.output, records) {
        output.append(line)
        if record < update.violations.count {
          output += update.violations[record].map {
            "  " + TerminalText.sanitize("✗ \($0.severity.rawValue) \($0.rule.rawValue): \($0.message)")
          }
        } else {
          // Without a plan, the ✗N of the record's line are its providers' own rules: say which.
          output += HeadlessPrinter.providerViolationLines(for: recorded)
        }
        record += 1
      }
    }
  }
}
