#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Splits a byte stream into lines with a bounded buffer: it never holds more than one chunk plus
/// one line (up to `maximumLineLength`), whatever the size of the stream.
package struct LineScanner {
  /// One line found: its bytes (without `\n` or a trailing `\r`), where it starts, its number.
  package enum Event {
    case line(UnsafeBufferPointer<UInt8>, offset: UInt64, number: Int)
    /// A line longer than the limit, skipped whole.
    case overlong(offset: UInt64, number: Int, length: UInt64)
    /// Bytes after the last newline at the end of the stream.
    case unterminated(UnsafeBufferPointer<UInt8>, offset: UInt64, number: Int)
  }

  package static let chunkSize = 1 << 20
  package let maximumLineLength: Int
  private let file: LineFile
  private var buffer: UnsafeMutableRawBufferPointer
  private var start = 0
  private var end = 0
  private var offsetOfStart: UInt64 = 0
  private var lineNumber = 0
  private var atEnd = false
  private var skipping = false
  private var skippedLength: UInt64 = 0
  private var skipStart: UInt64 = 0
  /// How many bytes of an overlong line are skipped looking for its end before reading stops
  /// (endless input without newlines, such as `/dev/zero`, must not spin forever): 1 GiB.
  package var maximumSkip: UInt64 = 1 << 30
  /// Whether reading stopped inside an overlong line (after ``maximumSkip`` bytes without a newline).
  private(set) var stoppedInsideLine = false

  package init(file: LineFile, maximumLineLength: Int = 64 << 20) {
    self.file = file
    self.maximumLineLength = maximumLineLength
    buffer = .allocate(byteCount: Self.chunkSize, alignment: 16)
  }

  /// Frees the buffer.
  package mutating func release() {
    buffer.deallocate()
    buffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
  }

  /// Byte offset just after the last line returned.
  package var consumedOffset: UInt64 { offsetOfStart }

  /// The next line, or `nil` at the end of the stream. The line's bytes are valid until the
  /// next call.
  package mutating func next() throws(SystemError) -> Event? {
    while true {
      if end > start, let newline = memchr(buffer.baseAddress! + start, 0x0A, end - start) {
        let newlineIndex = buffer.baseAddress!.distance(to: UnsafeMutableRawPointer(newline))
        let lineStart = start
        let lineOffset = offsetOfStart
        offsetOfStart += UInt64(newlineIndex + 1 - start)
        start = newlineIndex + 1
        lineNumber += 1
        if skipping {
          skipping = false
          return .overlong(
            offset: skipStart, number: lineNumber, length: skippedLength + UInt64(newlineIndex - lineStart))
        }
        var lineEnd = newlineIndex
        if lineEnd > lineStart, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        let bytes = UnsafeBufferPointer(
          start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + lineStart,
          count: lineEnd - lineStart)
        return .line(bytes, offset: lineOffset, number: lineNumber)
      }
      if atEnd {
        guard end > start || skipping else { return nil }
        lineNumber += 1
        if skipping {
          skipping = false
          offsetOfStart += UInt64(end - start)
          start = end
          return .overlong(offset: skipStart, number: lineNumber, length: skippedLength)
        }
        let bytes = UnsafeBufferPointer(
          start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + start, count: end - start)
        let lineOffset = offsetOfStart
        offsetOfStart += UInt64(end - start)
        start = end
        return .unterminated(bytes, offset: lineOffset, number: lineNumber)
      }
      try fill()
    }
  }

  /// Reads more bytes, compacting, growing (up to the line limit) or skipping an overlong line.
  private mutating func fill() throws(SystemError) {
    if start > 0 && start == end {
      start = 0
      end = 0
    }
    if end == buffer.count {
      if start > 0 {
        let pending = end - start
        buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: pending)
        start = 0
        end = pending
      } else if buffer.count < maximumLineLength && !skipping {
        let grown = UnsafeMutableRawBufferPointer.allocate(
          byteCount: min(buffer.count * 2, maximumLineLength), alignment: 16)
        grown.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: end)
        buffer.deallocate()
        buffer = grown
      } else {
        // The line is over the limit: forget its bytes and look for its end.
        if !skipping {
          skipping = true
          skipStart = offsetOfStart
          skippedLength = 0
        }
        skippedLength += UInt64(end - start)
        offsetOfStart += UInt64(end - start)
        if skippedLength > maximumSkip {
          // No end of line in sight: stop here, the overlong line is reported as the last one.
          stoppedInsideLine = true
          atEnd = true
          start = 0
          end = 0
          return
        }
        start = 0
        end = 0
      }
    }
    let got = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
    if got == 0 { atEnd = true } else { end += got }
  }
}
