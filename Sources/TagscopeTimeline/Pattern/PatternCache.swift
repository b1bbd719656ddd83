import Foundation

/// The patterns compiled lately, by source: filters are matched again and again (a `wait` on every
/// batch, the debugger on every keystroke and every new record), and a pattern's DFA tables pay
/// only when kept between matches.
final class PatternCache: @unchecked Sendable {
  /// Patterns kept at most; past it the cache starts over.
  static let limit = 256

  static let shared = PatternCache()

  private let lock = NSLock()
  // Guarded by `lock`.
  private var compiled: [String: Result<LinearPattern, PatternError>] = [:]

  /// `source` compiled, or why it does not compile.
  func pattern(_ source: String) -> Result<LinearPattern, PatternError> {
    pattern(source) { () throws(PatternError) in try LinearPattern(source) }
  }

  /// What `make` returns, kept under `key`; `nil` is kept as a failure.
  func pattern(_ key: String, _ make: () throws(PatternError) -> LinearPattern?) -> Result<
    LinearPattern, PatternError
  > {
    let source = key
    lock.lock()
    let known = compiled[source]
    lock.unlock()
    if let known { return known }
    let result: Result<LinearPattern, PatternError>
    do {
      if let made = try make() {
        result = .success(made)
      } else {
        result = .failure(PatternError(offset: 0, reason: "not a literal"))
      }
    } catch { result = .failure(error) }
    lock.lock()
    if compiled.count >= Self.limit { compiled.removeAll(keepingCapacity: true) }
    compiled[source] = result
    lock.unlock()
    return result
  }
}

extension LinearPattern {
  /// ``init(caseInsensitiveLiteral:)`` from the same cache, keyed apart from patterns.
  static func cachedLiteral(_ needle: String) -> LinearPattern? {
    try? PatternCache.shared.pattern("\u{0}literal:" + needle) {
      LinearPattern(caseInsensitiveLiteral: needle)
    }.get()
  }

  /// `source` compiled, from a cache of the patterns compiled lately (their DFA tables with them).
  public static func cached(_ source: String) throws(PatternError) -> LinearPattern {
    try PatternCache.shared.pattern(source).get()
  }
}
