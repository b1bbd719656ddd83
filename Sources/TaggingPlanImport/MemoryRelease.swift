#if canImport(Glibc)
  import Glibc
#endif

/// Gives the memory of a tree just let go back to the system, where the allocator allows it.
///
/// glibc keeps freed small blocks for reuse, but the plan an import writes next is one large
/// allocation, which it maps afresh: without this, the documents' tree (several times their
/// bytes) and the plan written are both resident at the import's peak.
enum MemoryRelease {
  /// Returns the freed pages of every allocator arena to the system (glibc's `malloc_trim`,
  /// looked up at run time: Swift's Glibc module leaves `malloc.h` out); nothing elsewhere.
  static func returnFreedPages() {
    #if canImport(Glibc)
      typealias Trim = @convention(c) (Int) -> Int32
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
      _ = unsafeBitCast(symbol, to: Trim.self)(0)
    #endif
  }
}
