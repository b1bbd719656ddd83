import AnalyticsHub

/// An event of a Firebase upload decoded by SwiftProtobuf (one the wire walk leaves), as its record
/// reads it: the fields of the schema's `Event`.
struct FirebaseEventFields: Sendable {
  var name = ""
  var timestampMillis: Int64?
  var previousTimestampMillis: Int64?
  var parameters: [FirebaseParameterFields] = []

  /// Its parameters as its record takes them: each one's name and value.
  var parameterValues: [FirebaseParameterValue] {
    parameters.map { FirebaseParameterValue(name: $0.name, value: $0.value) }
  }

  /// The fields of a decoded `event`.
  init(_ event: Tagscope_Firebase_Event) {
    name = event.name
    timestampMillis = event.hasTimestampMillis ? event.timestampMillis : nil
    previousTimestampMillis = event.hasPreviousTimestampMillis ? event.previousTimestampMillis : nil
    parameters = event.param.map(FirebaseParameterFields.init)
  }
}

/// An event's fields but its parameters, as the record of an event read straight from the wire
/// takes them (its parameters apart, ``FirebaseParameterValue``).
struct FirebaseEventHeader: Sendable {
  private(set) var name = ""
  /// The name packed into one word (``FirebaseNameWord``), `0` when it does not fit.
  private(set) var word: UInt64 = 0
  var timestampMillis: Int64?
  var previousTimestampMillis: Int64?

  init() {}

  /// The fields of `event` but its parameters.
  init(_ event: FirebaseEventFields) {
    setName(event.name, word: FirebaseNameWord.of(event.name))
    timestampMillis = event.timestampMillis
    previousTimestampMillis = event.previousTimestampMillis
  }

  /// Sets its name, read as `word` (``FirebaseNameWord/of(_:)-(String)`` of it).
  mutating func setName(_ name: String, word: UInt64) {
    self.name = name
    self.word = word
  }
}

/// An event parameter as its record takes it: its name, and its value (``FirebaseParameterFields/value``).
struct FirebaseParameterValue: Sendable {
  let name: String
  /// The name packed into one word (``FirebaseNameWord``), `0` when it does not fit.
  let word: UInt64
  var value: PropertyValue

  /// The parameter `name` with `value`.
  init(name: String, value: PropertyValue) {
    self.init(name: name, word: FirebaseNameWord.of(name), value: value)
  }

  /// The parameter `name`, packed as `word`, with `value`.
  init(name: String, word: UInt64, value: PropertyValue) {
    self.name = name
    self.word = word
    self.value = value
  }

  /// Whether no two of `parameters` have the same name: told apart by their words, the text
  /// compared only between names that have none; `false` past 16 parameters (not checked).
  static func namesAreDistinct(_ parameters: [FirebaseParameterValue]) -> Bool {
    guard parameters.count <= 16 else { return false }
    for later in parameters.indices.dropFirst() {
      let word = parameters[later].word
      for earlier in 0..<later where parameters[earlier].word == word {
        if word != 0 || parameters[earlier].name == parameters[later].name { return false }
      }
    }
    return true
  }

  /// What an array holds in a parameter's place once it is moved out: no name, no value.
  static var taken: Self { Self(name: "", word: 0, value: .null) }

  /// Whether it is one of the SDK's own parameters (`_o`, `_sc`…): its name starts with `_`.
  var isShort: Bool {
    word != 0 ? word & 0xFF == UInt64(UInt8(ascii: "_")) : name.utf8.first == UInt8(ascii: "_")
  }
}

/// The value a parameter or user property sets, whichever kinds it sets: text first, then an
/// integer, a double, a float (as SwiftProtobuf's decoded message and the debug log give it).
enum FirebaseScalar {
  /// The value set, `nil` when none is.
  @inline(__always)
  static func value(string: String?, int: Int64?, double: Double?, float: Float?) -> PropertyValue? {
    if let string { return .string(string) }
    if let int { return .int(Int(int)) }
    if let double { return FirebaseUploadRecords.number(double) }
    if let float { return FirebaseUploadRecords.number(Double(float)) }
    return nil
  }
}

/// An event parameter (or an item of one) with the values it sets.
struct FirebaseParameterFields: Sendable {
  var name = ""
  var string: String?
  var int: Int64?
  var float: Float?
  var double: Double?
  var nested: [FirebaseParameterFields] = []

  init() {}

  /// The fields of a decoded `parameter`.
  init(_ parameter: Tagscope_Firebase_EventParameter) {
    name = parameter.name
    string = parameter.hasStringValue ? parameter.stringValue : nil
    int = parameter.hasIntValue ? parameter.intValue : nil
    float = parameter.hasFloatValue ? parameter.floatValue : nil
    double = parameter.hasDoubleValue ? parameter.doubleValue : nil
    nested = parameter.nested.map(FirebaseParameterFields.init)
  }

  /// Its value: text, integer, number, or its items (each an object of its parameters).
  var value: PropertyValue {
    if let value = FirebaseScalar.value(string: string, int: int, double: double, float: float) {
      return value
    }
    guard !nested.isEmpty else { return .null }
    return .array(
      nested.map { item in
        guard !item.nested.isEmpty else { return item.value }
        return .object(FirebaseLogRecords.properties(item.nested.map { ($0.name, $0.value) }))
      })
  }
}

/// A user property of a Firebase upload as its record and the bundle's identity read it.
struct FirebasePropertyFields: Sendable {
  private(set) var name = ""
  /// The name packed into one word (``FirebaseNameWord``), `0` when it does not fit.
  private(set) var word: UInt64 = 0
  var setTimestampMillis: Int64?
  var string: String?
  var int: Int64?
  var float: Float?
  var double: Double?

  init() {}

  /// The fields of a decoded `property`.
  init(_ property: Tagscope_Firebase_UserProperty) {
    setName(property.name, word: FirebaseNameWord.of(property.name))
    setTimestampMillis = property.hasSetTimestampMillis ? property.setTimestampMillis : nil
    string = property.hasStringValue ? property.stringValue : nil
    int = property.hasIntValue ? property.intValue : nil
    float = property.hasFloatValue ? property.floatValue : nil
    double = property.hasDoubleValue ? property.doubleValue : nil
  }

  /// Sets its name, read as `word` (``FirebaseNameWord/of(_:)-(String)`` of it).
  mutating func setName(_ name: String, word: UInt64) {
    self.name = name
    self.word = word
  }

  /// Its value: text, integer or number.
  var value: PropertyValue {
    FirebaseScalar.value(string: string, int: int, double: double, float: float) ?? .null
  }

  /// Its value as an identity's text: set text, or an integer's digits.
  var text: String? {
    if let string { return DeviceIdentity.present(string) }
    if let int { return String(int) }
    return nil
  }
}
