/// Decodes base64 in either alphabet (standard `+/` or URL-safe `-_`), padding optional, as the
/// SDKs send it (Snowplow's `ue_px`/`cx`, Mixpanel's and PostHog's `data=`).
enum Base64 {
  /// The decoded bytes, or `nil` when `text` is not base64.
  static func decode(_ text: some StringProtocol) -> [UInt8]? {
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count * 3 / 4)
    var accumulator: UInt32 = 0
    var bits = 0
    var sawPadding = false
    for byte in text.utf8 {
      let value: UInt32
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(byte - UInt8(ascii: "A"))
      case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(byte - UInt8(ascii: "a") + 26)
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0") + 52)
      case UInt8(ascii: "+"), UInt8(ascii: "-"): value = 62
      case UInt8(ascii: "/"), UInt8(ascii: "_"): value = 63
      case UInt8(ascii: "="):
        sawPadding = true
        continue
      case 0x0A, 0x0D, 0x20: continue
      default: return nil
      }
      if sawPadding { return nil }
      accumulator = accumulator << 6 | value
      bits += 6
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
      }
    }
    if bits >= 6 { return nil }
    return output
  }
}
