/// A run of digits with short separators between them (`+33 6 12 34 56 78`, `4111-1111-1111-1111`,
/// `192.168.1.20`, `(212) 555-0143`), read once: its digits and its shape, each group of digits
/// written as its length (`(3) 3-4`, `4-4-4-4`, `3.3.1.2`).
struct NumberRun {
  var range = 0..<0
  var plus = false
  var digits: [UInt8] = []
  var groups: [Int] = []
  /// The run with each group of digits replaced by its length as one byte (`(`, `)`, separators kept).
  var shape: [UInt8] = []

  mutating func reset(at start: Int) {
    range = start..<start
    plus = false
    digits.removeAll(keepingCapacity: true)
    groups.removeAll(keepingCapacity: true)
    shape.removeAll(keepingCapacity: true)
  }

  /// The separators between groups, `nil` when the run has parentheses or mixed separators.
  var uniformSeparator: UInt8? {
    var found: UInt8?
    var index = 0
    while index < shape.count {
      let byte = shape[index]
      if byte >= 32 {
        if byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")") { return nil }
        if let seen = found, seen != byte { return nil }
        found = byte
      }
      index += 1
    }
    return found
  }

  /// Whether the shape is `pattern`, written with digits for group lengths (`"(3) 3-4"`).
  func shaped(_ pattern: String) -> Bool {
    var index = 0
    for byte in pattern.utf8 {
      guard index < shape.count else { return false }
      let expected = PIIBytes.isDigit(byte) ? byte - UInt8(ascii: "0") : byte
      guard shape[index] == expected else { return false }
      index += 1
    }
    return index == shape.count
  }
}

extension PIIScan {
  static func isRunSeparator(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
      || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "/")
  }

  /// Whether a run may start after `byte`: not inside a word, a number, a path or an amount.
  static func isRunBoundary(before byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "/"), UInt8(ascii: "+"),
      UInt8(ascii: "@"), UInt8(ascii: "#"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "%"),
      UInt8(ascii: "$"), UInt8(ascii: "="), UInt8(ascii: "&"):
      return false
    default:
      return !PIIBytes.isAlnum(byte) && byte < 0x80
    }
  }

  /// Card numbers, phone numbers and IPv4 addresses: each maximal run of digits and short
  /// separators starting at a boundary is read once and judged whole; scanning goes on after it.
  mutating func findNumberRuns(kinds: PIIKinds) {
    var run = NumberRun()
    var index = 0
    while index < count {
      steps += 1
      let byte = text[index]
      let startsRun =
        PIIBytes.isDigit(byte)
        || ((byte == UInt8(ascii: "+") || byte == UInt8(ascii: "(")) && PIIBytes.isDigit(at(index + 1)))
      guard startsRun, index == 0 || Self.isRunBoundary(before: text[index - 1]) else {
        index += 1
        continue
      }
      let end = readRun(from: index, into: &run)
      judge(run, kinds: kinds)
      index = max(end, index + 1)
      // The rest of a word or number the run stopped inside is no run's start.
      while index < count, PIIBytes.isAlnum(text[index]) || text[index] == UInt8(ascii: ".") {
        index += 1
        steps += 1
      }
    }
  }

  /// Reads the run starting at `start` into `run`, its range ending at its last digit; returns
  /// where reading stopped. Between two groups: one separator, or `) ` / ` (`.
  mutating func readRun(from start: Int, into run: inout NumberRun) -> Int {
    run.reset(at: start)
    var index = start
    var group = 0
    var gap = 0
    var lastDigit = start
    var shapeAtLastDigit = 0
    while index < count {
      steps += 1
      let byte = text[index]
      if PIIBytes.isDigit(byte) {
        run.digits.append(byte)
        group += 1
        gap = 0
        lastDigit = index
      } else if byte == UInt8(ascii: "+"), index == start {
        run.plus = true
      } else if Self.isRunSeparator(byte), gap < 2 {
        if group > 0 {
          run.groups.append(group)
          run.shape.append(UInt8(min(group, 31)))
          shapeAtLastDigit = run.shape.count
          group = 0
        }
        gap += 1
        run.shape.append(byte)
      } else {
        break
      }
      index += 1
      if run.digits.count > 24 { break }
    }
    if group > 0 {
      run.groups.append(group)
      run.shape.append(UInt8(min(group, 31)))
      shapeAtLastDigit = run.shape.count
    }
    run.shape.removeSubrange(shapeAtLastDigit...)
    run.range = start..<(lastDigit + 1)
    return index
  }

  /// Whether what follows `end` lets a number end there: not a word, a time's colon, a percentage,
  /// an address's `@` or a decimal part (`,5`); `colon` allows `:` (an address's port).
  func endsNumber(at end: Int, colon: Bool = false) -> Bool {
    let next = at(end)
    if PIIBytes.isAlnum(next) || next == UInt8(ascii: "_") || next == UInt8(ascii: "%")
      || next == UInt8(ascii: "@")
    {
      return false
    }
    if next == UInt8(ascii: ":") { return colon }
    if next == UInt8(ascii: ",") || next == UInt8(ascii: "."), PIIBytes.isDigit(at(end + 1)) { return false }
    return true
  }

  /// Adds the run as a card number, an IPv4 address or a phone number, the first it is.
  mutating func judge(_ run: NumberRun, kinds: PIIKinds) {
    guard run.digits.count >= 4 else { return }
    if kinds.contains(.card), endsNumber(at: run.range.upperBound), isCardNumber(run) {
      add(.card, run.range)
    } else if kinds.contains(.ip), !key.version, endsNumber(at: run.range.upperBound, colon: true),
      isIPv4(run)
    {
      add(.ip, run.range)
    } else if kinds.contains(.phone), endsNumber(at: run.range.upperBound), isPhoneNumber(run) {
      add(.phone, run.range)
    }
  }

  /// 13 to 19 digits, unseparated or in groups of 3 to 6 split by one kind of space or hyphen,
  /// of a card range and length (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay), not
  /// one repeated digit, Luhn-valid.
  func isCardNumber(_ run: NumberRun) -> Bool {
    let digits = run.digits
    guard !run.plus, digits.count >= 13, digits.count <= 19, run.shape.first != UInt8(ascii: "(") else {
      return false
    }
    if run.groups.count > 1 {
      guard let separator = run.uniformSeparator,
        separator == UInt8(ascii: " ") || separator == UInt8(ascii: "-"),
        run.groups.allSatisfy({ $0 >= 3 && $0 <= 6 })
      else { return false }
    }
    guard digits.contains(where: { $0 != digits[0] }), Self.cardRange(digits) else { return false }
    return Self.luhn(digits)
  }

  /// Whether the digits start a known card range with a length that range issues.
  static func cardRange(_ digits: [UInt8]) -> Bool {
    func prefix(_ length: Int) -> Int {
      digits.prefix(length).reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
    let length = digits.count
    let two = prefix(2)
    let four = prefix(4)
    let three = prefix(3)
    switch digits[0] {
    case UInt8(ascii: "4"): return length == 13 || length == 16 || length == 19  // Visa
    case UInt8(ascii: "5"): return (51...55).contains(two) && length == 16  // Mastercard
    case UInt8(ascii: "2"): return (2221...2720).contains(four) && length == 16  // Mastercard 2-series
    case UInt8(ascii: "3"):
      if two == 34 || two == 37 { return length == 15 }  // Amex
      if (3528...3589).contains(four) { return length >= 16 }  // JCB
      if two == 36 || two == 38 || two == 39 || (300...305).contains(three) { return length >= 14 }  // Diners
      return false
    case UInt8(ascii: "6"):
      if four == 6011 || two == 65 || (644...649).contains(three) || two == 62 { return length >= 16 }
      return false
    default: return false
    }
  }

  /// The Luhn check digit test.
  static func luhn(_ digits: [UInt8]) -> Bool {
    var sum = 0
    var double = false
    for digit in digits.reversed() {
      var value = Int(digit - UInt8(ascii: "0"))
      if double {
        value *= 2
        if value > 9 { value -= 9 }
      }
      sum += value
      double.toggle()
    }
    return sum % 10 == 0
  }

  /// Four dotted numbers of 0 to 255 without leading zeros; not 0.0.0.0, 127.x.x.x (loopback) or
  /// 255.255.255.255.
  func isIPv4(_ run: NumberRun) -> Bool {
    guard !run.plus, run.groups.count == 4, run.uniformSeparator == UInt8(ascii: "."),
      run.groups.allSatisfy({ $0 <= 3 })
    else { return false }
    var octets: [Int] = []
    var offset = 0
    for length in run.groups {
      let digits = run.digits[offset..<(offset + length)]
      if length > 1, digits.first == UInt8(ascii: "0") { return false }
      let value = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
      guard value <= 255 else { return false }
      octets.append(value)
      offset += length
    }
    return octets != [0, 0, 0, 0] && octets[0] != 127 && octets != [255, 255, 255, 255]
  }

  /// E.164 (`+` then 8 to 15 digits, the first not 0); North American (`(212) 555-0143`,
  /// `212-555-0143`, `212.555.0143`, `1-212-555-0143`: area and exchange starting 2 to 9, always
  /// separated); national with a trunk 0 (`06 12 34 56 78`, `020 7946 0958`, `030/12345678`,
  /// `090-1234-5678`: 10 to 12 digits starting 0 then 1 to 9, in two or more groups split by one
  /// kind of separator, the first of 2 to 5 digits, the others of 2 to 8); under a phone key, any
  /// 8 to 15 digits. Dates, times, prices, versions and counters have none of these shapes.
  func isPhoneNumber(_ run: NumberRun) -> Bool {
    let digits = run.digits
    if run.plus { return digits.count >= 8 && digits.count <= 15 && digits[0] != UInt8(ascii: "0") }
    if key.phone, digits.count >= 8, digits.count <= 15 { return true }
    if digits.count == 10 || (digits.count == 11 && digits[0] == UInt8(ascii: "1")), isNorthAmerican(run) {
      return true
    }
    guard digits.count >= 10, digits.count <= 12, digits[0] == UInt8(ascii: "0"),
      digits[1] != UInt8(ascii: "0"),
      run.groups.count >= 2, let separator = run.uniformSeparator, separator != UInt8(ascii: "(")
    else { return false }
    return (2...5).contains(run.groups[0]) && run.groups.dropFirst().allSatisfy { (2...8).contains($0) }
  }

  func isNorthAmerican(_ run: NumberRun) -> Bool {
    let national = run.digits.count == 11 ? Array(run.digits.dropFirst()) : run.digits
    guard national[0] >= UInt8(ascii: "2"), national[3] >= UInt8(ascii: "2") else { return false }
    let shapes = ["(3) 3-4", "(3)3-4", "(3) 3 4", "(3) 3.4", "3-3-4", "3.3.4", "3 3 4"]
    let prefixes = run.digits.count == 11 ? ["1-", "1 ", "1.", "1 "] : [""]
    for prefix in prefixes {
      for shape in shapes where run.shaped(prefix + shape) { return true }
    }
    return false
  }
}
