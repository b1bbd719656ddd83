import Foundation

/// Decodes base64 in either alphabet (standard `+/` or URL-safe `-_`), padding optional, line
/// breaks and spaces ignored, as the SDKs send it (Snowplow's `ue_px`/`cx`, Mixpanel's and
/// PostHog's `data=`): the URL-safe alphabet is mapped to the standard one, then Foundation decodes.
enum Base64 {
  /// The decoded bytes, or `nil` when `text` is not base64.
  static func decode(_ text: some StringProtocol) -> [UInt8]? {
    var standard: [UInt8] = []
    standard.reserveCapacity(text.utf8.count + 3)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
      case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
      case 0x0A, 0x0D, 0x20: continue
      default: standard.append(byte)
      }
    }
    if standard.count % 4 != 0, !standard.contains(UInt8(ascii: "=")) {
      standard.append(contentsOf: repeatElement(UInt8(ascii: "="), count: 4 - standard.count % 4))
    }
    return Data(base64Encoded: Data(standard)).map(Array.init)
  }
}
