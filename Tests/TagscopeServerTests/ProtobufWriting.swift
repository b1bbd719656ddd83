/// Protobuf written by hand, for the tests of Firebase uploads: a varint, a length-delimited field
/// (bytes or text), a varint field, and an event parameter (name and string value).
protocol ProtobufWriting {}

extension ProtobufWriting {
  static func varint(_ value: UInt64) -> [UInt8] {
    var value = value
    var out: [UInt8] = []
    while value >= 0x80 {
      out.append(UInt8(value & 0x7f) | 0x80)
      value >>= 7
    }
    return out + [UInt8(value)]
  }

  static func field(_ number: UInt64, _ bytes: [UInt8]) -> [UInt8] {
    varint(number << 3 | 2) + varint(UInt64(bytes.count)) + bytes
  }

  static func field(_ number: UInt64, _ text: String) -> [UInt8] { field(number, Array(text.utf8)) }

  static func field(_ number: UInt64, int value: UInt64) -> [UInt8] {
    varint(number << 3) + varint(value)
  }

  static func parameter(_ name: String, _ value: String) -> [UInt8] {
    field(1, field(1, name) + field(2, value))
  }
}
