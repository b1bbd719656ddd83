import AnalyticsHub

/// Appends compact JSON to a byte buffer: strings escaped per RFC 8259, integers and doubles in
/// their shortest exact form, non-finite doubles as `null`.
struct JSONWriter {
  var bytes: [UInt8]

  init(capacity: Int = 512) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  mutating func byte(_ value: UInt8) { bytes.append(value) }

  /// Appends ASCII text as is (field names and punctuation written by the encoder).
  mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// `"key":` for a field after the first.
  mutating func key(_ name: StaticString, first: Bool = false) {
    if !first { bytes.append(UInt8(ascii: ",")) }
    bytes.append(UInt8(ascii: "\""))
    raw(name)
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
  }

  /// `"key":` for a runtime key (escaped).
  mutating func key(_ name: String, first: Bool) {
    if !first { bytes.append(UInt8(ascii: ",")) }
    string(name)
    bytes.append(UInt8(ascii: ":"))
  }

  mutating func string(_ text: String) {
    var text = text
    text.withUTF8 { appendEscaped($0) }
  }

  private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
    bytes.append(UInt8(ascii: "\""))
    var runStart = 0
    var index = 0
    let count = utf8.count
    while index < count {
      let byte = utf8[index]
      if byte >= 0x20 && byte != 0x22 && byte != 0x5C {
        index += 1
        continue
      }
      if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
      bytes.append(UInt8(ascii: "\\"))
      switch byte {
      case 0x22: bytes.append(0x22)
      case 0x5C: bytes.append(0x5C)
      case 0x0A: bytes.append(UInt8(ascii: "n"))
      case 0x0D: bytes.append(UInt8(ascii: "r"))
      case 0x09: bytes.append(UInt8(ascii: "t"))
      case 0x08: bytes.append(UInt8(ascii: "b"))
      case 0x0C: bytes.append(UInt8(ascii: "f"))
      default:
        bytes.append(UInt8(ascii: "u"))
        bytes.append(UInt8(ascii: "0"))
        bytes.append(UInt8(ascii: "0"))
        bytes.append(Self.hex[Int(byte >> 4)])
        bytes.append(Self.hex[Int(byte & 0xF)])
      }
      index += 1
      runStart = index
    }
    if runStart < count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count])) }
    bytes.append(UInt8(ascii: "\""))
  }

  private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

  mutating func int(_ value: Int64) {
    if value < 0 {
      bytes.append(UInt8(ascii: "-"))
      unsigned(value.magnitude)
    } else {
      unsigned(UInt64(value))
    }
  }

  mutating func unsigned(_ value: UInt64) {
    if value < 10 {
      bytes.append(48 + UInt8(value))
      return
    }
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var count = 0
    var rest = value
    withUnsafeMutableBytes(of: &digits) { buffer in
      while rest > 0 {
        buffer[count] = 48 + UInt8(rest % 10)
        rest /= 10
        count += 1
      }
      while count > 0 {
        count -= 1
        bytes.append(buffer[count])
      }
    }
  }

  mutating func double(_ value: Double) {
    guard value.isFinite else {
      raw("null")
      return
    }
    bytes.append(contentsOf: value.description.utf8)
  }

  mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

  mutating func timestamp(_ milliseconds: Int64) {
    bytes.append(UInt8(ascii: "\""))
    RecordTimestamp.write(milliseconds, into: &bytes)
    bytes.append(UInt8(ascii: "\""))
  }

  mutating func value(_ value: PropertyValue) {
    switch value {
    case .string(let text): string(text)
    case .int(let number): int(Int64(number))
    case .double(let number): double(number)
    case .bool(let flag): bool(flag)
    case .date(let date): timestamp(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    case .array(let values):
      bytes.append(UInt8(ascii: "["))
      for (index, element) in values.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        self.value(element)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let properties): object(properties)
    case .null: raw("null")
    }
  }

  mutating func object(_ properties: Properties) {
    bytes.append(UInt8(ascii: "{"))
    for (index, element) in properties.enumerated() {
      key(element.key, first: index == 0)
      value(element.value)
    }
    bytes.append(UInt8(ascii: "}"))
  }

  /// Appends `extra`'s fields after fields already written (the object is open and non-empty).
  mutating func extraFields(_ extra: Properties) {
    for (key, value) in extra {
      self.key(key, first: false)
      self.value(value)
    }
  }

  mutating func stringArray(_ values: [String]) {
    bytes.append(UInt8(ascii: "["))
    for (index, element) in values.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      string(element)
    }
    bytes.append(UInt8(ascii: "]"))
  }
}
