/// gzip and zlib streams of deflate's stored (uncompressed) blocks, made in process: valid input for
/// any inflater, so a fuzzing pass can compress every mutated body without running `gzip`.
enum StoredDeflate {
  /// `bytes` as a gzip member (RFC 1952): header, stored blocks, CRC-32, size.
  static func gzip(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0xFF]
    out += blocks(bytes)
    out += littleEndian(crc32(bytes)) + littleEndian(UInt32(truncatingIfNeeded: bytes.count))
    return out
  }

  /// `bytes` as a zlib stream (RFC 1950): header, stored blocks, Adler-32.
  static func zlib(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    out += blocks(bytes)
    let adler = adler32(bytes)
    out += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
    return out
  }

  /// Stored blocks of at most 65,535 bytes, the last one final (RFC 1951, 3.2.4).
  private static func blocks(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var start = 0
    repeat {
      let end = min(bytes.count, start + 65_535)
      let length = UInt16(end - start)
      out.append(end == bytes.count ? 1 : 0)
      out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
      out += bytes[start..<end]
      start = end
    } while start < bytes.count
    return out
  }

  private static func littleEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
  }

  private static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 != 0 ? crc >> 1 ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  private static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var (a, b): (UInt32, UInt32) = (1, 0)
    for byte in bytes {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    return b << 16 | a
  }
}
