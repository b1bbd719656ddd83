/// Splits the bytes of a log, as they are read, into lines, in memory bounded by ``limit``: each
/// byte is looked at once for the newline however long its line grows, and a line longer than
/// the limit is not kept but skipped (its bytes dropped as they come), its length told when it
/// ends. What it hands on is noted in a ``LogPosition``.
struct LogLineBuffer {
  /// A line, or a line too long to keep.
  enum Piece: Equatable {
    /// A complete line, without its newline.
    case line(String)
    /// A line longer than ``LogLineBuffer/limit``, skipped: its length without the newline.
    case overlong(bytes: Int)
  }

  /// The longest line kept, in bytes (without its newline).
  let limit: Int
  private var bytes: [UInt8] = []
  /// The first byte not handed on.
  private var start = 0
  /// `bytes[start..<scanned]` holds no newline.
  private var scanned = 0
  /// The bytes of an over-long line dropped so far, while it is skipped.
  private var skipped: Int?

  /// A buffer keeping lines up to `limit` bytes.
  init(limit: Int = FirebaseLogParser.byteLimit) {
    self.limit = limit
  }

  /// Bytes read and not handed on yet.
  var held: Int { bytes.count - start }

  /// Adds bytes read.
  mutating func append(_ chunk: ArraySlice<UInt8>) {
    if start > 0 {
      bytes.removeFirst(start)
      scanned -= start
      start = 0
    }
    bytes.append(contentsOf: chunk)
  }

  /// The next complete line (or over-long line that ended), noted in `position`; `nil` when no
  /// newline follows yet.
  mutating func next(advancing position: inout LogPosition) -> Piece? {
    guard let newline = bytes[scanned...].firstIndex(of: 0x0A) else {
      scanned = bytes.count
      if held > limit {
        position.advance(bytes[start...], endsLine: false)
        skipped = (skipped ?? 0) + held
        start = bytes.count
        scanned = start
      }
      return nil
    }
    position.advance(bytes[start...newline], endsLine: true)
    let piece: Piece
    if let dropped = skipped {
      piece = .overlong(bytes: dropped + newline - start)
    } else if newline - start > limit {
      piece = .overlong(bytes: newline - start)
    } else {
      piece = .line(String(decoding: bytes[start..<newline], as: UTF8.self))
    }
    skipped = nil
    start = newline + 1
    scanned = start
    return piece
  }

  /// At the end of the input: the last line, which has no newline, noted in `position`.
  mutating func finish(advancing position: inout LogPosition) -> Piece? {
    defer { reset() }
    if held > 0 { position.advance(bytes[start...], endsLine: false) }
    if let dropped = skipped { return .overlong(bytes: dropped + held) }
    guard held > 0 else { return nil }
    return .line(String(decoding: bytes[start...], as: UTF8.self))
  }

  /// Forgets the bytes held (they are to be read again), but not a line being skipped.
  mutating func dropHeld() {
    bytes = []
    start = 0
    scanned = 0
  }

  /// Back to empty, as for a new file.
  mutating func reset() {
    dropHeld()
    skipped = nil
  }
}
