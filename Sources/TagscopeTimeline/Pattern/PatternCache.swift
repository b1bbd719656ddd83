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
    lock.lock()
    let known = compiled[source]
    lock.unlock()
    if let known { return known }
    let result: Result<LinearPattern, PatternError>
    do { result = .success(try LinearPattern(source)) } catch { result = .failure(error) }
    lock.lock()
    if compiled.count >= Self.limit { compiled.removeAll(keepingCapacity: true) }
    compiled[source] = result
    lock.unlock()
    return result
  }
}

extension LinearPattern {
  /// `source` compiled, from a cache of the patterns compiled lately (their DFA tables with them).
  public static func cached(_ source: String) throws(PatternError) -> LinearPattern {
    try PatternCache.shared.pattern(source).get()
  }
}
