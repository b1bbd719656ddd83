/// What the key naming a value says about it, for the detectors that need a context: an
/// advertising id is a UUID under an advertising-id key, a lone coordinate is one under a latitude
/// or longitude key, a bare run of digits is a phone number only under a phone key.
///
/// A key is cut into words at punctuation and at camelCase humps (`advertisingIdentifier`,
/// `device_idfa`, `gps_adid`), lowercased, and the words are compared whole, so `payload_id` is
/// not `adid` and `along` is not `long`.
public struct PIIKeyContext: Sendable, Hashable {
  /// An advertising id key: a word idfa, gaid, aaid, adid, rdid, ifa or maid, or the words
  /// advertising/advertiser id/identifier, ad id/identifier, google aid/adid, gps adid, resettable
  /// device id (Firebase's own key for the IDFA/GAID, `resettable_device_id`).
  public var advertising = false
  /// A latitude key (lat, latitude).
  public var latitude = false
  /// A longitude key (lon, lng, long, longitude).
  public var longitude = false
  /// A phone key (phone, tel, telephone, mobile, msisdn, cell).
  public var phone = false
  /// A version or build key (version, ver, build): dotted numbers there are not IP addresses.
  public var version = false

  /// No context (a value whose key says nothing).
  public init() {}

  /// The context of the key `name`.
  public init(key name: String) {
    var name = name
    self = name.withUTF8 { PIIKeyContext(bytes: $0) }
  }

  /// The context of the key whose UTF-8 bytes are `bytes`.
  public init(bytes: UnsafeBufferPointer<UInt8>) {
    var previous: Word = .other
    var start = 0
    var index = 0
    let count = bytes.count
    while index <= count {
      let atEnd = index == count
      let byte = atEnd ? 0 : bytes[index]
      let alnum = PIIBytes.isAlnum(byte)
      let hump =
        !atEnd && index > start && PIIBytes.isUpper(byte) && PIIBytes.isLower(bytes[index - 1])
      if !alnum || hump {
        if index > start {
          let word = Word(UnsafeBufferPointer(rebasing: bytes[start..<index]))
          note(word, after: previous)
          previous = word == .device && previous == .resettable ? .resettableDevice : word
        }
        start = alnum ? index : index + 1
      }
      index += 1
    }
  }

  /// The words that matter, lowercased.
  private enum Word {
    case idfa, ad, id, advertising, identifier, google, gps, aid, adid, lat, lon, phone, version, other
    case resettable, device
    /// `device` right after `resettable`.
    case resettableDevice

    /// The word of `bytes`, compared lowercased without allocating: up to 16 bytes packed in two
    /// integers against ``table``.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
      guard bytes.count <= 16 else {
        self = .other
        return
      }
      let packed = Self.pack(bytes.lazy.map(PIIBytes.lower))
      self = Self.table.first { $0.0 == packed.0 && $0.1 == packed.1 }?.2 ?? .other
    }

    static func pack(_ bytes: some Sequence<UInt8>) -> (UInt64, UInt64) {
      var low: UInt64 = 0
      var high: UInt64 = 0
      for (index, byte) in bytes.enumerated() {
        if index < 8 {
          low |= UInt64(byte) << (8 * UInt64(index))
        } else {
          high |= UInt64(byte) << (8 * UInt64(index - 8))
        }
      }
      return (low, high)
    }

    static let table: [(UInt64, UInt64, Word)] = {
      let words: [(String, Word)] = [
        ("idfa", .idfa), ("gaid", .idfa), ("aaid", .idfa), ("ifa", .idfa), ("maid", .idfa),
        ("rdid", .idfa), ("advertisingid", .idfa), ("advertiserid", .idfa), ("advertiser", .advertising),
        ("resettable", .resettable), ("device", .device),
        ("ad", .ad), ("id", .id), ("advertising", .advertising), ("identifier", .identifier),
        ("google", .google),
        ("gps", .gps), ("aid", .aid), ("adid", .adid), ("lat", .lat), ("latitude", .lat), ("lon", .lon),
        ("lng", .lon), ("long", .lon), ("longitude", .lon), ("phone", .phone), ("tel", .phone),
        ("telephone", .phone), ("mobile", .phone), ("msisdn", .phone), ("cell", .phone),
        ("phonenumber", .phone),
        ("version", .version), ("ver", .version), ("build", .version),
      ]
      return words.map { word, kind in
        let packed = pack(Array(word.utf8))
        return (packed.0, packed.1, kind)
      }
    }()
  }

  private mutating func note(_ word: Word, after previous: Word) {
    switch word {
    case .idfa, .adid: advertising = true
    case .id, .identifier:
      if previous == .advertising || previous == .ad || previous == .resettableDevice { advertising = true }
    case .aid:
      if previous == .google { advertising = true }
    case .lat: latitude = true
    case .lon: longitude = true
    case .phone: phone = true
    case .version: version = true
    default: break
    }
  }
}

/// Byte classes the detectors share (ASCII only: personal data of these shapes is ASCII).
enum PIIBytes {
  @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
  @inline(__always) static func isUpper(_ byte: UInt8) -> Bool { byte &- 0x41 < 26 }
  @inline(__always) static func isLower(_ byte: UInt8) -> Bool { byte &- 0x61 < 26 }
  @inline(__always) static func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }
  @inline(__always) static func isAlnum(_ byte: UInt8) -> Bool { isDigit(byte) || isAlpha(byte) }
  @inline(__always) static func isHex(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte | 0x20) &- 0x61 < 6
  }
  @inline(__always) static func lower(_ byte: UInt8) -> UInt8 { isUpper(byte) ? byte | 0x20 : byte }
  /// A base64url character (`A-Z a-z 0-9 - _`).
  @inline(__always) static func isBase64URL(_ byte: UInt8) -> Bool {
    isAlnum(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
  }
}
