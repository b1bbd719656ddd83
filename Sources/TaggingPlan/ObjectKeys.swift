/// The planned keys of an object rule, looked up by name: an object's keys are each found in
/// constant time (a scan of at most eight names, or a table), and its required keys counted, so
/// checking an object is linear in its size.
struct ObjectKeys: Sendable, Hashable {
  /// The position in the rule's `properties` of each name (the first, for a repeated name); only
  /// for more than ``scannedCount`` properties (a dictionary per small object would cost more
  /// memory than its rule: a plan of many thousand entries has as many small objects).
  private let table: [String: Int]?
  /// How many of the properties are required.
  let requiredCount: Int

  /// The most properties found by a scan rather than a table.
  static let scannedCount = 8

  init(_ properties: [PropertyRule]) {
    requiredCount = properties.filter(\.required).count
    guard properties.count > Self.scannedCount else {
      table = nil
      return
    }
    var positions: [String: Int] = [:]
    for (index, property) in properties.enumerated() where positions[property.name] == nil {
      positions[property.name] = index
    }
    table = positions
  }

  /// The position in `properties` (those it was made of) of the first property named `key`.
  func position(of key: String, in properties: [PropertyRule]) -> Int? {
    if let table { return table[key] }
    return properties.firstIndex { $0.name == key }
  }
}
