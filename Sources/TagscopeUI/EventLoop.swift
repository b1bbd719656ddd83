import CNcursesw
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the event loop measured, for the benchmarks (`TAGSCOPE_UI_STATS=FILE` writes it as JSON at
/// exit).
public struct LoopStats: Sendable, Hashable, Codable {
  /// Frames drawn.
  public var frames = 0
  /// Key messages handled.
  public var keys = 0
  /// Longest time from reading a key to the end of the frame showing its effect, in milliseconds.
  public var maxKeyLatencyMilliseconds = 0.0
  /// Seconds the loop ran.
  public var seconds = 0.0
  /// Frames per second over the run.
  public var framesPerSecond: Double { seconds > 0 ? Double(frames) / seconds : 0 }
}

/// Runs the terminal UI in the Bubble Tea shape: one thread owns curses and the ``State``; keys,
/// resizes, time, the source's changes and effect results arrive as messages (keys from curses,
/// the rest through the ``Wakeup`` inbox); the effects ``update(_:_:)`` asks for run on an
/// ``EffectWorker`` and come back as messages, so the drawing thread never reads the disk nor takes
/// a lock ingest holds. Redraws for arriving records are coalesced to at most 30 a second, while a
/// key is answered with a frame at once; when nothing happens the loop sleeps in `poll` for at
/// most 100 ms (a resize is noticed then even when SIGWINCH went to another thread).
public enum TerminalUI {
  /// Shortest time between two frames drawn for arriving records: 28 a second, which leaves room
  /// for the frames answering keys within 30 a second.
  public static let frameInterval = 1.0 / 28
  /// Longest sleep between two looks at the terminal size, in milliseconds.
  static let resizeCheckMilliseconds: Int32 = 100

  /// Shows `timeline` until the user quits (`q`), the terminal goes away, or `wakeup` asks to
  /// quit. The terminal is restored on every exit path. Signals are the caller's: the command line
  /// turns SIGINT/SIGTERM/SIGHUP into `wakeup.requestQuit()`.
  @discardableResult
  public static func run(
    timeline: any TimelineSource, mode: Mode, wakeup: Wakeup = Wakeup(), notice: String? = nil
  ) throws(TerminalError) -> LoopStats {
    let screen = try CursesScreen()
    defer { screen.close() }
    var state = State(mode: mode, size: screen.size, now: Date().timeIntervalSince1970)
    if let notice { state.show(notice: notice) }
    let worker = EffectWorker(
      runner: EffectRunner(source: timeline, clipboardRoute: ClipboardRoute.current), inbox: wakeup)
    defer { worker.stop() }
    var loop = Loop(screen: screen, wakeup: wakeup, worker: worker, state: state)
    loop.run()
    if let path = ProcessInfo.processInfo.environment["TAGSCOPE_UI_STATS"], !path.isEmpty,
      let data = try? JSONEncoder().encode(loop.stats)
    {
      try? data.write(to: URL(fileURLWithPath: path))
    }
    return loop.stats
  }
}

private struct Loop {
  let screen: CursesScreen
  let wakeup: Wakeup
  let worker: EffectWorker
  var state: State
  var stats = LoopStats()
  /// Effects submitted whose results have not come back yet: not submitted again meanwhile (a
  /// read asked for again runs once more when it is back).
  private var ledger = EffectLedger()
  private var dirty = true
  private var lastDraw = 0.0
  private var pendingKeyTime: Double?

  init(screen: CursesScreen, wakeup: Wakeup, worker: EffectWorker, state: State) {
    self.screen = screen
    self.wakeup = wakeup
    self.worker = worker
    self.state = state
  }

  private static var now: Double { Date().timeIntervalSince1970 }

  /// Applies `msg` and submits the effects it asks for that are not in flight.
  private mutating func apply(_ msg: Msg) {
    for effect in state.apply(msg) where ledger.ask(effect) { worker.submit(effect) }
  }

  mutating func run() {
    let start = Self.now
    var refreshed = start
    apply(.tick(now: start))
    requestInfo()
    var descriptors = [
      pollfd(fd: screen.inputDescriptor, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wakeup.readDescriptor, events: Int16(POLLIN), revents: 0),
    ]
    var lastLiveTick = start
    while !state.shouldQuit {
      var now = Self.now
      // Records are coalesced to one frame per interval; a key is answered at once.
      if dirty && (now - lastDraw >= TerminalUI.frameInterval || pendingKeyTime != nil) {
        draw(now)
        now = Self.now
      }
      let timeout = self.timeout(now: now, lastLiveTick: lastLiveTick)
      descriptors[0].revents = 0
      descriptors[1].revents = 0
      let ready = poll(&descriptors, 2, timeout)
      now = Self.now
      if ready < 0 && errno != EINTR { break }
      // The terminal went away (window closed, tmux killed): end instead of spinning on it.
      if descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { break }
      // Keys, mouse and resizes. Curses notices a resize through its SIGWINCH handler, which may
      // run on any thread (an async command's main thread blocks every signal), so the queue is
      // read after a timeout too, not only when poll saw input or was interrupted.
      let messages = screen.pendingMessages()
      if !messages.isEmpty {
        for message in messages {
          if case .key = message { stats.keys += 1 }
          apply(message)
        }
        pendingKeyTime = pendingKeyTime ?? now
        dirty = true
      }
      let delivery = wakeup.drain()
      if delivery.quit { break }
      // Time first, so what arrives sees the current clock; then the effects' results in order.
      if !delivery.results.isEmpty || delivery.sourceChanged { apply(.tick(now: now)) }
      for (effect, results) in delivery.results {
        if ledger.finished(effect) { worker.submit(effect) }
        for message in results { apply(message) }
        dirty = true
      }
      // The source changed, or is still loading (a recording being indexed): ask for its facts.
      if delivery.sourceChanged || (state.info.isLoading && now - refreshed >= 0.1) {
        refreshed = now
        requestInfo()
      }
      if state.mode == .replay && state.playing {
        apply(.tick(now: now))
        dirty = true
      } else if state.mode == .live && now - lastLiveTick >= 1 {
        lastLiveTick = now
        apply(.tick(now: now))
        dirty = true
        // A vendor's answer changes the ledger without a new record: look at it each second.
        if state.info.deliveryFingerprint != nil { requestInfo() }
      } else if dirty {
        apply(.tick(now: now))
      }
    }
    stats.seconds = Self.now - start
  }

  /// Asks the worker for the header facts and the record count (``Effect/loadInfo``).
  private mutating func requestInfo() {
    if ledger.ask(.loadInfo) { worker.submit(.loadInfo) }
  }

  /// Milliseconds to wait: until the next frame may be drawn when something changed, a frame
  /// interval while playing, a second when live (rate display), indefinitely when paused; never
  /// longer than the resize check.
  private func timeout(now: Double, lastLiveTick: Double) -> Int32 {
    min(TerminalUI.resizeCheckMilliseconds, wait(now: now, lastLiveTick: lastLiveTick))
  }

  private func wait(now: Double, lastLiveTick: Double) -> Int32 {
    if dirty { return Int32(max(0, (lastDraw + TerminalUI.frameInterval - now) * 1000).rounded(.up)) }
    if state.mode == .replay && state.playing { return Int32(TerminalUI.frameInterval * 1000) }
    if state.mode == .live { return Int32(max(0, (lastLiveTick + 1 - now) * 1000).rounded(.up)) }
    if state.info.isLoading { return 100 }
    return Int32.max
  }

  private mutating func draw(_ now: Double) {
    if state.size != screen.size { apply(.resize(screen.size)) }
    screen.draw(render(state))
    if let text = state.clipboard {
      screen.writeControl(Clipboard.sequence(for: text))
      apply(.clipboardWritten)
    }
    stats.frames += 1
    lastDraw = now
    dirty = false
    if let pendingKeyTime {
      stats.maxKeyLatencyMilliseconds = max(
        stats.maxKeyLatencyMilliseconds, (Self.now - pendingKeyTime) * 1000)
      self.pendingKeyTime = nil
    }
  }
}
