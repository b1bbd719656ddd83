/// A column of the index: values in fixed chunks, so growth never copies the whole column.
struct ChunkedColumn<Element> {
  static var shift: Int { 15 }
  static var chunkSize: Int { 1 << shift }
  private var chunks: [ContiguousArray<Element>] = []
  private(set) var count = 0

  subscript(index: Int) -> Element {
    get { chunks[index >> Self.shift][index & (Self.chunkSize - 1)] }
    set { chunks[index >> Self.shift][index & (Self.chunkSize - 1)] = newValue }
  }

  mutating func append(_ value: Element) {
    if count & (Self.chunkSize - 1) == 0 {
      var chunk = ContiguousArray<Element>()
      chunk.reserveCapacity(Self.chunkSize)
      chunks.append(chunk)
    }
    chunks[chunks.count - 1].append(value)
    count += 1
  }
}

/// What many records share: name, kind, source, flags and providers' statuses (28 bytes), kept
/// once and referred to by number from each record.
struct IndexShape: Equatable {
  var nameID: UInt32
  var kindID: UInt16
  var sourceID: UInt16
  var flags: UInt8
  var outputs: OutputBits

  /// A cheap mix of the fields: where the shape table looks for it first.
  var mix: UInt64 {
    var value = UInt64(nameID) &* 0x9E37_79B9_7F4A_7C15
    value ^= UInt64(kindID) << 16 | UInt64(sourceID) << 32 | UInt64(flags) << 48
    value = (value ^ (value >> 29)) &* 0xBF58_476D_1CE4_E5B9
    value ^= UInt64(outputs.present) | UInt64(outputs.low) << 32
    value = (value ^ (value >> 31)) &* 0x94D0_49BB_1331_11EB
    value ^= UInt64(outputs.high) | UInt64(outputs.special) << 32
    value = (value ^ (value >> 29)) &* 0xBF58_476D_1CE4_E5B9
    return value ^ (value >> 32)
  }
}

/// The index's entries in columns (about 21 bytes a record, against 56 for whole entries): each
/// record keeps its line's offset as 32 bits from its block's first (a block is 64 records), its
/// line's length in 16 bits, its time as 32 bits from its block's first, its `seq`'s low 32 bits,
/// its shape's number (``IndexShape``), its plan violations in 8 bits and how far back its
/// source's previous record is in 16 bits. A value that does not fit is marked by its column's
/// largest (or, for times, smallest) value and kept whole beside, so every entry reads back as it
/// was appended (``subscript(_:)``), in constant time.
///
/// Shapes are found again through a table of their numbers (4 bytes a slot, at most half full),
/// not a dictionary: records of one stream share a few shapes; a stream of all-different ones
/// costs about today's whole entry (a 28-byte shape and up to 16 bytes of table a record).
struct IndexColumns {
  /// Records per block of ``offsetBases`` and ``timeBases``.
  static let blockShift = 6
  static let firstShapeSlots = 256

  private var offsets = ChunkedColumn<UInt32>()
  private var lengths = ChunkedColumn<UInt16>()
  private var times = ChunkedColumn<Int32>()
  private var seqs = ChunkedColumn<UInt32>()
  private var shapeIDs = ChunkedColumn<UInt32>()
  private var planViolations = ChunkedColumn<UInt8>()
  private var previous = ChunkedColumn<UInt16>()
  private var offsetBases: [UInt64] = []
  private var timeBases: [Int64] = []
  private var shapes = ChunkedColumn<IndexShape>()
  /// Shapes by their ``IndexShape/mix`` (open addressing, at most half full): a shape's number
  /// plus one, 0 for an empty slot.
  private var shapeSlots: [UInt32] = []
  /// The values that do not fit their column, by record.
  private var wideOffsets: [Int: UInt64] = [:]
  private var wideLengths: [Int: UInt32] = [:]
  private var wideTimes: [Int: Int64] = [:]
  private var widePlanViolations: [Int: UInt16] = [:]
  private var widePrevious: [Int: UInt32] = [:]

  var count: Int { offsets.count }

  /// The shapes kept (a shape shared by records is kept once).
  var shapeCount: Int { shapes.count }

  subscript(index: Int) -> IndexEntry {
    let shape = shapes[Int(shapeIDs[index])]
    var entry = IndexEntry(
      offset: offset(at: index), seq: UInt64(seqs[index]), time: time(at: index), nameID: shape.nameID,
      length: length(at: index), kindID: shape.kindID, sourceID: shape.sourceID, flags: shape.flags)
    entry.outputs = shape.outputs
    entry.planViolations = planViolations(at: index)
    entry.previousInSource = previousInSource(at: index)
    return entry
  }

  /// Record `index`'s time, without the rest of its entry.
  func time(at index: Int) -> Int64 {
    let delta = times[index]
    if delta == Int32.min { return wideTimes[index] ?? 0 }
    return timeBases[index >> Self.blockShift] &+ Int64(delta)
  }

  /// Record `index`'s source id, without the rest of its entry.
  func sourceID(at index: Int) -> UInt16 { shapes[Int(shapeIDs[index])].sourceID }

  /// The number of record `index`'s shape (shapes are numbered from 0 in the order first seen).
  func shapeID(at index: Int) -> Int { Int(shapeIDs[index]) }

  /// Shape number `id` (see ``shapeID(at:)``).
  func shape(_ id: Int) -> IndexShape { shapes[id] }

  /// Record `index`'s `seq`'s low 32 bits, without the rest of its entry.
  func seqLow(at index: Int) -> UInt32 { seqs[index] }

  /// Whether record `index` has rule or plan violations, read from its shape's flags and its
  /// plan-violation column only.
  func hasViolations(at index: Int) -> Bool {
    shapes[Int(shapeIDs[index])].flags & IndexEntry.ruleViolations != 0 || planViolations[index] != 0
  }

  /// Record `index`'s plan violations.
  func planViolations(at index: Int) -> UInt16 {
    let small = planViolations[index]
    return small == UInt8.max ? widePlanViolations[index] ?? 0 : UInt16(small)
  }

  /// How many records back record `index`'s source's previous record is (0: none).
  func previousInSource(at index: Int) -> UInt32 {
    let small = previous[index]
    return small == UInt16.max ? widePrevious[index] ?? 0 : UInt32(small)
  }

  private func offset(at index: Int) -> UInt64 {
    let delta = offsets[index]
    if delta == UInt32.max { return wideOffsets[index] ?? 0 }
    return offsetBases[index >> Self.blockShift] &+ UInt64(delta)
  }

  private func length(at index: Int) -> UInt32 {
    let small = lengths[index]
    return small == UInt16.max ? wideLengths[index] ?? 0 : UInt32(small)
  }

  mutating func append(_ entry: IndexEntry) {
    let index = count
    if index & ((1 << Self.blockShift) - 1) == 0 {
      offsetBases.append(entry.offset)
      timeBases.append(entry.time)
    }
    let block = index >> Self.blockShift
    if entry.offset >= offsetBases[block], entry.offset - offsetBases[block] < UInt64(UInt32.max) {
      offsets.append(UInt32(entry.offset - offsetBases[block]))
    } else {
      offsets.append(UInt32.max)
      wideOffsets[index] = entry.offset
    }
    if entry.length < UInt32(UInt16.max) {
      lengths.append(UInt16(entry.length))
    } else {
      lengths.append(UInt16.max)
      wideLengths[index] = entry.length
    }
    let (delta, overflow) = entry.time.subtractingReportingOverflow(timeBases[block])
    if !overflow, delta > Int64(Int32.min), delta <= Int64(Int32.max) {
      times.append(Int32(delta))
    } else {
      times.append(Int32.min)
      wideTimes[index] = entry.time
    }
    seqs.append(entry.seqLow)
    shapeIDs.append(shapeID(entry.shape))
    if entry.planViolations < UInt16(UInt8.max) {
      planViolations.append(UInt8(entry.planViolations))
    } else {
      planViolations.append(UInt8.max)
      widePlanViolations[index] = entry.planViolations
    }
    if entry.previousInSource < UInt32(UInt16.max) {
      previous.append(UInt16(entry.previousInSource))
    } else {
      previous.append(UInt16.max)
      widePrevious[index] = entry.previousInSource
    }
  }

  /// Sets record `index`'s plan violations.
  mutating func setPlanViolations(_ count: UInt16, at index: Int) {
    if count < UInt16(UInt8.max) {
      if planViolations[index] == UInt8.max { widePlanViolations[index] = nil }
      planViolations[index] = UInt8(count)
    } else {
      planViolations[index] = UInt8.max
      widePlanViolations[index] = count
    }
  }

  /// The number of `shape`: the one kept before, else a new one.
  private mutating func shapeID(_ shape: IndexShape) -> UInt32 {
    if shapeSlots.count < 2 * (shapes.count + 1) { growShapeSlots() }
    let mask = shapeSlots.count - 1
    var slot = Int(truncatingIfNeeded: shape.mix) & mask
    while shapeSlots[slot] != 0 {
      let id = shapeSlots[slot] - 1
      if shapes[Int(id)] == shape { return id }
      slot = (slot + 1) & mask
    }
    let id = UInt32(shapes.count)
    shapes.append(shape)
    shapeSlots[slot] = id + 1
    return id
  }

  /// Doubles the shape table (at least ``firstShapeSlots``) and puts every shape back.
  private mutating func growShapeSlots() {
    let size = max(Self.firstShapeSlots, shapeSlots.count * 2)
    shapeSlots = [UInt32](repeating: 0, count: size)
    for id in 0..<shapes.count {
      var slot = Int(truncatingIfNeeded: shapes[id].mix) & (size - 1)
      while shapeSlots[slot] != 0 { slot = (slot + 1) & (size - 1) }
      shapeSlots[slot] = UInt32(id + 1)
    }
  }
}
