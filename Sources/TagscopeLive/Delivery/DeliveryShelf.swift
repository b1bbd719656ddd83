/// An entry a ``DeliveryShelf`` may let go of.
protocol DeliveryShelved {
  /// Let go of: only counted now.
  var isRetired: Bool { get set }
  /// Its record's session position: never lower than an earlier entry's.
  var key: Int { get }
}

/// The delivery ledger's calls (or wire calls), numbered from 0 in the order added, of which it
/// keeps all but those retired: the newest in one array from the oldest number it still holds
/// there, and the few older ones still kept (calls queued for long) aside, in number order.
/// Retired entries leave once they are half of their array, so each entry pays a constant share
/// and the entries kept are the shelf's size, however many were added.
///
/// An entry's ``key`` (its record's session position) grows with its number, so an entry is
/// found by it with a binary search (``number(where:)``), with no table beside.
struct DeliveryShelf<Entry: DeliveryShelved> {
  private var dense: [Entry] = []
  /// The number of `dense[0]`.
  private var base = 0
  /// The entries kept older than `base`, and their numbers (ascending).
  private var aside: [Entry] = []
  private var asideNumbers: [Int32] = []
  private var retiredAside = 0
  private var retiredInDense = 0
  /// The index in `dense` after the last retired entry.
  private var retiredEnd = 0

  /// Entries added so far: the next number.
  var count: Int { base + dense.count }

  /// Entries kept (not retired).
  var keptCount: Int { aside.count - retiredAside + dense.count - retiredInDense }

  /// Whether entry `number` is kept.
  func isKept(_ number: Int32) -> Bool {
    let index = Int(number) - base
    if index >= 0 { return index < dense.count && !dense[index].isRetired }
    guard let place = asidePlace(of: number) else { return false }
    return !aside[place].isRetired
  }

  /// Entry `number` if it is kept (looked up once), else `nil`.
  func keptEntry(_ number: Int32) -> Entry? {
    let index = Int(number) - base
    if index >= 0 { return index < dense.count && !dense[index].isRetired ? dense[index] : nil }
    guard let place = asidePlace(of: number), !aside[place].isRetired else { return nil }
    return aside[place]
  }

  /// Entry `number`, which must be kept.
  subscript(number: Int32) -> Entry {
    let index = Int(number) - base
    return index >= 0 ? dense[index] : aside[asidePlace(of: number)!]
  }

  /// Changes entry `number` (kept) in place with `body`: a field set is not a copy of the whole
  /// entry out and back, and the entry is looked up once.
  mutating func update<Result>(_ number: Int32, _ body: (inout Entry) -> Result) -> Result {
    let index = Int(number) - base
    if index >= 0 { return body(&dense[index]) }
    return body(&aside[asidePlace(of: number)!])
  }

  /// Changes entry `number` in place with `body` if it is kept (looked up once); `nil` if not.
  mutating func updateIfKept<Result>(_ number: Int32, _ body: (inout Entry) -> Result) -> Result? {
    let index = Int(number) - base
    if index >= 0 {
      guard index < dense.count, !dense[index].isRetired else { return nil }
      return body(&dense[index])
    }
    guard let place = asidePlace(of: number), !aside[place].isRetired else { return nil }
    return body(&aside[place])
  }

  /// Makes room for `extra` more entries at once when they are more than the array holds (a
  /// large upload's batch), so it grows once, not by doubling through the sizes below (each
  /// buffer it grew from held with the next while copied). The room is a power of two, as
  /// doubling from an empty array would reach: an exact size (a session's first batch) would set
  /// every later doubling off it, and the array kept once the session is under way could be
  /// nearly twice as large (1.5 MiB of the ledger bench's heap). A smaller batch grows the array
  /// as its appends do: room made ahead of it would not be let go of when retired entries leave
  /// during the batch.
  mutating func reserve(_ extra: Int) {
    guard extra > dense.capacity else { return }
    let needed = dense.count + extra
    dense.reserveCapacity(needed <= 16 ? 16 : 1 << (Int.bitWidth - (needed - 1).leadingZeroBitCount))
  }

  /// Adds `entry`; returns its number.
  mutating func append(_ entry: Entry) -> Int32 {
    dense.append(entry)
    return Int32(count - 1)
  }

  /// Lets go of entry `number` (kept).
  mutating func retire(_ number: Int32) {
    let index = Int(number) - base
    guard index >= 0 else {
      guard let place = asidePlace(of: number), !aside[place].isRetired else { return }
      aside[place].isRetired = true
      retiredAside += 1
      if retiredAside >= 64, 2 * retiredAside >= aside.count { compactAside() }
      return
    }
    dense[index].isRetired = true
    retiredInDense += 1
    retiredEnd = max(retiredEnd, index + 1)
    if retiredInDense >= 256, 2 * retiredInDense >= dense.count { compact() }
  }

  /// The kept entries whose ``DeliveryShelved/key`` is `value`, in number order.
  func numbers(where value: Int) -> [Int32] {
    var numbers: [Int32] = []
    var place = Self.lowerBound(of: value, in: aside)
    while place < aside.count, aside[place].key == value {
      if !aside[place].isRetired { numbers.append(asideNumbers[place]) }
      place += 1
    }
    var index = Self.lowerBound(of: value, in: dense)
    while index < dense.count, dense[index].key == value {
      if !dense[index].isRetired { numbers.append(Int32(base + index)) }
      index += 1
    }
    return numbers
  }

  /// Calls `body` with each kept entry's number and entry, in number order.
  func forEachKept(_ body: (Int32, Entry) -> Void) {
    for place in aside.indices where !aside[place].isRetired { body(asideNumbers[place], aside[place]) }
    for index in dense.indices where !dense[index].isRetired { body(Int32(base + index), dense[index]) }
  }

  /// The place in `aside` of entry `number`, if it is there (retired or not).
  private func asidePlace(of number: Int32) -> Int? {
    var (low, high) = (0, asideNumbers.count)
    while low < high {
      let middle = (low + high) / 2
      if asideNumbers[middle] < number { low = middle + 1 } else { high = middle }
    }
    return low < asideNumbers.count && asideNumbers[low] == number ? low : nil
  }

  /// The first index of `entries` whose key is at least `value`.
  private static func lowerBound(of value: Int, in entries: [Entry]) -> Int {
    var (low, high) = (0, entries.count)
    while low < high {
      let middle = (low + high) / 2
      if entries[middle].key < value { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Drops the array's entries up to its last retired one: the kept ones among them go aside
  /// (after those there, whose numbers are all lower).
  private mutating func compact() {
    for index in 0..<retiredEnd where !dense[index].isRetired {
      aside.append(dense[index])
      asideNumbers.append(Int32(base + index))
    }
    dense.removeFirst(retiredEnd)
    base += retiredEnd
    retiredInDense = 0
    retiredEnd = 0
  }

  /// Drops the retired entries aside.
  private mutating func compactAside() {
    var kept = 0
    for place in aside.indices where !aside[place].isRetired {
      aside[kept] = aside[place]
      asideNumbers[kept] = asideNumbers[place]
      kept += 1
    }
    aside.removeLast(aside.count - kept)
    asideNumbers.removeLast(asideNumbers.count - kept)
    retiredAside = 0
  }
}
