import NIOConcurrencyHelpers
import NIOCore
import TagscopeRecording

/// The query API on `listen`'s port (`/tagscope/v1/…`): what automated UI tests ask the debugger.
/// The server routes, checks the `--token` and writes the replies; a ``QueryAPI`` (the live
/// session's ``QueryService`` in TagscopeLive) answers.
public protocol QueryAPI: AnyObject, Sendable {
  /// Answers `request`, calling `reply` exactly once, from any thread. Called on an event loop:
  /// it must not block (reading the timeline goes to another queue, a wait registers a waiter).
  func answer(_ request: APIRequest, reply: @escaping @Sendable (APIResponse) -> Void)
}

/// The query API's routes under `/tagscope/v1/`.
public enum APIRoute: String, Sendable, CaseIterable {
  case summary
  case records
  case violations
  case coverage
  case wait
  case reset
  /// Begins a UI test scope (`POST scope/begin?name=…[&source=…]`).
  case scopeBegin = "scope/begin"
  /// Ends a UI test scope, answering with its verdict (`POST scope/end?name=…`).
  case scopeEnd = "scope/end"
  /// Checks what a UI test expects of a scope or the segment, at once.
  case assert
  /// The delivery ledger: each in-app call's fate on the wire, and a wait until all are settled.
  case delivery
  case openapi = "openapi.json"

  /// The path prefix of every route.
  public static let prefix = "/tagscope/v1/"

  /// The method the route takes (`POST` for ``reset``, ``scopeBegin`` and ``scopeEnd``, `GET` for
  /// the others).
  public var method: String { [.reset, .scopeBegin, .scopeEnd].contains(self) ? "POST" : "GET" }

  /// The full path.
  public var path: String { Self.prefix + rawValue }
}

/// One request to the query API: its route and query parameters (percent-decoded, in order).
public struct APIRequest: Sendable {
  /// The route asked for.
  public var route: APIRoute
  /// Query parameters, in order (`token` already taken out).
  public var query: [(name: String, value: String)]
  /// The server's counters when it came (the summary's `retriesSkipped`).
  public var statistics = ServerStatistics()
  /// The event loop that read it, which runs its timers.
  let eventLoop: any EventLoop
  /// Told when the client goes away before the reply.
  let cancellation = APICancellation()

  /// The first value of parameter `name`.
  public func value(_ name: String) -> String? { query.first { $0.name == name }?.value }

  /// A `400` naming the first parameter not among `allowed`, or a repeated one.
  public func unknownParameter(allowed: Set<String>) -> APIResponse? {
    var seen: Set<String> = []
    for (name, _) in query {
      guard allowed.contains(name) else {
        let known = allowed.isEmpty ? "none" : allowed.sorted().joined(separator: ", ")
        return .badRequest("unknown parameter '\(name)' (\(route.path) takes \(known))")
      }
      guard seen.insert(name).inserted else { return .badRequest("parameter '\(name)' given twice") }
    }
    return nil
  }

  /// Parameter `name` as an integer within `range`; `nil` when absent; a `400` naming it when it
  /// is not such an integer.
  public func integer(_ name: String, in range: ClosedRange<Int>) -> Result<Int?, APIResponse> {
    guard let text = value(name) else { return .success(nil) }
    guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(text), range.contains(number)
    else {
      return .failure(
        .badRequest(
          "parameter '\(name)' must be an integer from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
        ))
    }
    return .success(number)
  }

  /// Parameter `name` as a number of seconds within `range` (`2`, `0.5`); `nil` when absent.
  public func seconds(_ name: String, in range: ClosedRange<Double>) -> Result<Double?, APIResponse> {
    guard let text = value(name) else { return .success(nil) }
    guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || ".eE+-".utf8.contains($0) }),
      let number = Double(text), number.isFinite, range.contains(number)
    else {
      return .failure(
        .badRequest(
          "parameter '\(name)' must be a number of seconds from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
        ))
    }
    return .success(number)
  }

  /// Calls `body` after `seconds`, on the request's event loop; the returned timer cancels it.
  public func schedule(after seconds: Double, _ body: @escaping @Sendable () -> Void) -> APITimer {
    APITimer(scheduled: eventLoop.scheduleTask(in: .nanoseconds(Int64(seconds * 1e9)), body))
  }
}

/// Calls its handler once when the client of a pending request goes away (a wait then ends
/// without a reply).
final class APICancellation: @unchecked Sendable {
  private let lock = NIOLock()
  private var handler: (@Sendable () -> Void)?
  private var cancelled = false

  /// Sets the handler; calls it at once when the client is already gone.
  func onCancel(_ handler: @escaping @Sendable () -> Void) {
    let now = lock.withLock {
      if !cancelled { self.handler = handler }
      return cancelled
    }
    if now { handler() }
  }

  /// The client went away.
  func cancel() {
    let handler = lock.withLock {
      cancelled = true
      defer { self.handler = nil }
      return self.handler
    }
    handler?()
  }
}

extension APIRequest {
  /// Calls `handler` once if the client goes away before the reply (at once if it has).
  public func onCancel(_ handler: @escaping @Sendable () -> Void) { cancellation.onCancel(handler) }
}

/// A scheduled call of ``APIRequest/schedule(after:_:)``.
public struct APITimer: Sendable {
  private let scheduled: Scheduled<Void>

  init(scheduled: Scheduled<Void>) { self.scheduled = scheduled }

  /// Cancels the call, if it has not run yet.
  public func cancel() { scheduled.cancel() }
}

/// A reply of the query API: a status and a JSON body (an `Error` too, so a refusal can be the
/// failure of a parameter's `Result`).
public struct APIResponse: Error, Sendable, Equatable {
  /// The HTTP status code.
  public var status: Int
  /// The JSON body.
  public var body: String
  /// The methods the path takes, for a `405` (its `Allow` header).
  public var allow: String?

  /// A reply.
  public init(status: Int, body: String, allow: String? = nil) {
    self.status = status
    self.body = body
    self.allow = allow
  }

  /// `{"error": message}` with `status`.
  public static func error(_ status: Int, _ message: String) -> APIResponse {
    APIResponse(status: status, body: "{\"error\":" + JSONText.quoted(message) + "}")
  }

  /// `400 {"error": message}`.
  public static func badRequest(_ message: String) -> APIResponse { .error(400, message) }
}
