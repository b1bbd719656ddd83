/// A table keyed by the SDK's short names (`_vs`, `_o`, `_sid`…), found without hashing text: a
/// name of at most eight bytes is packed into one word and looked up in a small open-addressed
/// table (a longer one, which no short name is, in a dictionary). An upload's records look one up
/// for every event, parameter and user property; hashing each name for a dictionary cost a
/// twentieth of reading an upload. Names are compared byte for byte, as the SDK compares them (a
/// dictionary of `String`s also found a name written in other, canonically equivalent, code
/// points: no short name has such a twin).
struct FirebaseShortNameTable<Value: Sendable>: Sendable {
  private var keys: [UInt64]
  private var values: [Value?]
  private let mask: Int
  private var long: [String: Value] = [:]

  /// The table of `pairs`.
  init(_ pairs: [String: Value]) {
    var size = 16
    while size < pairs.count * 4 { size *= 2 }
    keys = Array(repeating: 0, count: size)
    values = Array(repeating: nil, count: size)
    mask = size - 1
    for (name, value) in pairs {
      let key = FirebaseNameWord.of(name)
      guard key != 0 else {
        long[name] = value
        continue
      }
      var slot = Self.slot(key) & mask
      while keys[slot] != 0 && keys[slot] != key { slot = (slot + 1) & mask }
      keys[slot] = key
      values[slot] = value
    }
  }

  /// The value of `name`, `nil` when the table has none.
  subscript(name: String) -> Value? { self[word: FirebaseNameWord.of(name), name: name] }

  /// The value of `name`, whose ``FirebaseNameWord/of(_:)-(String)`` is `word`, looked up without reading its text
  /// again (a wire walk packs each name as it reads it).
  subscript(word key: UInt64, name name: String) -> Value? {
    guard key != 0 else { return long.isEmpty ? nil : long[name] }
    var slot = Self.slot(key) & mask
    while true {
      let found = keys[slot]
      if found == key { return values[slot] }
      if found == 0 { return nil }
      slot = (slot + 1) & mask
    }
  }

  @inline(__always)
  private static func slot(_ key: UInt64) -> Int {
    Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40)
  }
}

/// A name of an upload's parameter, event or user property packed into one word: what
/// ``FirebaseShortNameTable`` looks names up by, and what tells two names apart without comparing
/// their text.
enum FirebaseNameWord {
  /// `name`'s bytes in one word, first byte lowest; `0` for an empty name, one past eight bytes,
  /// one holding a zero byte (its word would be another's) or a byte past ASCII (a name written
  /// in other, canonically equivalent, code points is the same `String`). Two names with the same
  /// nonzero word are the same text; with different ones, different text.
  static func of(_ name: String) -> UInt64 {
    var name = name
    return name.withUTF8 { of($0) }
  }

  /// ``of(_:)-(String)`` of a name's UTF-8 bytes.
  @inline(__always)
  static func of(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt64 {
    guard utf8.count <= 8 else { return 0 }
    var key: UInt64 = 0
    var shift: UInt64 = 0
    for byte in utf8 {
      guard byte != 0, byte < 0x80 else { return 0 }
      key |= UInt64(byte) << shift
      shift += 8
    }
    return key
  }
}
