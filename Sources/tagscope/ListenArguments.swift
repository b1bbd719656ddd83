import ArgumentParser
import Foundation
import TaggingPlan
import TagscopeLive
import TagscopeRecording
import TagscopeServer

/// The options of a live session, shared by `tagscope listen` and `tagscope proxy run` (arguments,
/// not a command: a command used as another's option group would give that command its name in
/// the usage line, `tagscope proxy listen run`).
struct ListenArguments: ParsableArguments {
  @Option(help: "TCP port.")
  var port: Int = 7531

  @Option(help: "Address to bind. Loopback by default; use 0.0.0.0 to accept devices on the network.")
  var bind: String = "127.0.0.1"

  @Option(
    help:
      "Token every client must send: native clients in their header (\"token\"), SDKs as their key or Authorization: Bearer."
  )
  var token: String?

  @Option(
    help:
      "Write every record received to this recording file (JSON Lines); an existing recording is continued, with the debugger or headless."
  )
  var record: String?

  @Option(help: "Check every record against this tagging plan (YAML); violations print under their record.")
  var plan: String?

  @Flag(help: "No user interface: print one line per record (for CI). Without it the debugger opens.")
  var headless = false

  @Flag(
    help:
      "With --headless, print nothing per record, connection or problem: only the start, the summary and write failures."
  )
  var quiet = false

  @Option(
    help: "With --headless and --plan: write the session's JUnit report here when listen stops (SIGTERM).")
  var junit: String?

  @Option(
    help: "With --headless and --plan: write the session's JSON report here when listen stops (SIGTERM).")
  var json: String?

  @Option(
    name: .customLong("cors-origin"),
    help:
      "The one web origin (scheme://host[:port]) whose pages may call the query API; without it the query API refuses requests with an Origin header."
  )
  var corsOrigin: String?

  @Option(
    name: .customLong("log"), parsing: .upToNextOption,
    help: ArgumentHelp(
      "Read a device log as it is written: FORMAT PATH, or FORMAT - for standard input (repeatable).",
      discussion:
        "firebase: Firebase Analytics' debug log, iOS (Xcode console, log stream) or Android (adb logcat); each logged event, screen view and user property becomes a firebase record of its device.",
      valueName: "format path"))
  var log: [String] = []

  @Flag(
    help: ArgumentHelp(
      "With --headless and --log FORMAT -: stop when standard input ends, as on SIGTERM (summary, reports).",
      discussion:
        "Without it listen says on standard error that standard input ended and goes on serving apps and SDKs until a signal: a pipe from a device (adb logcat) ends when the device goes, while apps may still send. In CI, `adb logcat -d … | tagscope listen --headless --log firebase - --exit-on-eof --plan P --junit R` reads the log, then stops and writes the reports."
    ))
  var exitOnEof = false

  func validate() throws {
    do { _ = try LogInput.parse(log) } catch { throw ValidationError(error.description) }
    if let corsOrigin, corsOrigin == "*" || corsOrigin == "null" || !corsOrigin.contains("://") {
      throw ValidationError("--cors-origin takes one origin, scheme://host[:port]")
    }
    guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
    if quiet && !headless { throw ValidationError("--quiet needs --headless") }
    if exitOnEof, !headless || !log.contains("-") {
      throw ValidationError("--exit-on-eof needs --headless and --log FORMAT - (standard input)")
    }
    if junit != nil || json != nil, !headless || plan == nil {
      throw ValidationError("--junit and --json need --headless and --plan")
    }
  }

  /// The files the session reads (`--log`) and writes (`--record`, `--junit`, `--json`), checked
  /// before it starts: a path that cannot be used is a runtime refusal (one line naming it, exit
  /// 2), not a usage error.
  private func checkFiles(_ logs: [LogInput]) throws {
    var refusal: String?
    for input in logs where !input.isStandardInput && refusal == nil {
      var isDirectory: ObjCBool = false
      if !FileManager.default.fileExists(atPath: input.path, isDirectory: &isDirectory)
        || isDirectory.boolValue
      {
        refusal = "--log: no \(input.format.rawValue) log file at \(input.path)"
      }
    }
    for path in [record, junit, json].compactMap(\.self) where refusal == nil {
      do { try OutputFile.check(path, replacing: true) } catch { refusal = "\(error)" }
    }
    if let refusal {
      StandardError.write("tagscope: \(refusal)\n")
      throw ExitCode(2)
    }
  }

  /// Runs the session, with an intercepting proxy beside it when `proxy` is set (`tagscope proxy`).
  func run(proxy: ProxyConfiguration?) async throws {
    // A day-long session frees far more than it keeps: keep its memory what it holds. Its threads
    // share two heaps, so what one frees another reuses (``MallocArenas``).
    MallocArenas.bound()
    HeapTrimmer.keepLargeBlocksApart()
    var options = ListenOptions(
      host: bind, port: port, token: token, recordPath: record, headless: headless, quiet: quiet,
      junitPath: junit, jsonPath: json, corsOrigin: corsOrigin)
    options.proxy = proxy
    options.logs = (try? LogInput.parse(log)) ?? []
    options.exitOnEndOfInput = exitOnEof
    try checkFiles(options.logs)
    try FileShape.refuseMixUp(
      plans: plan.map { [$0] } ?? [], usage: "tagscope \(proxy == nil ? "listen" : "proxy") --plan PLAN")
    // One plan load for both observers of the session: the debugger and the headless printer.
    let loaded = try plan.map { try Self.loadPlan($0) }
    if !headless {
      if let message = await ListenInterface.run(options: options, plan: loaded) {
        StandardError.write("tagscope: \(message)\n")
        throw ExitCode(2)
      }
      return
    }
    do {
      _ = try await ListenRunner.run(options, plan: loaded)
    } catch {
      // A runtime failure (a recording refused, a port taken), not a usage error: one line, exit 2.
      let message = (error as? BindFailure)?.sentence(proxy: proxy != nil) ?? "\(error)"
      StandardError.write("tagscope: \(message)\n")
      throw ExitCode(2)
    }
  }

  /// Loads the plan, or stops with exit code 2 and the loader's `file:line:column` message.
  static func loadPlan(_ path: String) throws -> Plan {
    do { return try PlanLoader.load(contentsOf: path) } catch {
      StandardError.write("\(error)\n")
      throw ExitCode(2)
    }
  }
}
