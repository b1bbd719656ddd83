import TagscopeRecording

/// A small least-recently-used cache of decoded records by timeline index.
struct RecordCache {
  private var slots: [Int: (record: Record, stamp: UInt64)] = [:]
  private var clock: UInt64 = 0
  let capacity: Int

  init(capacity: Int) { self.capacity = max(1, capacity) }

  mutating func get(_ index: Int) -> Record? {
    guard let slot = slots[index] else { return nil }
    clock += 1
    slots[index] = (slot.record, clock)
    return slot.record
  }

  mutating func put(_ record: Record, at index: Int) {
    clock += 1
    if slots[index] == nil, slots.count >= capacity,
      let oldest = slots.min(by: { $0.value.stamp < $1.value.stamp })?.key
    {
      slots[oldest] = nil
    }
    slots[index] = (record, clock)
  }

  mutating func removeAll() { slots.removeAll() }
}
