/// Where the records of one bundle of a Firebase upload are, as their `place` annotation and the
/// problems found in them name it: `bundle 2 event 5`, `bundle 1 user property 3`. The places of
/// the first records of an upload's first bundles (nearly every upload's) are made once and shared
/// by every upload: made a record at a time, each was an allocation, and freeing it another.
struct FirebaseRecordPlaces: Sendable {
  private let bundle: Int
  private let made: Made?

  /// The places made once: of ``madeBundles`` bundles, ``madeNumbers`` events and as many user
  /// properties each.
  private struct Made: Sendable {
    var events: [String]
    var properties: [String]
  }

  static let madeBundles = 4
  static let madeNumbers = 64
  private static let madeOnce: [Made] = (1...madeBundles).map { bundle in
    let places = FirebaseRecordPlaces(bundle: bundle, made: nil)
    return Made(
      events: (1...madeNumbers).map { places.event($0) },
      properties: (1...madeNumbers).map { places.property($0) })
  }

  /// The places of bundle `bundle` (numbered from 1).
  init(bundle: Int) {
    self.init(bundle: bundle, made: (1...Self.madeBundles).contains(bundle) ? Self.madeOnce[bundle - 1] : nil)
  }

  private init(bundle: Int, made: Made?) {
    self.bundle = bundle
    self.made = made
  }

  /// The place of the bundle's event `number` (numbered from 1).
  func event(_ number: Int) -> String {
    if let made, (1...Self.madeNumbers).contains(number) { return made.events[number - 1] }
    return Self.place("bundle \(bundle) event ", number)
  }

  /// The place of the bundle's user property `number` (numbered from 1).
  func property(_ number: Int) -> String {
    if let made, (1...Self.madeNumbers).contains(number) { return made.properties[number - 1] }
    return Self.place("bundle \(bundle) user property ", number)
  }

  /// A place: `prefix` (`bundle 2 event `) and `number`'s digits, made at its size at once
  /// (appending the digits to a copy of the prefix grew the text again, a record at a time).
  static func place(_ prefix: String, _ number: Int) -> String {
    guard number >= 0 else { return prefix + String(number) }
    var digits = 1
    var rest = number / 10
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    var prefix = prefix
    return prefix.withUTF8 { head in
      String(unsafeUninitializedCapacity: head.count + digits) { text in
        _ = text.initialize(fromContentsOf: head)
        var rest = number.magnitude
        for at in stride(from: head.count + digits - 1, through: head.count, by: -1) {
          text[at] = UInt8(ascii: "0") + UInt8(rest % 10)
          rest /= 10
        }
        return head.count + digits
      }
    }
  }
}
