/// An ordered collection of named ``PropertyValue``s with unique keys.
///
/// Order is the order of insertion (a dictionary literal keeps its source order), so recordings,
/// the terminal UI and provider calls show properties the way the app wrote them. Assigning an
/// existing key replaces its value in place.
///
/// Properties made with ``init(extending:)`` share their first pairs with the properties they
/// extend (copy-on-write: changing or removing one of those pairs gives these properties their
/// own copy first), so many records of one context hold it once. Reading, iterating, comparing
/// and hashing see the same pairs in the same order either way.
public struct Properties: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
  /// One key and its value.
  public typealias Element = (key: String, value: PropertyValue)

  // Inlinable reads (the walks of other modules, the privacy check's first, iterate in place:
  // no call and no copy of each key and value per element).
  /// The first pairs, shared with the properties these extend (``init(extending:)``); never
  /// changed in place: changing one of them moves them all into ``storage`` first.
  @usableFromInline private(set) var shared: [Pair]
  /// The pairs after ``shared``: all of them unless these properties extend others.
  @usableFromInline private(set) var storage: [Pair]

  /// One stored pair: a struct, not the ``Element`` tuple, so that freeing an array of them runs
  /// one compiled destroy per pair (a tuple's went through the runtime's generic walk of its
  /// elements' metadata, a tenth of freeing a decoded upload's records).
  @usableFromInline struct Pair: Sendable {
    @usableFromInline var key: String
    @usableFromInline var value: PropertyValue

    @inlinable init(_ key: String, _ value: PropertyValue) {
      self.key = key
      self.value = value
    }
  }

  /// Empty properties.
  @inlinable public init() {
    shared = []
    storage = []
  }

  /// Properties from key/value pairs; a later duplicate key replaces the earlier value.
  public init<S: Sequence>(_ pairs: S) where S.Element == (String, PropertyValue) {
    shared = []
    storage = []
    storage.reserveCapacity(pairs.underestimatedCount)
    merge(pairs)
  }

  /// Properties from an array of pairs, as the generic `init(_:)` does. The form decoders build:
  /// called from another module, the generic initializer runs unspecialized (each pair copied
  /// through the type's witnesses, its metadata looked up: 9% of decoding a Firebase upload);
  /// this one is compiled for arrays in this module.
  public init(_ pairs: [(String, PropertyValue)]) {
    shared = []
    storage = []
    storage.reserveCapacity(pairs.count)
    add(pairs)
  }

  public init(dictionaryLiteral elements: (String, PropertyValue)...) {
    self.init(elements)
  }

  /// Properties that start with `base`'s pairs, in its order, without copying them: they share
  /// their storage with `base` and with every other properties extending it, until these
  /// properties change or remove one of them. Pairs added afterwards (``appendUnchecked(_:_:)``,
  /// a new key's assignment) are these properties' own. What a decoder gives each of many
  /// records that carry the same context: each record holds its own pairs, the context once.
  @inlinable public init(extending base: Properties) {
    if base.storage.isEmpty {
      shared = base.shared
    } else if base.shared.isEmpty {
      shared = base.storage
    } else {
      shared = base.shared + base.storage
    }
    storage = []
  }

  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { shared.count + storage.count }
  @inlinable public subscript(position: Int) -> Element {
    let sharedCount = shared.count
    let pair = position < sharedCount ? shared[position] : storage[position - sharedCount]
    return (pair.key, pair.value)
  }

  /// The keys, in order.
  public var keys: [String] { map(\.key) }

  /// The value for `key`, or `nil`; assigning `nil` removes the key.
  public subscript(key: String) -> PropertyValue? {
    get {
      // Lengths first: most keys differ in theirs, and comparing two texts is a call.
      let length = key.utf8.count
      for element in shared where element.key.utf8.count == length && element.key == key {
        return element.value
      }
      for element in storage where element.key.utf8.count == length && element.key == key {
        return element.value
      }
      return nil
    }
    set {
      if let index = ownIndex(of: key) {
        if let newValue { storage[index].value = newValue } else { storage.remove(at: index) }
      } else if let newValue {
        storage.append(Pair(key, newValue))
      }
    }
  }

  /// The position of `key` in ``storage``, its shared pairs made these properties' own first
  /// when it is one of them; `nil` when the key is absent (the shared pairs then stay shared).
  private mutating func ownIndex(of key: String) -> Int? {
    if shared.contains(where: { $0.key == key }) { makeOwn() }
    return storage.firstIndex { $0.key == key }
  }

  /// Moves the shared pairs into ``storage``, before the pairs already there.
  private mutating func makeOwn() {
    guard !shared.isEmpty else { return }
    var own: [Pair] = []
    own.reserveCapacity(shared.count + storage.capacity)
    own.append(contentsOf: shared)
    own.append(contentsOf: storage)
    storage = own
    shared = []
  }

  /// Appends a pair without checking for an existing key; for decoders that already guarantee
  /// unique keys. Inlinable, as the other small writes a decoder makes per pair: called across
  /// modules it was a call per pair, a tenth of building a Firebase upload's records.
  @inlinable public mutating func appendUnchecked(_ key: String, _ value: PropertyValue) {
    storage.append(Pair(key, value))
  }

  /// Makes room for `count` pairs in all, so that appending up to that many allocates once (a
  /// copy of shared storage then takes the room at once instead of growing it again). Pairs
  /// shared through ``init(extending:)`` stay shared: the room is for the pairs after them.
  @inlinable public mutating func reserveCapacity(_ count: Int) {
    storage.reserveCapacity(Swift.max(0, count - shared.count))
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
      if positions == nil && count < Self.linearLimit {
        self[key] = value
        continue
      }
      if positions == nil {
        // Positions index the pairs in one array: shared ones are made own before.
        makeOwn()
        positions = firstPositions(reserving: storage.count + incoming)
      }
      if let position = positions![key] {
        storage[position].value = value
      } else {
        positions![key] = storage.count
        storage.append(Pair(key, value))
      }
    }
  }

  /// Replaces the value at `position` (an index into these properties), keeping its key.
  public mutating func replaceValue(at position: Int, with value: PropertyValue) {
    if position < shared.count { makeOwn() }
    storage[position - shared.count].value = value
  }

  /// Each key's position; what a decoder adding many keys looks repeated keys up in. `capacity`
  /// (at least the count) sizes the index for the keys still to come.
  public func firstPositions(reserving capacity: Int = 0) -> [String: Int] {
    var positions: [String: Int] = [:]
    positions.reserveCapacity(Swift.max(count, capacity))
    for (position, element) in enumerated() where positions[element.key] == nil {
      positions[element.key] = position
    }
    return positions
  }

  /// Up to this many keys, a linear search beats hashing.
  private static let linearLimit = 12

  /// The key path of the first value that JSON cannot represent (a non-finite number), if any.
  public var firstUnrepresentablePath: String? { firstUnrepresentablePath(prefix: "") }

  func firstUnrepresentablePath(prefix: String) -> String? {
    for (key, value) in self {
      if let path = value.firstUnrepresentablePath(prefix: prefix + key) { return path }
    }
    return nil
  }

  /// Equal when the same keys hold equal values, in any order (order is kept for display and
  /// encoding, but `["a": 1, "b": 2] == ["b": 2, "a": 1]`).
  public static func == (lhs: Properties, rhs: Properties) -> Bool {
    guard lhs.count == rhs.count else { return false }
    // Same order (the usual case): one pass.
    if zip(lhs, rhs).allSatisfy({ $0.key == $1.key && $0.value == $1.value }) { return true }
    if lhs.count <= linearLimit {
      return lhs.allSatisfy { element in rhs[element.key] == element.value }
    }
    var values: [String: PropertyValue] = [:]
    values.reserveCapacity(rhs.count)
    for (key, value) in rhs { values[key] = value }
    return lhs.allSatisfy { values[$0.key] == $0.value }
  }

  /// Independent of the order, like ``==(_:_:)``.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    var entries = 0
    for (key, value) in self {
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
    "[" + map { "\($0.key): \($0.value.displayText)" }.joined(separator: ", ") + "]"
  }
}
