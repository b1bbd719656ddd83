/// Equal values kept once, each by a small id (its index): the names, sets and types that a diff's
/// profile or a drafted plan repeats across a million tags.
package struct IDTable<Value: Hashable & Sendable>: Sendable {
  private var ids: [Value: Int32] = [:]
  package private(set) var values: [Value] = []

  package init() {}

  /// The id of `value`, added when new.
  package mutating func id(_ value: Value) -> Int32 {
    if let id = ids[value] { return id }
    let id = Int32(values.count)
    ids[value] = id
    values.append(value)
    return id
  }

  /// The id of `value` when it was added, else `nil`.
  package func existingID(_ value: Value) -> Int32? { ids[value] }

  package subscript(id: Int32) -> Value { values[Int(id)] }
}
