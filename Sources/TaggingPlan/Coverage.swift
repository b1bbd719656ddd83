/// Which planned tags and expectations have been seen: the checklist QA works through.
///
/// An expectation is *seen* when a record of its tag, on its screen, reached the provider with a
/// status other than `blocked` (so the plan could be checked against it), whether or not it
/// conformed; violations are reported separately.
public struct Coverage: Sendable, Hashable {
  /// The plan's items, in plan order.
  public let items: [CoverageItem]
  /// How many records covered each item.
  public private(set) var counts: [Int]
  /// How many items were seen at least once.
  public private(set) var seenCount = 0

  /// Nothing seen yet.
  public init(items: [CoverageItem]) {
    self.items = items
    counts = [Int](repeating: 0, count: items.count)
  }

  /// Records that item `index` was seen.
  public mutating func mark(_ index: Int) {
    if counts[index] == 0 { seenCount += 1 }
    counts[index] += 1
  }

  /// Adds another coverage of the same plan.
  public mutating func merge(_ other: Coverage) {
    for (index, count) in other.counts.enumerated() where count > 0 {
      if counts[index] == 0 { seenCount += 1 }
      counts[index] += count
    }
  }

  /// Whether item `index` was seen.
  public func isSeen(_ index: Int) -> Bool { counts[index] > 0 }

  /// The number of planned items.
  public var planned: Int { items.count }

  /// Items not yet seen, in plan order.
  public var missing: [CoverageItem] { items.indices.filter { counts[$0] == 0 }.map { items[$0] } }

  /// `34/41 covered`.
  public var summary: String { "\(seenCount)/\(items.count) covered" }
}
