/// Reads protobuf's wire format one field at a time, without a schema: what the Firebase upload
/// decoder uses to count a body's messages before building them, and to name the fields its
/// schema does not know. Linear, allocation-free; every length is checked against the bytes left.
struct ProtobufWireReader {
  /// One field as written: its number, and its value.
  struct Field {
    /// The field number.
    let number: UInt64
    /// The value.
    let value: Value
  }

  /// A field's value by wire type.
  enum Value {
    /// Wire type 0.
    case varint(UInt64)
    /// Wire type 1.
    case fixed64(UInt64)
    /// Wire type 2: where the bytes are in the buffer read.
    case lengthDelimited(Range<Int>)
    /// Wire type 5.
    case fixed32(UInt32)
    /// Wire type 3, a proto2 group's start (Firebase writes none): its fields follow.
    case group
    /// Wire type 4, a proto2 group's end.
    case groupEnd
  }

  /// Why the bytes are not protobuf.
  enum Failure: Error, Equatable {
    /// The bytes end inside a field.
    case truncated(at: Int)
    /// A wire type protobuf does not have, or field number 0.
    case malformed(at: Int)
  }

  private let bytes: UnsafeBufferPointer<UInt8>
  private let end: Int
  /// Where the next field starts.
  private(set) var offset: Int

  /// A reader of `range` of `bytes`.
  init(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
    self.bytes = bytes
    self.offset = range.lowerBound
    self.end = range.upperBound
  }

  /// The next field, or `nil` at the end.
  mutating func next() throws(Failure) -> Field? {
    guard offset < end else { return nil }
    let start = offset
    let key = try varint()
    let number = key >> 3
    guard number > 0 else { throw .malformed(at: start) }
    switch key & 7 {
    case 0: return Field(number: number, value: .varint(try varint()))
    case 1: return Field(number: number, value: .fixed64(try fixed(8)))
    case 2:
      let length = try varint()
      guard length <= UInt64(end - offset) else { throw .truncated(at: start) }
      let range = offset..<(offset + Int(length))
      offset = range.upperBound
      return Field(number: number, value: .lengthDelimited(range))
    case 5: return Field(number: number, value: .fixed32(UInt32(truncatingIfNeeded: try fixed(4))))
    case 3: return Field(number: number, value: .group)
    case 4: return Field(number: number, value: .groupEnd)
    default: throw .malformed(at: start)
    }
  }

  /// Reads past the end of the group just started (``Value/group``), groups within it included:
  /// a group is one field, its fields the group's own, as SwiftProtobuf keeps it. Throws where
  /// the bytes stop being protobuf, or `truncated` at the end when they end first.
  mutating func skipGroup() throws(Failure) {
    var depth = 1
    while depth > 0 {
      guard let field = try next() else { throw .truncated(at: end) }
      switch field.value {
      case .group: depth += 1
      case .groupEnd: depth -= 1
      default: continue
      }
    }
  }

  private mutating func varint() throws(Failure) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    let start = offset
    while offset < end {
      let byte = bytes[offset]
      offset += 1
      guard shift < 64 else { throw .malformed(at: start) }
      value |= UInt64(byte & 0x7f) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
    throw .truncated(at: start)
  }

  private mutating func fixed(_ count: Int) throws(Failure) -> UInt64 {
    guard end - offset >= count else { throw .truncated(at: offset) }
    var value: UInt64 = 0
    for index in 0..<count { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
    offset += count
    return value
  }
}
