extension PIIScan {
  /// Advertising ids (IDFA, GAID): a UUID (8-4-4-4-12 hex digits, all uppercase as iOS prints an
  /// IDFA or all lowercase as Android prints a GAID; not the all-zero id a limited-tracking device
  /// reports) under an advertising-id key (``PIIKeyContext/advertising``) or right after one in the
  /// text (`idfa=…`, `"gaid":"…"`, `advertising_id: …`). Any other UUID (a message, insert,
  /// session or device id) is not one.
  mutating func findAdvertisingIDs() {
    var index = 0
    while index + 36 <= count {
      steps += 1
      guard PIIBytes.isHex(text[index]),
        index == 0 || !(PIIBytes.isAlnum(text[index - 1]) || text[index - 1] == UInt8(ascii: "-"))
      else {
        index += 1
        continue
      }
      if isUUID(at: index), !PIIBytes.isAlnum(at(index + 36)), at(index + 36) != UInt8(ascii: "-") {
        if key.advertising || advertisingKey(before: index) { add(.advertisingID, index..<(index + 36)) }
        index += 36
      } else {
        index += 1
      }
    }
  }

  /// Whether a uniformly cased, not all-zero UUID starts at `start`.
  func isUUID(at start: Int) -> Bool {
    var upper = false
    var lower = false
    var nonZero = false
    for offset in 0..<36 {
      let byte = text[start + offset]
      if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
        guard byte == UInt8(ascii: "-") else { return false }
        continue
      }
      guard PIIBytes.isHex(byte) else { return false }
      if PIIBytes.isUpper(byte) { upper = true }
      if PIIBytes.isLower(byte) { lower = true }
      if byte != UInt8(ascii: "0") { nonZero = true }
    }
    return nonZero && !(upper && lower)
  }

  /// Whether the text right before `start` names an advertising id: up to three of `=`, `:`,
  /// quotes and spaces (and the backslashes of escaped quotes, `{\"idfa\":\"…` in a JSON string
  /// held by a JSON string), then a key of up to 32 letters, digits, `_` and `-`.
  func advertisingKey(before start: Int) -> Bool {
    var end = start
    var skipped = 0
    while end > 0, skipped < 3,
      [UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: " ")]
        .contains(
          text[end - 1])
    {
      end -= 1
      skipped += 1
      var backslashes = 0
      while end > 0, backslashes < 8, text[end - 1] == UInt8(ascii: "\\") {
        end -= 1
        backslashes += 1
      }
    }
    guard skipped > 0 else { return false }
    var keyStart = end
    while keyStart > 0, end - keyStart < 32,
      PIIBytes.isAlnum(text[keyStart - 1]) || text[keyStart - 1] == UInt8(ascii: "_")
        || text[keyStart - 1] == UInt8(ascii: "-")
    {
      keyStart -= 1
    }
    guard keyStart < end else { return false }
    return PIIKeyContext(bytes: UnsafeBufferPointer(rebasing: text[keyStart..<end])).advertising
  }
}
