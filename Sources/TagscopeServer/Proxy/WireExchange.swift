import Foundation
import NIOConcurrencyHelpers

/// One SDK request the proxy forwards to its vendor: the session that stores its records learns
/// the vendor's answer from here (``whenAnswered(_:)``), the proxy tells it once the answer came
/// (``answered(status:at:)``), whichever happens first. A request delivered in slices (a large
/// batch) has a listener per slice.
public final class WireExchange: Sendable {
  private struct State {
    var listeners: [@Sendable (_ status: Int, _ at: Date) -> Void] = []
    var answer: (status: Int, at: Date)?
  }

  private let state = NIOLockedValueBox(State())

  /// An exchange not answered yet.
  public init() {}

  /// Calls `listener` with the answer's HTTP status and when it came: at once if it came, else
  /// when it does (never, if the client left before the vendor answered).
  public func whenAnswered(_ listener: @escaping @Sendable (_ status: Int, _ at: Date) -> Void) {
    let answer = state.withLockedValue { state -> (status: Int, at: Date)? in
      if state.answer == nil { state.listeners.append(listener) }
      return state.answer
    }
    if let answer { listener(answer.status, answer.at) }
  }

  /// The vendor (or the proxy, for an upstream that failed: `502`, `504`, `403`) answered
  /// `status` at `time`; only the first answer counts.
  public func answered(status: Int, at time: Date = Date()) {
    let listeners = state.withLockedValue { state -> [@Sendable (Int, Date) -> Void] in
      guard state.answer == nil else { return [] }
      state.answer = (status, time)
      defer { state.listeners = [] }
      return state.listeners
    }
    for listener in listeners { listener(status, time) }
  }
}
