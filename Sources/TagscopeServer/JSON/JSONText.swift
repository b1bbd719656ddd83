import AnalyticsHub
import TagscopeRecording

/// Writes ``PropertyValue``s as compact JSON (the replies the server sends to SDKs).
enum JSONText {
  /// `value` as compact JSON text.
  static func value(_ value: PropertyValue) -> String {
    var bytes: [UInt8] = []
    append(value, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `properties` as a compact JSON object.
  static func string(_ properties: Properties) -> String { value(.object(properties)) }

  static func append(_ value: PropertyValue, to bytes: inout [UInt8]) {
    switch value {
    case .string(let text): appendString(text, to: &bytes)
    case .int(let number): bytes.append(contentsOf: String(number).utf8)
    case .double(let number):
      if number.isFinite {
        if number == number.rounded(), abs(number) < 1e15 {
          bytes.append(contentsOf: String(Int64(number)).utf8)
        } else {
          bytes.append(contentsOf: String(number).utf8)
        }
      } else {
        bytes.append(contentsOf: "null".utf8)
      }
    case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
    case .date(let date): appendString(ISO8601Timestamp.string(from: date), to: &bytes)
    case .array(let values):
      bytes.append(UInt8(ascii: "["))
      for (position, element) in values.enumerated() {
        if position > 0 { bytes.append(UInt8(ascii: ",")) }
        append(element, to: &bytes)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let properties):
      bytes.append(UInt8(ascii: "{"))
      for (position, element) in properties.enumerated() {
        if position > 0 { bytes.append(UInt8(ascii: ",")) }
        appendString(element.key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        append(element.value, to: &bytes)
      }
      bytes.append(UInt8(ascii: "}"))
    case .null: bytes.append(contentsOf: "null".utf8)
    }
  }

  static func appendString(_ text: String, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
      case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [
          0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
        ])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
