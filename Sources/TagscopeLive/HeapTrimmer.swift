#if canImport(Glibc)
  import Glibc
#endif

/// Gives freed heap back to the system every so many records (glibc's `malloc_trim`, looked up
/// as Swift does not import it; nothing elsewhere): a debugger streaming all day frees far more
/// than it keeps (each record is decoded, indexed and dropped), and glibc otherwise keeps those
/// freed pages resident, so its memory would grow with the traffic rather than with what it holds.
public struct HeapTrimmer: Sendable {
  /// Records between two trims (a trim walks the free heap, so it is done rarely): 65,536, so a
  /// burst's freed queue and request buffers go back within seconds rather than staying resident
  /// for a short session's whole life (a trim of a 100 MB heap takes a few milliseconds).
  public static let interval = 65_536
  private var sinceTrim = 0

  /// A trimmer with no record counted yet.
  public init() {}

  /// Counts `records` more handled, trimming once ``interval`` have been since the last trim.
  public mutating func handled(_ records: Int) {
    sinceTrim += records
    guard sinceTrim >= Self.interval else { return }
    sinceTrim = 0
    Self.trim()
  }

  /// Makes malloc give every large block (128 KiB and more) its own mapping, returned to the
  /// system as soon as it is freed, for the rest of the process. glibc otherwise raises that
  /// threshold each time such a block is freed, after which large blocks (a connection's read
  /// buffers, a batch of records) come from the heap, where the long-lived index ends up between
  /// them and their pages stay resident: with 20 devices streaming 2,000,000 records, the whole
  /// process grew 64–70 bytes per record for the 58 it held, and 57–63 with this.
  public static func keepLargeBlocksApart() {
    #if canImport(Glibc)
      typealias Option = @convention(c) (Int32, Int32) -> Int32
      guard let symbol = dlsym(nil, "mallopt") else { return }
      let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD
      _ = unsafeBitCast(symbol, to: Option.self)(mmapThreshold, 128 << 10)
    #endif
  }

  /// Returns the freed heap to the system now.
  public static func trim() {
    #if canImport(Glibc)
      typealias Trim = @convention(c) (Int) -> Int32
      guard let symbol = dlsym(nil, "malloc_trim") else { return }
      _ = unsafeBitCast(symbol, to: Trim.self)(0)
    #endif
  }
}
