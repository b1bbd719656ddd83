/// An ordered collection of named ``PropertyValue``s with unique keys.
///
/// Order is the order of insertion (a dictionary literal keeps its source order), so recordings,
/// the terminal UI and provider calls show properties the way the app wrote them. Assigning an
/// existing key replaces its value in place.
public struct Properties: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
  /// One key and its value.
  public typealias Element = (key: String, value: PropertyValue)

  // Inlinable reads (the walks of other modules, the privacy check's first, iterate in place:
  // no call and no copy of each key and value per element).
  @usableFromInline private(set) var storage: [Element]

  /// Empty properties.
  public init() { storage = [] }

  /// Properties from key/value pairs; a later duplicate key replaces the earlier value.
  public init<S: Sequence>(_ pairs: S) where S.Element == (String, PropertyValue) {
    storage = []
    storage.reserveCapacity(pairs.underestimatedCount)
    merge(pairs)
  }

  /// Properties from an array of pairs, as the generic `init(_:)` does. The form decoders build:
  /// called from another module, the generic initializer runs unspecialized (each pair copied
  /// through the type's witnesses, its metadata looked up: 9% of decoding a Firebase upload);
  /// this one is compiled for arrays in this module.
  public init(_ pairs: [(String, PropertyValue)]) {
    storage = []
    storage.reserveCapacity(pairs.count)
    add(pairs)
  }

  public init(dictionaryLiteral elements: (String, PropertyValue)...) {
    self.init(elements)
  }

  @inlinable public var startIndex: Int { storage.startIndex }
  @inlinable public var endIndex: Int { storage.endIndex }
  @inlinable public subscript(position: Int) -> Element { storage[position] }

  /// The keys, in order.
  public var keys: [String] { storage.map(\.key) }

  /// The value for `key`, or `nil`; assigning `nil` removes the key.
  public subscript(key: String) -> PropertyValue? {
    get {
      for element in storage where element.key == key { return element.value }
      return nil
    }
    set {
      if let index = storage.firstIndex(where: { $0.key == key }) {
        if let newValue { storage[index].value = newValue } else { storage.remove(at: index) }
      } else if let newValue {
        storage.append((key, newValue))
      }
    }
  }

  /// Appends a pair without checking for an existing key; for decoders that already guarantee
  /// unique keys.
  public mutating func appendUnchecked(_ key: String, _ value: PropertyValue) {
    storage.append((key, value))
  }

  /// Makes room for `count` pairs in all, so that appending up to that many allocates once (a
  /// copy of shared storage then takes the room at once instead of growing it again).
  public mutating func reserveCapacity(_ count: Int) {
    storage.reserveCapacity(count)
  }

  /// These properties with `other`'s values added or replacing.
  public func merging(_ other: Properties) -> Properties {
    var merged = self
    merged.merge(other.lazy.map { ($0.key, $0.value) })
    return merged
  }

  /// Adds `pairs`, or replaces the values of keys already present, in time linear in their count
  /// however many keys repeat: a repeated key keeps its first position and takes its last value.
  /// The key index is sized once for the pairs' `underestimatedCount` (exact for an array): grown
  /// by doubling, it hashed every key again at each resize (a tenth of reading one Firebase log
  /// entry of 100,000 parameters, and more per key the larger the entry).
  public mutating func merge<S: Sequence>(_ pairs: S) where S.Element == (String, PropertyValue) {
    add(pairs)
  }

  /// The generic `merge(_:)` of an array of pairs, compiled for arrays in this module (see the
  /// initializer from an array).
  public mutating func merge(_ pairs: [(String, PropertyValue)]) {
    add(pairs)
  }

  /// What `merge(_:)` does, for both its forms.
  @inline(__always)
  private mutating func add<S: Sequence>(_ pairs: S) where S.Element == (String, PropertyValue) {
    var positions: [String: Int]?
    let incoming = pairs.underestimatedCount
    for (key, value) in pairs {
      if positions == nil && storage.count < Self.linearLimit {
        self[key] = value
        continue
      }
      if positions == nil { positions = firstPositions(reserving: storage.count + incoming) }
      if let position = positions![key] {
        storage[position].value = value
      } else {
        positions![key] = storage.count
        storage.append((key, value))
      }
    }
  }

  /// Replaces the value at `position` (an index into these properties), keeping its key.
  public mutating func replaceValue(at position: Int, with value: PropertyValue) {
    storage[position].value = value
  }

  /// Each key's position; what a decoder adding many keys looks repeated keys up in. `capacity`
  /// (at least the count) sizes the index for the keys still to come.
  public func firstPositions(reserving capacity: Int = 0) -> [String: Int] {
    var positions: [String: Int] = [:]
    positions.reserveCapacity(Swift.max(storage.count, capacity))
    for (position, element) in storage.enumerated() where positions[element.key] == nil {
      positions[element.key] = position
    }
    return positions
  }

  /// Up to this many keys, a linear search beats hashing.
  private static let linearLimit = 12

  /// The key path of the first value that JSON cannot represent (a non-finite number), if any.
  public var firstUnrepresentablePath: String? { firstUnrepresentablePath(prefix: "") }

  func firstUnrepresentablePath(prefix: String) -> String? {
    for (key, value) in storage {
      if let path = value.firstUnrepresentablePath(prefix: prefix + key) { return path }
    }
    return nil
  }

  /// Equal when the same keys hold equal values, in any order (order is kept for display and
  /// encoding, but `["a": 1, "b": 2] == ["b": 2, "a": 1]`).
  public static func == (lhs: Properties, rhs: Properties) -> Bool {
    guard lhs.storage.count == rhs.storage.count else { return false }
    // Same order (the usual case): one pass.
    if zip(lhs.storage, rhs.storage).allSatisfy({ $0.key == $1.key && $0.value == $1.value }) { return true }
    if lhs.storage.count <= linearLimit {
      return lhs.storage.allSatisfy { element in rhs[element.key] == element.value }
    }
    var values: [String: PropertyValue] = [:]
    values.reserveCapacity(rhs.storage.count)
    for (key, value) in rhs.storage { values[key] = value }
    return lhs.storage.allSatisfy { values[$0.key] == $0.value }
  }

  /// Independent of the order, like ``==(_:_:)``.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(storage.count)
    var entries = 0
    for (key, value) in storage {
      var entry = Hasher()
      entry.combine(key)
      entry.combine(value)
      entries = entries &+ entry.finalize()
    }
    hasher.combine(entries)
  }
}

extension Properties: CustomStringConvertible {
  public var description: String {
    "[" + storage.map { "\($0.key): \($0.value.displayText)" }.joined(separator: ", ") + "]"
  }
}
