/// RFC 3492 punycode, to check `xn--` labels (they must decode, and re-encode to themselves) and
/// the A-label length of a non-ASCII label.
enum Punycode {
  private static let base = 36

  private static func adapt(_ delta: Int, _ count: Int, first: Bool) -> Int {
    var delta = first ? delta / 700 : delta / 2
    delta += delta / count
    var shift = 0
    while delta > ((base - 1) * 26) / 2 {
      delta /= base - 1
      shift += base
    }
    return shift + (base * delta) / (delta + 38)
  }

  private static func threshold(_ k: Int, _ bias: Int) -> Int {
    k <= bias ? 1 : (k >= bias + 26 ? 26 : k - bias)
  }

  /// The code points `label` (after `xn--`, ASCII) stands for; `nil` when it is not punycode.
  static func decode(_ label: [UInt8]) -> [UInt32]? {
    var output: [UInt32] = []
    var rest = label[...]
    if let delimiter = label.lastIndex(of: 45) {
      output = label[..<delimiter].map(UInt32.init)
      guard output.allSatisfy({ $0 < 0x80 }) else { return nil }
      rest = label[(delimiter + 1)...]
    }
    var code = 128
    var bias = 72
    var index = 0
    var position = rest.startIndex
    while position < rest.endIndex {
      let oldIndex = index
      var weight = 1
      var k = base
      while true {
        guard position < rest.endIndex else { return nil }
        let byte = rest[position] | 0x20
        position += 1
        let digit: Int
        if byte >= 97 && byte <= 122 {
          digit = Int(byte - 97)
        } else if byte >= 48 && byte <= 57 {
          digit = Int(byte - 48) + 26
        } else {
          return nil
        }
        let (product, overflow) = digit.multipliedReportingOverflow(by: weight)
        guard !overflow, index <= Int(Int32.max) - product else { return nil }
        index += product
        let t = threshold(k, bias)
        if digit < t { break }
        weight *= base - t
        guard weight < Int(Int32.max) else { return nil }
        k += base
      }
      let count = output.count + 1
      bias = adapt(index - oldIndex, count, first: oldIndex == 0)
      code += index / count
      index %= count
      guard code <= 0x10FFFF, !(0xD800...0xDFFF).contains(code) else { return nil }
      output.insert(UInt32(code), at: index)
      index += 1
    }
    return output
  }

  /// The punycode of `scalars` (without `xn--`), lower case; `nil` when it overflows.
  static func encode(_ scalars: [UInt32]) -> [UInt8]? {
    var output = scalars.filter { $0 < 0x80 }.map { UInt8($0) }
    let basic = output.count
    var handled = basic
    if basic > 0 { output.append(45) }
    var code = 128
    var delta = 0
    var bias = 72
    while handled < scalars.count {
      guard let next = scalars.lazy.map({ Int($0) }).filter({ $0 >= code }).min() else { return nil }
      let (step, overflow) = (next - code).multipliedReportingOverflow(by: handled + 1)
      guard !overflow, delta <= Int(Int32.max) - step else { return nil }
      delta += step
      code = next
      for scalar in scalars {
        let value = Int(scalar)
        if value < code { delta += 1 }
        guard value == code else { continue }
        var q = delta
        var k = base
        while true {
          let t = threshold(k, bias)
          if q < t { break }
          output.append(digit(t + (q - t) % (base - t)))
          q = (q - t) / (base - t)
          k += base
        }
        output.append(digit(q))
        bias = adapt(delta, handled + 1, first: handled == basic)
        delta = 0
        handled += 1
      }
      delta += 1
      code += 1
    }
    return output
  }

  private static func digit(_ value: Int) -> UInt8 {
    value < 26 ? UInt8(97 + value) : UInt8(48 + value - 26)
  }
}
