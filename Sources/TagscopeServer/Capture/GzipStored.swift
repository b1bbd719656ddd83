/// A gzip stream (RFC 1952) of deflate's stored blocks (RFC 1951 §3.2.4): the bytes as they are,
/// which every gunzip reads, for a request a HAR export writes gzip'd as its SDK sends it.
enum GzipStored {
  /// `bytes` gzip'd without compression.
  static func gzip(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]
    var start = 0
    repeat {
      let end = min(start + 0xffff, bytes.count)
      let length = UInt16(end - start)
      out.append(end == bytes.count ? 1 : 0)
      out += [UInt8(length & 0xff), UInt8(length >> 8), UInt8(~length & 0xff), UInt8(~length >> 8)]
      out += bytes[start..<end]
      start = end
    } while start < bytes.count
    out += littleEndian(crc32(bytes)) + littleEndian(UInt32(truncatingIfNeeded: bytes.count))
    return out
  }

  private static func littleEndian(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }

  /// The CRC-32 of `bytes` (ISO 3309, as gzip's trailer holds it).
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xffff_ffff
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
    }
    return ~crc
  }
}
