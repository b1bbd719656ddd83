/// What a path that shows a live session (the debugger, the headless printer, the demo) is told
/// by ``LiveSessionRoot``: it observes the session and builds none of its parts.
public struct LiveObserver: Sendable {
  /// Called on the session's worker thread after each stored batch.
  public var update: @Sendable (LiveUpdate) -> Void
  /// Called when the plan's results change other than by a check (a reload's progress and end).
  public var planChanged: @Sendable () -> Void
  /// Called with each notice: continuing a recording, a public bind, where it listens, a failed
  /// write of the recording.
  public var notice: @Sendable (String) -> Void

  /// An observer of these callbacks.
  public init(
    update: @escaping @Sendable (LiveUpdate) -> Void, planChanged: @escaping @Sendable () -> Void = {},
    notice: @escaping @Sendable (String) -> Void
  ) {
    self.update = update
    self.planChanged = planChanged
    self.notice = notice
  }
}
