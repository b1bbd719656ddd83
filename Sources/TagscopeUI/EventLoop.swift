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

/// Runs the terminal UI: one thread owns curses; records arrive through the timeline and a
/// ``Wakeup``; redraws for arriving records are coalesced to at most 30 a second, while a key is
/// answered with a frame at once; when nothing happens the loop sleeps in `poll` for at most
/// 100 ms (a resize is noticed then even when SIGWINCH went to another thread).
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
    var session = UISession(
      source: timeline, mode: mode, size: screen.size, now: Date().timeIntervalSince1970)
    if let notice { session.show(notice: notice) }
    var loop = Loop(screen: screen, wakeup: wakeup, session: session)
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
  var session: UISession
  var state: State { session.state }
  var stats = LoopStats()
  private var dirty = true
  private var lastDraw = 0.0
  private var pendingKeyTime: Double?
  private var loading = true

  init(screen: CursesScreen, wakeup: Wakeup, session: UISession) {
    self.screen = screen
    self.wakeup = wakeup
    self.session = session
  }

  private static var now: Double { Date().timeIntervalSince1970 }

  mutating func run() {
    let start = Self.now
    session.refresh()
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
          session.apply(message)
        }
        pendingKeyTime = pendingKeyTime ?? now
        dirty = true
      }
      if descriptors[1].revents != 0 {
        if wakeup.drain() { break }
        dirty = true  // records or plan results changed
      }
      if wakeup.isQuitRequested { break }
      // Time first, so arriving records see the current clock; then one read of the header facts
      // and the count (`refresh` reads the facts, loading among them, before the count: when
      // loading was over, that count is final and the loop may sleep without a timeout).
      if session.runner.source.count != state.known { session.apply(.tick(now: now)) }
      if session.refresh() { dirty = true }
      loading = state.info.isLoading
      if state.mode == .replay && state.playing {
        session.apply(.tick(now: now))
        dirty = true
      } else if state.mode == .live && now - lastLiveTick >= 1 {
        lastLiveTick = now
        session.apply(.tick(now: now))
        dirty = true
      } else if dirty {
        session.apply(.tick(now: now))
      }
    }
    stats.seconds = Self.now - start
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
    if loading { return 100 }
    return Int32.max
  }

  private mutating func draw(_ now: Double) {
    if state.size != screen.size { session.apply(.resize(screen.size)) }
    screen.draw(render(state))
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
