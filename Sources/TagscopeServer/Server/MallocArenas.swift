#if canImport(Glibc)
  import Glibc
#endif

/// How many heaps (glibc's malloc arenas) a serving process (`listen`, `proxy`) allocates from.
///
/// glibc gives each new thread its own arena, up to eight per core. A request's body is collected
/// on an event loop, its records built on the large-body queue and stored on the session's thread:
/// what one thread frees stays resident in its own arena while the next thread grows another, so a
/// 48 KB Firebase upload of 4,000 events raised the process's peak memory 24× its body, half of it
/// freed memory no other thread could reuse. Two arenas (`MALLOC_ARENA_MAX=2`) brought it to 19×.
public enum MallocArenas {
  /// The arenas a serving process allocates from.
  public static let serving: Int32 = 2

  /// Bounds the process's arenas to `count` (glibc's `mallopt(M_ARENA_MAX, count)`, looked up as
  /// Swift does not import it): threads made afterwards share the arenas already made, once there
  /// are `count`. Called before the process starts its threads; whether glibc took it (always
  /// `false` without glibc).
  @discardableResult
  public static func bound(to count: Int32 = serving) -> Bool {
    #if canImport(Glibc)
      typealias Option = @convention(c) (Int32, Int32) -> Int32
      guard count > 0, let symbol = dlsym(nil, "mallopt") else { return false }
      let arenaMax: Int32 = -8  // M_ARENA_MAX
      return unsafeBitCast(symbol, to: Option.self)(arenaMax, count) == 1
    #else
      return false
    #endif
  }
}
