import AnalyticsHub

/// Reads an upload's event, user property or bundle straight from its wire bytes into what its
/// records need (``FirebaseEventHeader`` and ``FirebaseParameterValue``, ``FirebasePropertyFields``,
/// the bundle's context), with no message tree: the fast path of ``FirebaseUploadBuilder`` and
/// ``FirebaseUploadIndex``. It reads only what SwiftProtobuf reads the same way and keeps nothing
/// aside: each field a known one of its declared wire type behind a one-byte key (two for a
/// bundle's), every length and varint within the message, strings valid UTF-8; a bundle's fields
/// the schema does not declare are listed as SwiftProtobuf lists them. Anything else (an event's
/// or user property's field the schema does not know, a field of another wire type, which
/// SwiftProtobuf keeps as unknown; bytes that are not protobuf; text that is not UTF-8) gives
/// `nil`, and the caller decodes that message with SwiftProtobuf, which keeps, reports or refuses
/// it as before.
struct FirebaseWireWalk {
  private let bytes: UnsafeBufferPointer<UInt8>
  /// Where the next field starts, and where the message ends.
  private(set) var offset: Int
  let end: Int

  /// The deepest items in items a walk follows (an event's parameter is level 1); deeper ones are
  /// left to SwiftProtobuf (``FirebaseUploadShape`` refuses them first).
  private static let parameterLevels = FirebaseUploadShape.depthLimit - 3

  /// A walk of `range` of `bytes` (what ``FirebaseUploadShape`` counts with, its field at a time).
  init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
    self.bytes = bytes
    offset = range.lowerBound
    end = range.upperBound
  }

  /// The user property at `range` of `bytes`, or `nil` when SwiftProtobuf must read it.
  static func property(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> FirebasePropertyFields? {
    var walk = FirebaseWireWalk(bytes, range)
    var property = FirebasePropertyFields()
    while walk.offset < walk.end {
      switch walk.key() {
      case 1 << 3:
        guard let time = walk.varint() else { return nil }
        property.setTimestampMillis = Int64(bitPattern: time)
      case 2 << 3 | 2:
        guard let (name, word) = walk.name(FirebaseUploadRecords.tables.names) else { return nil }
        property.setName(name, word: word)
      case 3 << 3 | 2:
        guard let text = walk.string() else { return nil }
        property.string = text
      case 4 << 3:
        guard let number = walk.varint() else { return nil }
        property.int = Int64(bitPattern: number)
      case 5 << 3 | 5:
        guard let bits = walk.fixed32() else { return nil }
        property.float = Float(bitPattern: bits)
      case 6 << 3 | 1:
        guard let bits = walk.fixed64() else { return nil }
        property.double = Double(bitPattern: bits)
      default: return nil
      }
    }
    return property
  }

  /// The event at `range` of `bytes` as its record reads it: its name and times, its parameters'
  /// names and values (``FirebaseParameterFields/value``) in `parameters`, which it replaces; `nil`
  /// when SwiftProtobuf must read it. No message is made for it or its parameters.
  static func event(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, parameters: inout [FirebaseParameterValue]
  ) -> FirebaseEventHeader? {
    if !parameters.isEmpty { parameters.removeAll(keepingCapacity: true) }
    let names = FirebaseUploadRecords.tables.names
    var walk = FirebaseWireWalk(bytes, range)
    var event = FirebaseEventHeader()
    while walk.offset < walk.end {
      switch walk.key() {
      case 1 << 3 | 2:
        guard let inner = walk.length(), let parameter = parameterValue(bytes, inner, names: names) else {
          return nil
        }
        parameters.append(parameter)
      case 2 << 3 | 2:
        guard let (name, word) = walk.name(names) else { return nil }
        event.setName(name, word: word)
      case 3 << 3:
        guard let time = walk.varint() else { return nil }
        event.timestampMillis = Int64(bitPattern: time)
      case 4 << 3:
        guard let time = walk.varint() else { return nil }
        event.previousTimestampMillis = Int64(bitPattern: time)
      default: return nil
      }
    }
    return event
  }

  /// The context of the bundle at `range` of `bytes` (``FirebaseUploadRecords/context(_:)``'s
  /// fields, in its order), its events and user properties (fields 2 and 3) and the fields the
  /// schema does not declare (a number no bundle field has, of wire type 0, 1, 2 or 5) passed
  /// over; `nil` when SwiftProtobuf must read it. What the context of a bundle SwiftProtobuf has
  /// decoded reads, once it has collected those fields (its context made from the decoded message
  /// cost as much again as decoding it).
  static func context(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Properties? {
    var (events, properties): ([Range<Int>], [Range<Int>]) = ([], [])
    var found: [String] = []
    return bundle(
      bytes, range, listing: false, events: &events, properties: &properties, unknown: &found, place: "")
  }

  /// The bundle at `range` of `bytes` in one pass: its context (as ``context(_:_:)`` reads it)
  /// returned, where its events and user properties are appended to `events` and `properties`, and
  /// each field the schema does not declare (a number no bundle field has, of wire type 0, 1, 2 or
  /// 5) appended to `unknown` at `place` as SwiftProtobuf's decoded message lists it
  /// (``FirebaseUnknownFields``); `nil`, all three as they were, when SwiftProtobuf must read it.
  static func bundle(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, events: inout [Range<Int>],
    properties: inout [Range<Int>], unknown: inout [String], place: @autoclosure () -> String
  ) -> Properties? {
    let (found, eventCount, propertyCount) = (unknown.count, events.count, properties.count)
    let context = bundle(
      bytes, range, listing: true, events: &events, properties: &properties, unknown: &unknown,
      place: place())
    if context == nil {
      unknown.removeSubrange(found...)
      events.removeSubrange(eventCount...)
      properties.removeSubrange(propertyCount...)
    }
    return context
  }

  /// The walk of ``bundle(_:_:events:properties:unknown:place:)``; without `listing`, that of
  /// ``context(_:_:)``, which keeps neither where the bundle's messages are nor its undeclared fields.
  private static func bundle(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, listing: Bool,
    events: inout [Range<Int>], properties: inout [Range<Int>], unknown: inout [String],
    place: @autoclosure () -> String
  ) -> Properties? {
    var walk = FirebaseWireWalk(bytes, range)
    // Looked up once, not at every field (each look-up of a global checks it is made).
    let table = BundleField.table
    return withUnsafeTemporaryAllocation(of: PropertyValue?.self, capacity: table.keys.count) { values in
      values.initialize(repeating: nil)
      // Moved into the context once read whole; left here (and let go) when the walk gives up.
      var moved = false
      defer { if !moved { values.deinitialize() } }
      // The slots set (at most 64 fields, ``BundleField/table``).
      var seen: UInt64 = 0
      while walk.offset < walk.end {
        let start = walk.offset
        let key = walk.twoByteKey()
        let number = Int(key >> 3)
        if (number == 2 || number == 3) && key & 7 == 2 {
          guard let span = walk.length() else { return nil }
          if listing {
            if number == 2 { events.append(span) } else { properties.append(span) }
          }
          continue
        }
        let slot = number < table.slots.count ? Int(table.slots[number]) : -1
        guard slot >= 0 else {
          // Not declared: past 3 (1 is a bundle field, 2 and 3 its events' and user properties').
          guard number > 3, walk.pass(wireType: key & 7) else { return nil }
          if listing {
            unknown.append(FirebaseUnknownFields.describe(bytes, field: start..<walk.offset, place: place()))
          }
          continue
        }
        seen |= 1 << UInt64(slot)
        switch (table.kinds[slot], key & 7) {
        case (.text, 2):
          guard let text = walk.string() else { return nil }
          values[slot] = .string(text)
        case (.int32, 0):
          guard let number = walk.varint() else { return nil }
          values[slot] = .int(Int(Int32(truncatingIfNeeded: number)))
        case (.int64, 0):
          guard let number = walk.varint() else { return nil }
          values[slot] = .int(Int(Int64(bitPattern: number)))
        case (.hash, 0):
          guard let number = walk.varint() else { return nil }
          values[slot] = .string(String(number))
        case (.flag, 0):
          guard let number = walk.varint() else { return nil }
          values[slot] = .bool(number != 0)
        default: return nil
        }
      }
      var context = Properties()
      // Made at its size, with room for the note of the fields the schema lacks its records may
      // carry (``FirebaseUploadRecords/common(context:unknownNote:)``): appended to, it grew four or
      // five times a bundle.
      context.reserveCapacity(seen.nonzeroBitCount + 1)
      moved = true
      for slot in values.indices {
        if let value = values.moveElement(from: slot) { context.appendUnchecked(table.keys[slot], value) }
      }
      return context
    }
  }

  /// A parameter as its record takes it (name and value), read straight from the wire; one with
  /// items is read whole by ``parameter(_:_:level:)``.
  private static func parameterValue(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, names: FirebaseShortNameTable<String>
  ) -> FirebaseParameterValue? {
    var walk = FirebaseWireWalk(bytes, range)
    var name = ""
    var word: UInt64 = 0
    var string: String?
    var int: Int64?
    var float: Float?
    var double: Double?
    while walk.offset < walk.end {
      switch walk.key() {
      case 1 << 3 | 2:
        guard let read = walk.name(names) else { return nil }
        (name, word) = read
      case 2 << 3 | 2:
        guard let text = walk.string() else { return nil }
        string = text
      case 3 << 3:
        guard let number = walk.varint() else { return nil }
        int = Int64(bitPattern: number)
      case 4 << 3 | 5:
        guard let bits = walk.fixed32() else { return nil }
        float = Float(bitPattern: bits)
      case 5 << 3 | 1:
        guard let bits = walk.fixed64() else { return nil }
        double = Double(bitPattern: bits)
      case 6 << 3 | 2:
        return parameter(bytes, range, level: 1).map {
          FirebaseParameterValue(name: $0.name, value: $0.value)
        }
      default: return nil
      }
    }
    return FirebaseParameterValue(
      name: name, word: word,
      value: FirebaseScalar.value(string: string, int: int, double: double, float: float) ?? .null)
  }

  private static func parameter(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, level: Int)
    -> FirebaseParameterFields?
  {
    var walk = FirebaseWireWalk(bytes, range)
    var parameter = FirebaseParameterFields()
    while walk.offset < walk.end {
      switch walk.key() {
      case 1 << 3 | 2:
        guard let name = walk.string() else { return nil }
        parameter.name = name
      case 2 << 3 | 2:
        guard let text = walk.string() else { return nil }
        parameter.string = text
      case 3 << 3:
        guard let number = walk.varint() else { return nil }
        parameter.int = Int64(bitPattern: number)
      case 4 << 3 | 5:
        guard let bits = walk.fixed32() else { return nil }
        parameter.float = Float(bitPattern: bits)
      case 5 << 3 | 1:
        guard let bits = walk.fixed64() else { return nil }
        parameter.double = Double(bitPattern: bits)
      case 6 << 3 | 2:
        guard level < parameterLevels, let inner = walk.length(),
          let item = Self.parameter(bytes, inner, level: level + 1)
        else { return nil }
        parameter.nested.append(item)
      default: return nil
      }
    }
    return parameter
  }

  /// The next field's key when it is one byte, else `0` (no field has it).
  private mutating func key() -> UInt8 {
    let key = bytes[offset]
    guard key < 0x80 else { return 0 }
    offset += 1
    return key
  }

  /// The next field's key when it is one or two bytes (field numbers below 2,048), else `0`.
  private mutating func twoByteKey() -> UInt64 {
    let first = bytes[offset]
    guard first >= 0x80 else {
      offset += 1
      return UInt64(first)
    }
    guard end - offset >= 2, bytes[offset + 1] < 0x80 else { return 0 }
    offset += 2
    return UInt64(first & 0x7f) | UInt64(bytes[offset - 1]) << 7
  }

  /// A varint of at most ten bytes within the message.
  @inline(__always)
  mutating func varint() -> UInt64? {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while offset < end, shift < 64 {
      let byte = bytes[offset]
      offset += 1
      value |= UInt64(byte & 0x7f) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
    return nil
  }

  private mutating func fixed32() -> UInt32? {
    guard end - offset >= 4 else { return nil }
    var value: UInt32 = 0
    for index in 0..<4 { value |= UInt32(bytes[offset + index]) << (8 * UInt32(index)) }
    offset += 4
    return value
  }

  private mutating func fixed64() -> UInt64? {
    guard end - offset >= 8 else { return nil }
    var value: UInt64 = 0
    for index in 0..<8 { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
    offset += 8
    return value
  }

  /// Reads past a value of `wireType` (varint, fixed64, length-delimited or fixed32); `false`
  /// for another wire type or a value that does not end within the message.
  @inline(__always)
  mutating func pass(wireType: UInt64) -> Bool {
    switch wireType {
    case 0: return varint() != nil
    case 1: return fixed64() != nil
    case 2: return length() != nil
    case 5: return fixed32() != nil
    default: return false
    }
  }

  /// Reads past the end of the group just started, groups within it included, as
  /// ``ProtobufWireReader/skipGroup()`` reads; `false` where it throws.
  mutating func passGroup() -> Bool {
    var depth = 1
    while depth > 0 {
      guard let key = varint(), key >> 3 > 0 else { return false }
      switch key & 7 {
      case 3: depth += 1
      case 4: depth -= 1
      case let wireType: guard pass(wireType: wireType) else { return false }
      }
    }
    return true
  }

  /// Where a length-delimited value's bytes are, when they end within the message.
  @inline(__always)
  mutating func length() -> Range<Int>? {
    guard let length = varint(), length <= UInt64(end - offset) else { return nil }
    let range = offset..<(offset + Int(length))
    offset = range.upperBound
    return range
  }

  /// A length-delimited name as text, when it is UTF-8, and packed into a word
  /// (``FirebaseNameWord``): a short name `names` knows is its text there, not made again.
  private mutating func name(_ names: FirebaseShortNameTable<String>) -> (String, UInt64)? {
    guard let range = length() else { return nil }
    let utf8 = UnsafeBufferPointer(rebasing: bytes[range])
    let word = FirebaseNameWord.of(utf8)
    if word != 0, let known = names[word: word, name: ""] { return (known, word) }
    return Self.text(utf8).map { ($0, word) }
  }

  /// A length-delimited value as text, when it is UTF-8.
  private mutating func string() -> String? {
    guard let range = length() else { return nil }
    return Self.text(UnsafeBufferPointer(rebasing: bytes[range]))
  }

  /// `utf8` as text when it is UTF-8, else `nil`. Names and most values on the wire are ASCII:
  /// checked here a word at a time and made with `String(decoding:as:)`, specialized for the
  /// buffer; `String(validating:as:)`, generic over the encoding, looked its metadata up on every
  /// call (a tenth of walking an upload), so it reads only text with other bytes.
  static func text(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
    guard isASCII(utf8) else { return String(validating: utf8, as: UTF8.self) }
    return String(decoding: utf8, as: UTF8.self)
  }

  /// Whether every byte of `utf8` is below 0x80.
  private static func isASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = UnsafeRawPointer(utf8.baseAddress) else { return true }
    var index = 0
    var high: UInt64 = 0
    while index + 8 <= utf8.count {
      high |= base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      index += 8
    }
    while index < utf8.count {
      high |= UInt64(utf8[index])
      index += 1
    }
    return high & 0x8080_8080_8080_8080 == 0
  }
}

/// A bundle field of the context its records carry: its key there, its number, how it is written.
private struct BundleField {
  enum Kind: Sendable { case text, int32, int64, hash, flag }

  let key: String
  let number: Int
  let kind: Kind

  /// In ``FirebaseUploadRecords/context(_:)``'s order (`dev_cert_hash`, a `uint64`, as its digits).
  static let all: [BundleField] = [
    .init(key: "app_instance_id", number: 21, kind: .text), .init(key: "platform", number: 8, kind: .text),
    .init(key: "os_version", number: 9, kind: .text), .init(key: "device_model", number: 10, kind: .text),
    .init(key: "language", number: 11, kind: .text),
    .init(key: "time_zone_offset_minutes", number: 12, kind: .int32),
    .init(key: "app_id", number: 14, kind: .text), .init(key: "app_version", number: 16, kind: .text),
    .init(key: "app_version_major", number: 31, kind: .int64),
    .init(key: "gmp_app_id", number: 25, kind: .text),
    .init(key: "gmp_version", number: 17, kind: .int64),
    .init(key: "uploading_gmp_version", number: 18, kind: .int64),
    .init(key: "install_source", number: 13, kind: .text),
    .init(key: "firebase_instance_id", number: 30, kind: .text),
    .init(key: "resettable_device_id", number: 19, kind: .text),
    .init(key: "vendor_device_id", number: 27, kind: .text),
    .init(key: "consent_state", number: 52, kind: .text),
    .init(key: "bundle_sequential_index", number: 23, kind: .int32),
    .init(key: "upload_timestamp_millis", number: 4, kind: .int64),
    .init(key: "start_timestamp_millis", number: 5, kind: .int64),
    .init(key: "end_timestamp_millis", number: 6, kind: .int64),
    .init(key: "previous_bundle_start_timestamp_millis", number: 26, kind: .int64),
    .init(key: "previous_bundle_end_timestamp_millis", number: 7, kind: .int64),
    .init(key: "protocol_version", number: 1, kind: .int32),
    .init(key: "dev_cert_hash", number: 22, kind: .hash),
    .init(key: "limited_ad_tracking", number: 20, kind: .flag),
    .init(key: "health_monitor_sample", number: 24, kind: .text),
    .init(key: "service_upload", number: 28, kind: .flag),
    .init(key: "config_version", number: 35, kind: .int64),
    .init(key: "dynamite_version", number: 46, kind: .int64),
    .init(key: "target_os_version", number: 67, kind: .int32),
    .init(key: "consent_diagnostics", number: 71, kind: .text),
    .init(key: "is_dma_region", number: 72, kind: .flag),
    .init(key: "core_platform_services", number: 73, kind: .text),
  ]

  /// ``all`` as a walk reads it: each field's key and kind by its position, and the position of
  /// each field number's field (`-1` for a number no field has).
  struct Table: Sendable {
    let keys: [String]
    let kinds: [Kind]
    let slots: [Int8]
  }

  static let table: Table = {
    precondition(all.count <= 64, "a walk keeps the fields it has set in 64 bits")
    var slots = [Int8](repeating: -1, count: (all.map(\.number).max() ?? 0) + 1)
    for (slot, field) in all.enumerated() { slots[field.number] = Int8(slot) }
    return Table(keys: all.map(\.key), kinds: all.map(\.kind), slots: slots)
  }()
}
