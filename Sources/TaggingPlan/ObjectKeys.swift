/// The planned keys of an object rule, looked up by name: an object's keys are each found in
/// constant time, and its required keys counted, so checking an object is linear in its size.
struct ObjectKeys: Sendable, Hashable {
  /// The position in the rule's `properties` of each name (the first, for a repeated name).
  let positions: [String: Int]
  /// How many of the properties are required.
  let requiredCount: Int

  init(_ properties: [PropertyRule]) {
    var positions: [String: Int] = [:]
    for (index, property) in properties.enumerated() where positions[property.name] == nil {
      positions[property.name] = index
    }
    self.positions = positions
    requiredCount = properties.filter(\.required).count
  }
}
