import Crypto
import Foundation

/// How far a log was read: the bytes handed on from its start, the lines they hold, and a
/// SHA-256 of those bytes, so a file found again (replaced at its path, rewritten in place, or
/// read again by a restarted `listen`) is known to start with what was read.
struct LogPosition {
  /// Bytes handed on, from the start of the file.
  private(set) var offset = 0
  /// Complete lines handed on.
  private(set) var lines = 0
  private var hasher = SHA256()

  /// The start of a file.
  init() {}

  /// Notes `bytes`, the next ones handed on (`endsLine`: they end with a line's newline).
  mutating func advance(_ bytes: ArraySlice<UInt8>, endsLine: Bool) {
    offset += bytes.count
    if endsLine { lines += 1 }
    hasher.update(data: bytes)
  }

  /// The SHA-256 of the bytes handed on, in lowercase hexadecimal.
  var fingerprint: String {
    hasher.finalize().map { byte in
      let text = String(byte, radix: 16)
      return byte < 16 ? "0" + text : text
    }.joined()
  }

  /// The position after the first `offset` bytes of the file `descriptor` reads (with `pread`,
  /// its own offset untouched), holding `lines` lines; `nil` when the file is shorter, cannot be
  /// read, or `stop` says to give up (it is asked between reads of 64 KiB).
  static func reading(
    _ descriptor: Int32, upTo offset: Int, lines: Int, stop: () -> Bool
  ) -> LogPosition? {
    var position = LogPosition()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while position.offset < offset {
      guard !stop() else { return nil }
      let wanted = min(buffer.count, offset - position.offset)
      let count = buffer.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, wanted, off_t(position.offset))
      }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return nil }
      position.advance(buffer[0..<count], endsLine: false)
    }
    position.lines = lines
    return position
  }

  /// The complete lines among the last `bytes` bytes before `offset` in the file `descriptor`
  /// reads (a line cut by where they start left out), without their line breaks; none when they
  /// cannot be read.
  static func lines(_ descriptor: Int32, before offset: Int, bytes: Int = 64 * 1024) -> [Substring] {
    let start = max(0, offset - bytes)
    var buffer = [UInt8](repeating: 0, count: offset - start)
    var read = 0
    while read < buffer.count {
      let count = buffer.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress! + read, $0.count - read, off_t(start + read))
      }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return [] }
      read += count
    }
    var lines = String(decoding: buffer, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false)
    if start > 0, !lines.isEmpty { lines.removeFirst() }
    if lines.last?.isEmpty == true { lines.removeLast() }
    return lines
  }
}
