import TagscopeRecording

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Redactor {
  /// Copies every line read from the file descriptor `input` to `output` redacted; returns the
  /// number of lines (a last line without a line break is copied without one).
  ///
  /// Reads `chunkSize` bytes at a time into one reused buffer, small enough to stay in the cache,
  /// and redacts each line (found with `memchr`) where it was read. The lines with nothing to
  /// replace are written straight from that buffer: one `writev` per chunk writes each run of
  /// them and the redacted lines between. Only a redacted line, and a line split between two
  /// reads, is copied.
  public mutating func copy(from input: Int32, to output: Int32, chunkSize: Int = 1 << 17)
    throws(RedactedCopyError)
    -> Int
  {
    let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(chunkSize, 1))
    defer { chunk.deallocate() }
    let base = UnsafePointer(chunk.baseAddress!)
    var pieces = RedactedCopyPieces()
    var pending: [UInt8] = []
    var lines = 0
    while true {
      let count = try Self.readChunk(input, into: chunk)
      guard count > 0 else { break }
      var start = 0
      while start < count, let found = memchr(base + start, 0x0A, count - start) {
        let newline = UnsafeRawPointer(found) - UnsafeRawPointer(base)
        let line = UnsafeBufferPointer(start: base + start, count: newline - start)
        if pending.isEmpty {
          let before = pieces.out.count
          if appendRedacted(line: line, to: &pieces.out) > 0 {
            pieces.addRedacted(before..<pieces.out.count)
            pieces.addRead(newline..<(newline + 1))
          } else {
            pieces.addRead(start..<(newline + 1))
          }
        } else {
          pending.append(contentsOf: line)
          pieces.addWhole(pending, redactor: &self, lineBreak: true)
          pending.removeAll(keepingCapacity: true)
        }
        lines += 1
        start = newline + 1
      }
      pending.append(contentsOf: UnsafeBufferPointer(start: base + start, count: count - start))
      try pieces.flush(read: base, to: output)
    }
    if !pending.isEmpty {
      pieces.addWhole(pending, redactor: &self, lineBreak: false)
      lines += 1
      try pieces.flush(read: base, to: output)
    }
    return lines
  }

  /// Reads up to `buffer.count` bytes from `descriptor` (0 at the end of the file).
  private static func readChunk(_ descriptor: Int32, into buffer: UnsafeMutableBufferPointer<UInt8>)
    throws(RedactedCopyError) -> Int
  {
    while true {
      let count = read(descriptor, buffer.baseAddress, buffer.count)
      if count >= 0 { return count }
      guard errno == EINTR else { throw RedactedCopyError(operation: "read", code: errno) }
    }
  }
}

/// A read or a write of ``Redactor/copy(from:to:chunkSize:)`` that failed.
public struct RedactedCopyError: Error, Sendable, CustomStringConvertible {
  /// `read` or `write`.
  public var operation: String
  /// `errno`.
  public var code: Int32

  public var description: String { "\(operation) failed: \(SystemError.reason(errno: code))" }
}

/// What one chunk's copy writes, in order: ranges of the bytes read and ranges of the redacted
/// lines (`out`), written with `writev` before the next read.
struct RedactedCopyPieces {
  /// The redacted lines of the chunk.
  var out: [UInt8] = []
  private var pieces: [(redacted: Bool, range: Range<Int>)] = []
  private var vectors: [iovec] = []

  /// Adds bytes read, joined to the piece before when it ends where they start.
  mutating func addRead(_ range: Range<Int>) {
    if let last = pieces.last, !last.redacted, last.range.upperBound == range.lowerBound {
      pieces[pieces.count - 1].range = last.range.lowerBound..<range.upperBound
    } else {
      pieces.append((false, range))
    }
  }

  /// Adds redacted bytes of `out`.
  mutating func addRedacted(_ range: Range<Int>) { pieces.append((true, range)) }

  /// Adds `line` (gathered from two reads) redacted, with a line break when `lineBreak`.
  mutating func addWhole(_ line: [UInt8], redactor: inout Redactor, lineBreak: Bool) {
    let before = out.count
    line.withUnsafeBufferPointer { _ = redactor.redact(line: $0, into: &out) }
    if lineBreak { out.append(0x0A) }
    addRedacted(before..<out.count)
  }

  /// Writes the pieces (`read`: the bytes read) to `descriptor` and forgets them.
  mutating func flush(read: UnsafePointer<UInt8>, to descriptor: Int32) throws(RedactedCopyError) {
    defer {
      pieces.removeAll(keepingCapacity: true)
      out.removeAll(keepingCapacity: true)
    }
    guard !pieces.isEmpty else { return }
    let pieces = self.pieces
    var vectors = self.vectors
    self.vectors = []
    defer { self.vectors = vectors }
    vectors.removeAll(keepingCapacity: true)
    try out.withUnsafeBufferPointer { out throws(RedactedCopyError) in
      for piece in pieces where !piece.range.isEmpty {
        let start = piece.redacted ? out.baseAddress! : read
        vectors.append(
          iovec(
            iov_base: UnsafeMutableRawPointer(mutating: start + piece.range.lowerBound),
            iov_len: piece.range.count))
      }
      try Self.writeAll(&vectors, to: descriptor)
    }
  }

  /// Writes every vector to `descriptor`, 1,024 (`IOV_MAX`) at a time, going on after a partial
  /// write.
  private static func writeAll(_ vectors: inout [iovec], to descriptor: Int32) throws(RedactedCopyError) {
    var index = 0
    while index < vectors.count {
      let batch = Int32(min(vectors.count - index, 1_024))
      let written = vectors.withUnsafeBufferPointer { writev(descriptor, $0.baseAddress! + index, batch) }
      if written < 0 {
        guard errno == EINTR else { throw RedactedCopyError(operation: "write", code: errno) }
        continue
      }
      var rest = written
      while index < vectors.count, rest >= vectors[index].iov_len {
        rest -= vectors[index].iov_len
        index += 1
      }
      if rest > 0 {
        vectors[index].iov_base += rest
        vectors[index].iov_len -= rest
      }
    }
  }
}
