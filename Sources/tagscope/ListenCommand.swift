import ArgumentParser
import Foundation
import TaggingPlan
import TagscopeInspector
import TagscopeRecording
import TagscopeServer
import TagscopeTimeline

/// `tagscope listen`: apps (RemoteSink) and existing analytics SDKs stream into the debugger.
struct Listen: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "listen",
    abstract: "Receive records from apps (RemoteSink) and from analytics SDKs pointed at this machine.",
    discussion: """
      One port takes both the native recording stream (JSON Lines over TCP: a header line, then \
      records) and the HTTP APIs of Segment/RudderStack (/v1/batch…), Amplitude (/2/httpapi, /batch), \
      Mixpanel (/track, /import, /engage), PostHog (/batch/, /capture/, /e/, /i/v0/e/), Snowplow \
      (/com.snowplowanalytics.snowplow/tp2, /i) and GA4 (/mp/collect, /debug/mp/collect). Point an \
      SDK's host at http://HOST:PORT. With --token, native clients must send {"token": "…"} in their \
      header line. SIGINT/SIGTERM close every connection and flush the recording.
      """
  )

  @Option(help: "TCP port.")
  var port: Int = 7531

  @Option(help: "Address to bind. Loopback by default; use 0.0.0.0 to accept devices on the network.")
  var bind: String = "127.0.0.1"

  @Option(help: "Token native clients must send in their header line (\"token\" field).")
  var token: String?

  @Option(help: "Write every record received to this recording file (JSON Lines).")
  var record: String?

  @Option(help: "Check every record against this tagging plan (YAML); violations print under their record.")
  var plan: String?

  @Flag(help: "No user interface: print one line per record (for CI). Without it the debugger opens.")
  var headless = false

  @Flag(help: "With --headless, print nothing per record.")
  var quiet = false

  func validate() throws {
    guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
    if quiet && !headless { throw ValidationError("--quiet needs --headless") }
  }

  /// Runs the server on its own task and blocks until it stopped, so the command works under a
  /// synchronous root command too.
  func run() throws {
    let options = ListenOptions(
      host: bind, port: port, token: token, recordPath: record, headless: headless, quiet: quiet)
    if !headless {
      if let message = try ListenInterface.run(options: options, plan: plan) {
        FileHandle.standardError.write(Data("tagscope: \(message)\n".utf8))
        throw ExitCode(2)
      }
      return
    }
    let monitor = try plan.map { PlanMonitor(plan: try Self.loadPlan($0)) }
    let annotate = monitor.map(Self.planAnnotator)
    let outcome = ListenOutcome()
    Task {
      do { _ = try await ListenRunner.run(options, annotate: annotate) } catch {
        outcome.failure = "\(error)"
      }
      outcome.done.signal()
    }
    outcome.done.wait()
    if let message = outcome.failure { throw ValidationError(message) }
    if let monitor { ListenRunner.standardError("plan: " + monitor.headerText) }
  }

  /// Checks each record against the plan, in arrival order; one line per violation.
  static func planAnnotator(_ monitor: PlanMonitor) -> @Sendable (Record) -> [String] {
    let positions = RecordCounter()
    return { record in
      let violations = monitor.check(record, at: positions.next())
      return violations.map { "✗ \($0.severity.rawValue) \($0.rule.rawValue): \($0.message)" }
    }
  }

  /// Loads the plan, or stops with exit code 2 and the loader's `file:line:column` message.
  static func loadPlan(_ path: String) throws -> Plan {
    do { return try PlanLoader.load(contentsOf: path) } catch {
      ListenRunner.standardError("\(error)")
      throw ExitCode(2)
    }
  }
}

/// Positions of the records checked against the plan, in arrival order.
private final class RecordCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  func next() -> Int {
    lock.lock()
    defer { lock.unlock() }
    count += 1
    return count - 1
  }
}

/// How the listen task ended; written by the task before it signals, read after the wait.
private final class ListenOutcome: @unchecked Sendable {
  let done = DispatchSemaphore(value: 0)
  var failure: String?
}
