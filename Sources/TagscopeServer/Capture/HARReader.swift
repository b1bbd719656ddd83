import Foundation
import TagscopeRecording

/// Walks a HAR 1.2 file's `log.entries` one entry at a time over the file's bytes, mapped rather
/// than read (a capture of gigabytes is paged in, never copied): each entry is lexed once, read
/// into a ``HAREntry`` where it lies over at most ``entryLimit`` bytes of the file (so a larger one
/// is never built). Only an entry that is not read is lexed again as a whole, for its size and
/// syntax: one too large or malformed is handed on as a ``HARProblem`` and the walk goes on with
/// the next; JSON broken inside or between entries (a truncated file) ends the walk with a problem
/// naming the entry it broke in.
struct HARReader {
  /// The most bytes of JSON one entry may take.
  let entryLimit: Int

  /// Calls `each` with every entry, or the problem of an entry, in order. Throws for a file that
  /// cannot be read or is no HAR file (no `log.entries` array); returns the problem that ended
  /// the walk early, if any.
  func walk(
    _ bytes: UnsafeBufferPointer<UInt8>, _ each: (Result<HAREntry, HARProblem>) throws -> Void
  ) throws -> HARProblem? {
    var cursor = JSONCursor(bytes)
    do {
      try Self.enter(&cursor, key: "log", path: "top level")
      try Self.enter(&cursor, key: "entries", path: "log")
    } catch let error as JSONSyntaxError {
      throw HARProblem(
        entry: nil, field: "log.entries", message: "\(error.reason) at byte \(error.offset + 1)")
    }
    guard cursor.peek == UInt8(ascii: "[") else {
      throw HARProblem(entry: nil, field: "log.entries", message: "an array expected")
    }
    var index = 0
    do {
      try cursor.open()
      while try cursor.nextElement(first: index == 0) {
        let start = cursor.index
        let result: Result<HAREntry, HARProblem>
        var reader = HAREntryReader(
          Self.window(bytes, from: start, limit: entryLimit), offset: start, entry: index, depth: cursor.depth
        )
        do {
          result = .success(try reader.read())
          cursor.index = reader.cursor.index
        } catch {
          // Only an entry that is not read is lexed again, as a whole, for its size and syntax.
          do {
            try cursor.skipValue()
          } catch {
            return HARProblem(
              entry: index, field: "entry",
              message: "\(error.reason) at byte \(error.offset + 1): the entries from here on are not read")
          }
          let size = cursor.index - start
          result = .failure(
            size > entryLimit ? Self.tooLarge(entry: index, size: size, limit: entryLimit) : error)
        }
        try each(result)
        index += 1
      }
    } catch let error as JSONSyntaxError {
      return HARProblem(
        entry: index, field: "log.entries",
        message: "\(error.reason) at byte \(error.offset + 1): the entries from here on are not read")
    }
    return nil
  }

  /// Moves `cursor` into the object it is on, to the value of `key`.
  private static func enter(_ cursor: inout JSONCursor, key: String, path: String) throws {
    cursor.skipWhitespace()
    guard cursor.peek == UInt8(ascii: "{") else {
      throw HARProblem(entry: nil, field: path, message: "an object expected: this is no HAR file")
    }
    try cursor.open()
    var first = true
    while let name = try cursor.nextKey(first: first) {
      first = false
      if name.elementsEqual(key.utf8) { return }
      try cursor.skipValue()
    }
    throw HARProblem(entry: nil, field: path, message: "no \"\(key)\": this is no HAR file")
  }

  /// The file's bytes up to `limit` bytes after `start`: an entry read over it cannot be larger.
  private static func window(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int)
    -> UnsafeBufferPointer<UInt8>
  {
    limit >= bytes.count - start ? bytes : UnsafeBufferPointer(rebasing: bytes[0..<start + limit])
  }

  private static func tooLarge(entry: Int, size: Int, limit: Int) -> HARProblem {
    HARProblem(
      entry: entry, field: "entry",
      message: "\(size) bytes, over the \(limit) an entry may take: skipped (an SDK body is at most 20 MB)")
  }
}
