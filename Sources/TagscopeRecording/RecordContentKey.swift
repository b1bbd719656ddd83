import Foundation

/// What decides a record's validation against a tagging plan, hashed to 128 bits: `kind`, `name`,
/// `properties`, `context.screen` and `outputs`, as written in the line. Two records with the same
/// key get the same violations (but their `seq`) and cover the same plan items.
package struct RecordContentKey: Hashable, Sendable {
  package var low: UInt64
  package var high: UInt64

  /// A key of these two halves.
  package init(low: UInt64, high: UInt64) {
    self.low = low
    self.high = high
  }
}

/// Builds a line's ``RecordContentKey`` and `seq` while the decoder checks the whole line. A record
/// with a `source` (from `tagscope listen`, whose provider rule counts run across records) has no
/// key.
package struct RecordContentKeyBuilder: RecordBuilder {
  /// The last line's `seq`.
  package private(set) var seq: UInt64 = 0
  /// The last line's `time`, in milliseconds since 1970 (not part of the key).
  package private(set) var time: Int64 = 0
  private var hasSource = false
  /// The last line's `source` bytes (empty without one; the buffer is reused line after line).
  package private(set) var sourceBytes: [UInt8] = []
  private var hasher = ContentHasher()
  /// Whether records with a `source` get a key too (the key still leaves the source out).
  private let keysSourcedRecords: Bool
  /// Whether the session's id and user are kept (``sessionID``, ``sessionUser``).
  private let readsSession: Bool
  /// With `readsSession`: the last line's `context.session.id` and `.user` as written (JSON
  /// escapes not undone, see ``sessionEscaped``), `nil` when absent or `null`.
  package private(set) var sessionID: String?
  package private(set) var sessionUser: String?
  /// Whether the last line's session id or user holds a JSON escape (a `\`).
  package private(set) var sessionEscaped = false
  /// The session id and user of earlier lines, reused while a builder reads line after line of
  /// the same session (most lines of a recording) instead of building their strings again.
  private var knownID = KnownText()
  private var knownUser = KnownText()

  /// A builder; with `keysSourcedRecords`, records from `listen` get a key too (for readers whose
  /// result does not depend on the source, as a diff's); with `readsSession`, it also keeps the
  /// session's id and user, which the key leaves out (for checks that compare a record with the
  /// earlier ones of its session).
  package init(keysSourcedRecords: Bool = false, readsSession: Bool = false) {
    self.keysSourcedRecords = keysSourcedRecords
    self.readsSession = readsSession
  }

  /// Reads `bytes` with the one record decoder (specialized for this builder here, in its module):
  /// the key and `seq` of a record line without a `source`, else `nil`.
  package mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> (key: RecordContentKey, seq: UInt64)? {
    guard (try? RecordDecoder.decode(bytes, into: &self)) == .record, let key else { return nil }
    return (key, seq)
  }

  /// Whether the last line's record has a `source` (its bytes in ``sourceBytes``).
  package var hasSourceField: Bool { hasSource }

  /// The last line's key, `nil` for a record with a `source` (unless ``init(keysSourcedRecords:)``).
  package var key: RecordContentKey? { hasSource && !keysSourcedRecords ? nil : hasher.finish() }

  package mutating func reset() {
    seq = 0
    time = 0
    sessionID = nil
    sessionUser = nil
    sessionEscaped = false
    hasSource = false
    sourceBytes.removeAll(keepingCapacity: true)
    hasher = ContentHasher()
  }

  package mutating func unsigned(_ field: RecordField, _ value: UInt64) { seq = value }

  package mutating func timestamp(_ field: RecordField, _ milliseconds: Int64) {
    if field == .time { time = milliseconds }
  }

  package mutating func string(_ field: RecordField, _ bytes: UnsafeBufferPointer<UInt8>?) {
    switch field {
    case .source:
      hasSource = bytes != nil
      if let bytes { sourceBytes.append(contentsOf: bytes) }
    case .sessionID where readsSession:
      sessionID = bytes.map { knownID.text(of: $0, escaped: &sessionEscaped) }
    case .sessionUser where readsSession:
      sessionUser = bytes.map { knownUser.text(of: $0, escaped: &sessionEscaped) }
    default: break
    }
  }

  package mutating func extent(_ field: RecordField, _ bytes: UnsafeBufferPointer<UInt8>) {
    switch field {
    case .kind, .name, .properties, .outputs, .screen: hasher.add(field: field.rawValue, bytes)
    default: break
    }
  }
}

/// The last string a builder read for one field, as bytes and as text: the next line's string is
/// the same one when its bytes are.
private struct KnownText {
  var bytes: [UInt8] = []
  var text = ""
  var escaped = false

  /// The string of `value` as written, the known one when the bytes are the same; sets `escaped`
  /// when it holds a JSON escape (a `\\`).
  mutating func text(of value: UnsafeBufferPointer<UInt8>, escaped anyEscaped: inout Bool) -> String {
    // Compared as memory: the generic `elementsEqual` went byte by byte, per line.
    let same =
      bytes.count == value.count
      && bytes.withUnsafeBufferPointer { known in
        guard let left = known.baseAddress, let right = value.baseAddress else { return true }
        return memcmp(left, right, value.count) == 0
      }
    if !same {
      bytes.removeAll(keepingCapacity: true)
      bytes.append(contentsOf: value)
      text = String(decoding: value, as: UTF8.self)
      escaped = value.contains(UInt8(ascii: "\\"))
    }
    if escaped { anyEscaped = true }
    return text
  }
}

/// Two 64-bit multiply-rotate lanes over 8-byte words, finalised with a 64-bit avalanche: 128
/// bits, so distinct keys do not meet in practice (recordings are not adversarial; records from
/// the network, which carry a `source`, never use keys).
private struct ContentHasher {
  var low: UInt64 = 0x243F_6A88_85A3_08D3
  var high: UInt64 = 0x1319_8A2E_0370_7344

  mutating func add(field: UInt8, _ bytes: UnsafeBufferPointer<UInt8>) {
    mix(UInt64(field) << 56 | UInt64(bytes.count))
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    let raw = UnsafeRawPointer(base)
    let count = bytes.count
    var offset = 0
    while offset + 8 <= count {
      mix(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      offset += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while offset < count {
      tail |= UInt64(raw.load(fromByteOffset: offset, as: UInt8.self)) << shift
      shift += 8
      offset += 1
    }
    mix(tail)
  }

  mutating func mix(_ word: UInt64) {
    low = ((low ^ (word &* 0x87C3_7B91_1142_53D5)).rotated(31)) &* 0x4CF5_AD43_2745_937F
    high = ((high ^ (word &* 0x9E37_79B9_7F4A_7C15)).rotated(27)) &* 0xC2B2_AE3D_27D4_EB4F &+ low
  }

  func finish() -> RecordContentKey {
    RecordContentKey(low: Self.avalanche(low ^ high.rotated(17)), high: Self.avalanche(high &+ low))
  }

  static func avalanche(_ value: UInt64) -> UInt64 {
    var mixed = value
    mixed ^= mixed >> 33
    mixed &*= 0xFF51_AFD7_ED55_8CCD
    mixed ^= mixed >> 33
    mixed &*= 0xC4CE_B9FE_1A85_EC53
    mixed ^= mixed >> 33
    return mixed
  }
}

extension UInt64 {
  fileprivate func rotated(_ count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}
