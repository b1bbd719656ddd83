import AnalyticsHub

/// An estimate of the size in bytes of values written as compact JSON, computed without encoding
/// them (for payload limits such as Segment's 32 KB per message): text is counted exactly (escapes
/// aside), numbers and dates by their typical width.
package enum JSONSize {
  package static func of(_ properties: Properties) -> Int {
    var size = 2
    for (key, value) in properties { size += key.utf8.count + 4 + of(value) }
    return size
  }

  package static func of(_ value: PropertyValue) -> Int {
    switch value {
    case .string(let text): return text.utf8.count + 2
    case .int(let number): return number < 0 ? 20 : (number < 100_000 ? 5 : 19)
    case .largeInteger(let number): return number.text.utf8.count
    case .double: return 24
    case .bool(let flag): return flag ? 4 : 5
    case .date: return 26
    case .array(let values): return values.reduce(2) { $0 + of($1) + 1 }
    case .object(let properties): return of(properties)
    case .null: return 4
    }
  }
}
