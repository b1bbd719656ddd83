/// URI templates and JSON pointers.
extension ValueFormat {
  /// RFC 6570: literal characters and `{…}` expressions of an optional operator and
  /// comma-separated variables, each with an optional `:length` or `*`.
  static func isURITemplate(_ bytes: [UInt8]) -> Bool {
    let forbidden = Set(" \"<>\\^`|}".utf8)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 123 {
        guard let close = bytes[index...].firstIndex(of: 125), isExpression(bytes[(index + 1)..<close]) else {
          return false
        }
        index = close + 1
        continue
      }
      guard byte > 32, byte != 127, !forbidden.contains(byte) else { return false }
      if byte == 37 {
        guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
      }
      index += 1
    }
    return true
  }

  private static func isExpression(_ body: ArraySlice<UInt8>) -> Bool {
    var rest = body
    if let first = rest.first, "+#./;?&=,!@|".utf8.contains(first) { rest = rest.dropFirst() }
    guard !rest.isEmpty else { return false }
    return rest.split(separator: 44, omittingEmptySubsequences: false).allSatisfy { spec in
      var name = spec
      if spec.last == 42 {
        name = spec.dropLast()
      } else if let colon = spec.firstIndex(of: 58) {
        let length = spec[(colon + 1)...]
        guard (1...4).contains(length.count), length.first != 48, length.allSatisfy(isDigit) else {
          return false
        }
        name = spec[..<colon]
      }
      guard !name.isEmpty, name.first != 46, name.last != 46,
        !zip(name, name.dropFirst()).contains(where: { $0 == 46 && $1 == 46 })
      else { return false }
      var index = name.startIndex
      while index < name.endIndex {
        let byte = name[index]
        if byte == 37 {
          guard index + 2 < name.endIndex, isHex(name[index + 1]), isHex(name[index + 2]) else {
            return false
          }
          index += 3
          continue
        }
        guard isDigit(byte) || ((byte | 0x20) >= 97 && (byte | 0x20) <= 122) || byte == 95 || byte == 46
        else {
          return false
        }
        index += 1
      }
      return true
    }
  }

  /// RFC 6901: empty, or `/`-led reference tokens where `~` is only `~0` or `~1`.
  static func isJSONPointer(_ bytes: ArraySlice<UInt8>) -> Bool {
    guard let first = bytes.first else { return true }
    guard first == 47 else { return false }
    var index = bytes.startIndex
    while index < bytes.endIndex {
      if bytes[index] == 126 {
        guard index + 1 < bytes.endIndex, bytes[index + 1] == 48 || bytes[index + 1] == 49 else {
          return false
        }
        index += 1
      }
      index += 1
    }
    return true
  }

  /// A non-negative integer (no leading zero), an optional `+n`/`-n` index change, then `#` or a
  /// JSON pointer.
  static func isRelativeJSONPointer(_ bytes: [UInt8]) -> Bool {
    var index = 0
    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    guard index > 0, index == 1 || bytes[0] != 48 else { return false }
    if index < bytes.count, bytes[index] == 43 || bytes[index] == 45 {
      let start = index + 1
      index = start
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      guard index > start, bytes[start] != 48 else { return false }
    }
    if index < bytes.count, bytes[index] == 35 { return index + 1 == bytes.count }
    return isJSONPointer(bytes[index...])
  }
}
