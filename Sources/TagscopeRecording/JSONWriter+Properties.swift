import AnalyticsHub

extension JSONWriter {
  /// `"key":` for a field of the record schema.
  @inline(__always)
  mutating func key(_ field: RecordField, first: Bool = false) { key(field.name, first: first) }

  package mutating func value(_ value: PropertyValue) {
    switch value {
    case .string(let text): string(text)
    case .int(let number): int(Int64(number))
    case .largeInteger(let number):
      var digits = number.text
      digits.withUTF8 { raw(bytes: $0) }
    case .double(let number): double(number)
    case .bool(let flag): bool(flag)
    case .date(let date):
      timestamp(ISO8601Timestamp.milliseconds(seconds: date.timeIntervalSince1970, rounding: .down))
    case .array(let values):
      openArray()
      for (index, element) in values.enumerated() {
        self.element(first: index == 0)
        self.value(element)
      }
      closeArray()
    case .object(let properties): object(properties)
    case .null: raw("null")
    }
  }

  package mutating func object(_ properties: Properties) {
    openObject()
    for (index, element) in properties.enumerated() {
      key(element.key, first: index == 0)
      value(element.value)
    }
    closeObject()
  }

  /// Appends `extra`'s fields after fields already written (the object is open and non-empty).
  package mutating func extraFields(_ extra: Properties) {
    for (key, value) in extra {
      self.key(key, first: false)
      self.value(value)
    }
  }
}
