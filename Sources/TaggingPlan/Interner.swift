/// Equal values kept once: the value first given is handed back for every equal one after it, so
/// they share its storage. A draft or profile of a million tags repeats a few property shapes,
/// screen sets and method sets, each otherwise a dictionary or set of its own.
package struct Interner<Value: Hashable & Sendable>: Sendable {
  private var known: Set<Value> = []

  package init() {}

  /// `value`, or the equal value given before it.
  package mutating func intern(_ value: Value) -> Value { known.insert(value).memberAfterInsert }

  /// `set` with `element` added, sharing the storage of an equal set given before; `set` as it is
  /// (not copied) when it has `element` already.
  package mutating func inserting<Element>(_ element: Element, into set: inout Set<Element>)
  where Value == Set<Element> {
    guard !set.contains(element) else { return }
    var grown = set
    grown.insert(element)
    set = intern(grown)
  }
}
