import AnalyticsHub
import ArgumentParser
import Foundation
import PodcastDemo
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeTimeline
import TagscopeUI

/// `tagscope demo`: the podcast app simulator on a real hub.
struct DemoCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "demo",
    abstract: "Run the podcast app simulator on a real AnalyticsHub and show what it dispatches.",
    discussion: """
      In a terminal, the live debugger opens: events, screens, session and what each provider \
      received, as they happen (press ? for the keys). With --headless, one line per dispatch is \
      printed and the demo stops after --count tags: the fast way to make a test recording.
      """
  )

  @Option(help: "Events per second (up to 10,000 for load); default: human-like timing.")
  var rate: Double?

  @Option(help: "Random seed; equal seeds give equal journeys, timestamps and session ids.")
  var seed: UInt64?

  @Option(help: "Stop after this many tags (default: run until interrupted; 1,000 when headless).")
  var count: Int?

  @Option(
    help: """
      Also write the recording (JSON Lines) to this file; an existing recording is continued, \
      as listen does.
      """)
  var record: String?

  @Flag(help: "No user interface: print one line per dispatch and exit after --count tags.")
  var headless = false

  @Option(
    help: """
      With --headless: also stream the records to `tagscope listen` at HOST:PORT (as an app's \
      RemoteSink does, resending what listen did not acknowledge), in real time at --rate; waits \
      for listen to acknowledge everything before exiting.
      """)
  var send: String?

  @Option(help: "Tagging plan (YAML) to check the live records against; default: the demo's own plan.")
  var plan: String?

  @Flag(help: "Print the demo's own tagging plan (YAML) and exit; a starting point for your own plan.")
  var printPlan = false

  func validate() throws {
    if let rate, !(rate > 0 && rate <= 10_000) {
      throw ValidationError("--rate must be between 0 and 10,000 events per second")
    }
    if let count, count < 0 { throw ValidationError("--count must not be negative") }
    if plan != nil && headless {
      throw ValidationError(
        "--plan is for the debugger; with --headless, check the --record file with tagscope validate")
    }
    if let send {
      guard headless else { throw ValidationError("--send needs --headless") }
      guard Self.endpoint(send) != nil else { throw ValidationError("--send takes HOST:PORT, not \(send)") }
    }
  }

  /// `HOST:PORT` split, or `nil`.
  static func endpoint(_ text: String) -> (host: String, port: UInt16)? {
    guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]),
      colon > text.startIndex
    else { return nil }
    return (String(text[..<colon]), port)
  }

  func run() async throws {
    if printPlan {
      print(DemoPlan.yaml, terminator: DemoPlan.yaml.hasSuffix("\n") ? "" : "\n")
      return
    }
    try FileShape.refuseMixUp(plans: plan.map { [$0] } ?? [], usage: "tagscope demo --plan PLAN")
    let seed = self.seed ?? UInt64(Date().timeIntervalSince1970)
    if headless {
      try runHeadless(seed: seed)
    } else {
      try await runInterface(seed: seed)
    }
  }

  /// Opens the recording file, if asked for.
  private func recorder(started: Date) throws -> Recorder? {
    guard let record else { return nil }
    // A new or regular file only: a symbolic link, FIFO or device there is neither replaced nor
    // written through.
    do { try OutputFile.check(record, replacing: true) } catch {
      StandardError.write("tagscope: \(error)\n")
      throw ExitCode(2)
    }
    // As every live path: an existing recording is continued, never truncated.
    do {
      return try LiveRecording.recorder(
        path: record, header: RecordingHeader(app: "Podcasts", device: "tagscope demo", started: started)
      ) { StandardError.write(TerminalText.sanitize($0) + "\n") }
    } catch {
      StandardError.write("tagscope: \(error)\n")
      throw ExitCode(2)
    }
  }

  private func runHeadless(seed: UInt64) throws {
    let clock = ManualClock(start: self.seed == nil ? Date() : DemoHub.seededEpoch)
    let hub = try DemoHub.make(providers: PodcastMappings.providers(), clock: clock, seed: seed)
    // A data generator: the inspector waits for the writer instead of dropping, so `--count N`
    // means N records in the file however busy the machine is.
    var sinks: [any RecordSink] = try recorder(started: clock.now).map { [$0] } ?? []
    let remote = send.flatMap(Self.endpoint).map { endpoint in
      RemoteSink(
        host: endpoint.host, port: endpoint.port,
        header: RecordingHeader(app: "Podcasts", device: "tagscope demo", started: clock.now))
    }
    if let remote { sinks.append(remote) }
    let inspector = sinks.isEmpty ? nil : Inspector(sinks: sinks, whenFull: .wait)
    HeadlessRun.run(
      hub: hub, clock: clock, seed: seed, count: count ?? 1_000, rate: rate,
      observers: [DispatchPrinter()] + (inspector.map { [$0] } ?? []), paced: remote != nil, tour: true)
    inspector?.flush()
    if let remote, let send {
      let complete = remote.waitUntilAcknowledged(timeout: 30)
      remote.close()
      let summary =
        complete && remote.droppedCount == 0 && remote.unconfirmedCount == 0
        ? "sent to \(send): every record acknowledged"
        : "sent to \(send): \(remote.droppedCount) dropped, \(remote.unconfirmedCount) unconfirmed"
      StandardError.write(summary + "\n")
    }
    inspector?.close()
  }

  /// The live debugger, an observer of the one live-session root (``LiveSessionRoot``, without a
  /// server): the simulator runs on its own thread in real time; its inspector hands records to
  /// the session, which writes them to the UI's timeline and the recording (an existing one
  /// continued, as listen's) and checks the plan off the simulator's and the UI's threads.
  private func runInterface(seed: UInt64) async throws {
    let wakeup = Wakeup()
    let clock = ManualClock(start: Date())
    // As headless: a new or regular file only, never a link, FIFO or device written through.
    if let record {
      do { try OutputFile.check(record, replacing: true) } catch {
        StandardError.write("tagscope: \(error)\n")
        throw ExitCode(2)
      }
    }
    let notices = NoticeList()
    let parts: LiveSessionParts
    do {
      parts = try await LiveSessionRoot.start(
        LiveSessionOptions(
          listen: ListenOptions(recordPath: record), plan: try PlanChecker.loadPlan(path: plan, demo: true),
          serves: false, app: "Podcasts", device: "tagscope demo"),
        observer: LiveObserver(
          update: { _ in wakeup.signal() }, planChanged: { wakeup.signal() }, notice: { notices.add($0) }))
    } catch {
      StandardError.write("tagscope: \(error)\n")
      throw ExitCode(2)
    }
    let shown = notices.print()
    // The simulator slows down rather than dropping when the session falls behind.
    let inspector = Inspector(sinks: [parts.session], whenFull: .wait)
    let hub = try DemoHub.make(providers: PodcastMappings.providers(), clock: clock, seed: seed)
    let gate = DispatchGate(limit: count ?? Int.max, observers: [inspector])
    hub.addObserver(gate)
    // A first look shows each deliberate bug within seconds, then human pace.
    let driver = SimulatorDriver(
      hub: hub, clock: clock, seed: seed, rate: rate, gate: gate, tour: rate == nil)
    driver.start()
    let source = InspectorTimelineSource(
      timeline: parts.timeline,
      sourceLabel:
        "podcast app simulator · \(PodcastMappings.deliberateBugs.count + DemoPlan.journeyBugs.count) deliberate tagging bugs · seed \(seed)",
      plan: parts.checker,
      slowdown: { driver.isSlowed ? "simulator slowed: the recording is behind" : nil },
      delivery: parts.session.delivery.map(LedgerDeliveryFeed.init))
    let result = await Debugger.runDetached(source, mode: .live, wakeup: wakeup)
    driver.stop()
    hub.flush()
    inspector.close()
    try? await parts.shutdown()
    notices.print(after: shown)
    if case .failure(let error) = result {
      StandardError.write(error.description + "\n")
      throw ExitCode(2)
    }
  }
}

/// Prints one line per dispatch: sequence, time, kind, name, properties and each provider's outcome.
final class DispatchPrinter: HubObserver {
  func hubDidDispatch(_ dispatch: Dispatch) {
    var line =
      "#\(dispatch.seq) \(ISO8601Timestamp.string(from: dispatch.time)) \(dispatch.kind.rawValue) \(dispatch.name)"
    if !dispatch.properties.isEmpty { line += " \(dispatch.properties)" }
    for outcome in dispatch.outcomes {
      line += " | \(outcome.provider): \(OutputStatus(outcome.status).rawValue)"
      if case .blocked(let reason) = outcome.status { line += "(\(reason.rawValue))" }
      for call in outcome.calls { line += " \(call.method) \(call.name ?? "")" }
      if !outcome.violations.isEmpty { line += " ✗\(outcome.violations.count)" }
    }
    for issue in dispatch.issues { line += " ! \(issue.message)" }
    print(Sanitizer.clean(line, limit: 100_000).text)
    // Each ✗ of the line, with its reason.
    for outcome in dispatch.outcomes {
      for violation in outcome.violations {
        let reason = "  ✗ \(violation.consequence.rawValue) \(violation.rule): \(violation.message)"
        print(Sanitizer.clean(reason, limit: 100_000).text)
      }
    }
  }
}
