import Foundation

/// The patterns compiled lately, by source: filters are matched again and again (a `wait` on every
/// batch, the debugger on every keystroke and every new record), and a pattern's DFA tables pay
/// only when kept between matches.
///
/// Bounded in count (``limit``) and in bytes: the tables of all its patterns draw on one
/// ``PatternTableMeter`` of ``byteBudget`` bytes (a pattern without room steps without tables), and
/// once they hold more than half of it, adding a pattern evicts the least recently used ones.
final class PatternCache: @unchecked Sendable {
  /// Patterns kept at most.
  static let limit = 256
  /// The most bytes the tables of the cached patterns take together (64 MiB).
  static let byteBudget = 64 << 20

  static let shared = PatternCache()

  /// The tables' bytes, shared by every pattern this cache made (evicted ones too, until freed).
  let meter: PatternTableMeter

  private let lock = NSLock()
  // Guarded by `lock`.
  private var compiled: [String: (result: Result<LinearPattern, PatternError>, used: UInt64)] = [:]
  private var clock: UInt64 = 0

  init(byteBudget: Int = PatternCache.byteBudget) { meter = PatternTableMeter(limit: byteBudget) }

  /// Patterns kept now.
  var count: Int { lock.withLock { compiled.count } }

  /// `source` compiled, or why it does not compile.
  func pattern(_ source: String) -> Result<LinearPattern, PatternError> {
    let meter = meter
    return pattern(source) { () throws(PatternError) in try LinearPattern(source, meter: meter) }
  }

  /// What `make` returns, kept under `key`; `nil` is kept as a failure.
  func pattern(_ key: String, _ make: () throws(PatternError) -> LinearPattern?) -> Result<
    LinearPattern, PatternError
  > {
    let known = lock.withLock { () -> Result<LinearPattern, PatternError>? in
      clock += 1
      compiled[key]?.used = clock
      return compiled[key]?.result
    }
    if let known { return known }
    let result: Result<LinearPattern, PatternError>
    do {
      if let made = try make() {
        result = .success(made)
      } else {
        result = .failure(PatternError(offset: 0, reason: "not a literal"))
      }
    } catch { result = .failure(error) }
    // Evicted outside the lock: a pattern's tables are freed when its last holder lets go.
    let evicted = lock.withLock { () -> [Result<LinearPattern, PatternError>] in
      clock += 1
      var evicted: [Result<LinearPattern, PatternError>] = []
      if compiled.count >= Self.limit || meter.bytes > meter.limit / 2 {
        // Least recently used first, down to three quarters of the count and half the bytes.
        var order = compiled.sorted { $0.value.used < $1.value.used }.map(\.key)[...]
        var freed = 0
        while let oldest = order.first,
          compiled.count >= Self.limit * 3 / 4 || meter.bytes - freed > meter.limit / 2
        {
          order = order.dropFirst()
          guard let entry = compiled.removeValue(forKey: oldest) else { continue }
          evicted.append(entry.result)
          freed += (try? entry.result.get())?.tableBytesIfIdle ?? 0
        }
      }
      compiled[key] = (result, clock)
      return evicted
    }
    _ = evicted
    return result
  }
}

extension LinearPattern {
  /// ``init(caseInsensitiveLiteral:)`` from the same cache, keyed apart from patterns.
  package static func cachedLiteral(_ needle: String) -> LinearPattern? {
    let meter = PatternCache.shared.meter
    return try? PatternCache.shared.pattern("\u{0}literal:" + needle) {
      LinearPattern(caseInsensitiveLiteral: needle, meter: meter)
    }.get()
  }

  /// Bytes of lookup tables the patterns of the filter cache (``cached(_:)``) hold now, at most
  /// 64 MiB and a few KB per pattern.
  public static var cachedTableBytes: Int { PatternCache.shared.meter.bytes }

  /// `source` compiled, from a cache of the patterns compiled lately (their DFA tables with them).
  public static func cached(_ source: String) throws(PatternError) -> LinearPattern {
    try PatternCache.shared.pattern(source).get()
  }
}
