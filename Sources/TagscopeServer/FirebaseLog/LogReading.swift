import Foundation

/// One file (or standard input) a ``LogFollower`` reads: its descriptor, how far it was read, the
/// line buffer and the parser its lines go to, and the first and last bytes read, to see the file
/// rewritten in place.
struct LogReading {
  /// The bytes read at once.
  static let chunkSize = 64 * 1024
  /// The first and last bytes read that ``rewritten()`` compares with the file.
  static let windowSize = 1024

  private(set) var descriptor: Int32
  private(set) var parser: FirebaseLogParser
  private(set) var lines = LogLineBuffer()
  /// What was handed to the parser, from the start of the file.
  private(set) var position = LogPosition()
  /// The bytes read (handed on, or held by ``lines``).
  private(set) var readOffset = 0
  private var head: [UInt8] = []
  private var tail: [UInt8] = []
  /// Reads that found nothing new since the last that did.
  var idleReads = 0

  /// `descriptor` read from its start.
  init(_ descriptor: Int32) {
    self.descriptor = descriptor
    parser = FirebaseLogParser()
  }

  /// `descriptor` read on from `position` (its first bytes known to be those read), its lines
  /// numbered on from `parser`'s.
  init(_ descriptor: Int32, from position: LogPosition, parser: FirebaseLogParser) {
    self.descriptor = descriptor
    self.parser = parser
    self.position = position
    readOffset = position.offset
    lseek(descriptor, off_t(readOffset), SEEK_SET)
    head = bytes(at: 0, count: min(readOffset, Self.windowSize))
    tail = bytes(at: max(0, readOffset - Self.windowSize), count: min(readOffset, Self.windowSize))
  }

  /// Reads the next chunk (into `chunk`, ``chunkSize`` bytes) and hands each complete line's
  /// results to `take`, with the position after the line; returns the bytes read, 0 at the end,
  /// or -1 on an error (`errno`; an interruption is retried).
  mutating func read(
    into chunk: inout [UInt8], take: ([FirebaseLogItem], LogPosition) -> Void
  ) -> Int {
    while true {
      let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, Self.chunkSize) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        idleReads += 1
        return count
      }
      idleReads = 0
      readOffset += count
      if head.count < Self.windowSize { head += chunk[0..<min(count, Self.windowSize - head.count)] }
      tail += chunk[max(0, count - Self.windowSize)..<count]
      if tail.count > Self.windowSize { tail.removeFirst(tail.count - Self.windowSize) }
      lines.append(chunk[0..<count])
      while let piece = lines.next(advancing: &position) { take(hand(piece), position) }
      return count
    }
  }

  /// The end of the input (standard input that ended, a file no longer written): its last line,
  /// even without its newline, and the entry left open.
  mutating func end(take: ([FirebaseLogItem], LogPosition) -> Void) {
    if let piece = lines.finish(advancing: &position) { take(hand(piece), position) }
    take(parser.finish(), position)
  }

  /// The bytes of the file past those handed to the parser (a line whose newline is not written
  /// yet, or what reading stopped before).
  var unreadBytes: Int {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return 0 }
    return max(0, Int(status.st_size) - position.offset)
  }

  /// Reading stops here (the file is read again from its start, or no longer read): the entry
  /// left open is reported.
  mutating func abandon(take: ([FirebaseLogItem], LogPosition) -> Void) {
    take(parser.finish(), position)
  }

  private mutating func hand(_ piece: LogLineBuffer.Piece) -> [FirebaseLogItem] {
    switch piece {
    case .line(let text): parser.feed(text)
    case .overlong(let bytes): parser.skip(overlong: bytes, limit: lines.limit)
    }
  }

  /// How the file was changed in place, if it was: smaller than what was read, or its first or
  /// last bytes read are no longer the same (truncated and written again, however long).
  func rewritten() -> String? {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return nil }
    if Int(status.st_size) < readOffset { return "was truncated" }
    if bytes(at: 0, count: head.count) != head
      || bytes(at: readOffset - tail.count, count: tail.count) != tail
    {
      return "was rewritten (truncated and written again)"
    }
    return nil
  }

  /// Whether `path` names another file than the one read, and a regular one.
  func isReplaced(at path: String) -> Bool {
    var current = stat()
    var status = stat()
    guard stat(path, &current) == 0, fstat(descriptor, &status) == 0 else { return false }
    return (current.st_ino != status.st_ino || current.st_dev != status.st_dev)
      && (current.st_mode & S_IFMT) == S_IFREG
  }

  /// The bytes at `offset` (at most `count`; fewer at the end of the file), read without moving
  /// the descriptor's offset.
  func bytes(at offset: Int, count: Int) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let got = buffer.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done))
      }
      if got < 0, errno == EINTR { continue }
      guard got > 0 else { break }
      done += got
    }
    return Array(buffer[0..<done])
  }
}
