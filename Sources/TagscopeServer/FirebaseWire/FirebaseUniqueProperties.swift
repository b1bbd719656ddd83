import AnalyticsHub

/// Properties a Firebase upload's record builds one pair at a time, as
/// ``FirebaseLogRecords/properties(_:)`` makes them from all its pairs at once (a repeated name
/// keeps its first place and takes its last value), without gathering the pairs in an array first:
/// made at the size asked, looked up by a linear search while small and by an index past
/// ``linearLimit`` keys, so a hostile event of many parameters costs time linear in their count.
struct FirebaseUniqueProperties {
  /// The properties built so far.
  private(set) var properties = Properties()
  /// Each key's place, once there are more than ``linearLimit`` keys.
  private var positions: [String: Int]?

  /// Up to this many keys, a linear search beats hashing (as `Properties` finds its keys).
  private static let linearLimit = 12

  /// Whether a key may come twice; when not (its caller knows them distinct), each pair is
  /// appended as it comes.
  private let checked: Bool

  /// Empty properties with room for `capacity` pairs (none allocated for `0`); `checked` `false`
  /// when no key will come twice.
  init(capacity: Int, checked: Bool = true) {
    self.checked = checked
    if capacity > 0 { properties.reserveCapacity(capacity) }
  }

  /// Sets `key` to `value`: in its place when it is there, else appended.
  mutating func set(_ key: String, _ value: PropertyValue) {
    guard checked else {
      properties.appendUnchecked(key, value)
      return
    }
    if positions == nil {
      if properties.count < Self.linearLimit {
        for position in properties.indices where properties[position].key == key {
          properties.replaceValue(at: position, with: value)
          return
        }
        properties.appendUnchecked(key, value)
        return
      }
      positions = properties.firstPositions(reserving: properties.count * 2)
    }
    if let position = positions?[key] {
      properties.replaceValue(at: position, with: value)
    } else {
      positions?[key] = properties.count
      properties.appendUnchecked(key, value)
    }
  }
}
