import AnalyticsHub
import TaggingPlan
import TagscopeRecording

/// What `tagscope plan infer` learns, flat: a tag is an entry (its count, its screen set by id,
/// the heads of its cells), and each of its properties, provider outputs and calls a cell of 24,
/// 32 or 48 bytes in one array per kind, chained from the entry; names and sets are ids in tables
/// kept once per draft. A property's string values are kept only while it can still be an
/// `enum` (see ``InferredTag/Property/inferredEnum(name:)``: each condition, once failed, stays
/// failed). ``tag(_:)`` builds one tag's ``InferredTag`` from them.
struct InferenceStore {
  /// One tag.
  struct Entry {
    var count = 0
    var screens: Int32 = 0
    var properties: Int32 = -1
    var providers: Int32 = -1
    var calls: Int32 = -1
    var propertyCells: Int32 = 0
    var providerCells: Int32 = 0
    var callCells: Int32 = 0
  }

  /// One property of one tag.
  struct PropertyCell {
    var next: Int32
    var name: Int32
    /// The head of its value chain (`-1`: none).
    var values: Int32 = -1
    var valueCount: Int32 = 0
    var types: UInt8 = 0
    /// It cannot be an `enum` (its values are not kept).
    var excluded = false
    var present = 0
  }

  /// One string value of one property, with how often it was seen.
  struct ValueCell {
    var next: Int32
    var count: Int
    var text: String
  }

  /// One provider's outputs for one tag.
  struct ProviderCell {
    var next: Int32
    var provider: Int32
    var places: Int32 = 0
    var placesWithCalls: Int32 = 0
    var outputs = 0
    var blocked = 0
  }

  /// One call one provider received for one tag.
  struct CallCell {
    var next: Int32
    var provider: Int32
    var method: Int32
    /// `-1`: parameters not yet seen.
    var parameters: Int32 = -1
    var places: Int32 = 0
    var count = 0
    var name: String?
  }

  /// What a cell is found by in ``overflow``.
  private struct CellKey: Hashable {
    var tag: Int32
    var kind: UInt8
    var id: Int32
    var method: Int32 = 0
    var name: String? = nil
  }

  /// Cells of one kind a tag's chain holds before they are also found through ``overflow``.
  static let chainLimit: Int32 = 16

  private(set) var index = KeyIndex<InferredTag.Key>()
  private var entries: [Entry] = []
  private var properties: [PropertyCell] = []
  private var values: [ValueCell] = []
  /// Value cells of excluded properties, to reuse.
  private var freeValues: Int32 = -1
  private var providers: [ProviderCell] = []
  private var calls: [CallCell] = []
  private var overflow: [CellKey: Int32] = [:]
  /// Property names, providers and methods.
  private var strings = IDTable<String>()
  /// Screen sets (id 0: empty).
  private var screenSets = IDTable<Set<String?>>()
  /// Place and parameter name sets (id 0: empty).
  private var nameSets = IDTable<Set<String>>()
  /// The cells each remembered record adds to, ranges of it kept by ``Replay``.
  private var bumps: [Bump] = []

  init() {
    _ = screenSets.id([])
    _ = nameSets.id([])
  }

  /// One count a remembered record adds to.
  private struct Bump {
    enum Kind: UInt8 { case present, value, output, blockedOutput, call }
    var kind: Kind
    var slot: Int32
    /// The value cell, for ``Kind/value``.
    var value: Int32 = -1
  }

  /// What a record adds to the counts, to add again for a record of the same content.
  struct Replay {
    var tag: Int32
    var start: Int32
    var end: Int32
  }

  /// Tags read.
  var tagCount: Int { entries.count }

  /// Adds a record of `section` occurring `times` times; with `remember`, returns what its
  /// repeats add.
  mutating func add(_ record: Record, section: PlanSection, times: Int, remember: Bool) -> Replay? {
    let key = InferredTag.Key(section: section, name: record.name)
    let (tag, inserted) = index.insert(key)
    if inserted { entries.append(Entry()) }
    let start = Int32(bumps.count)
    entries[Int(tag)].count += times
    entries[Int(tag)].screens = inserting(record.context.screen, into: entries[Int(tag)].screens)
    for (name, value) in record.properties where !InferredTag.isHubAdded(name, kind: record.kind) {
      let slot = property(tag, name)
      let kept = update(slot, value, times)
      if remember, value != .null {
        bumps.append(Bump(kind: kept < 0 ? .present : .value, slot: slot, value: kept))
      }
    }
    let place = InferredTag.place(of: record, section: section) ?? ""
    for output in record.outputs {
      let slot = provider(tag, strings.id(output.provider))
      providers[Int(slot)].outputs += times
      let blocked = output.status == .blocked
      if remember { bumps.append(Bump(kind: blocked ? .blockedOutput : .output, slot: slot)) }
      guard !blocked else {
        providers[Int(slot)].blocked += times
        continue
      }
      providers[Int(slot)].places = inserting(place, into: providers[Int(slot)].places)
      if !output.calls.isEmpty {
        providers[Int(slot)].placesWithCalls = inserting(place, into: providers[Int(slot)].placesWithCalls)
      }
      for call in output.calls {
        let callSlot = self.call(tag, providers[Int(slot)].provider, strings.id(call.method), call.name)
        update(callSlot, call, place: place, times: times)
        if remember { bumps.append(Bump(kind: .call, slot: callSlot)) }
      }
    }
    return remember ? Replay(tag: tag, start: start, end: Int32(bumps.count)) : nil
  }

  /// Adds `times` more occurrences of a remembered record.
  mutating func add(_ replay: Replay, times: Int) {
    entries[Int(replay.tag)].count += times
    for bump in bumps[Int(replay.start)..<Int(replay.end)] {
      let slot = Int(bump.slot)
      switch bump.kind {
      case .present: properties[slot].present += times
      case .value:
        properties[slot].present += times
        // The value cell is still the property's unless the property was excluded since.
        if !properties[slot].excluded { values[Int(bump.value)].count += times }
      case .output: providers[slot].outputs += times
      case .blockedOutput:
        providers[slot].outputs += times
        providers[slot].blocked += times
      case .call: calls[slot].count += times
      }
    }
  }

  /// What is held: tags, cells of each kind, string values kept (not counting freed cells), and
  /// the distinct strings and sets (they stay few however many tags share them).
  var footprint:
    (tags: Int, properties: Int, values: Int, providers: Int, calls: Int, strings: Int, sets: Int)
  {
    var free = 0
    var slot = freeValues
    while slot >= 0 {
      free += 1
      slot = values[Int(slot)].next
    }
    return (
      entries.count, properties.count, values.count - free, providers.count, calls.count,
      strings.values.count,
      screenSets.values.count + nameSets.values.count
    )
  }

  /// Forgets what records were remembered with (once their repeats are added).
  mutating func forgetReplays() { bumps = [] }

  /// The tag of entry `id`, as ``PlanDraftWriter`` reads it.
  func tag(_ key: InferredTag.Key, id: Int32) -> InferredTag {
    let entry = entries[Int(id)]
    var tag = InferredTag(section: key.section, name: key.name)
    tag.count = entry.count
    tag.screens = screenSets[entry.screens]
    var slot = entry.properties
    while slot >= 0 {
      let cell = properties[Int(slot)]
      var kept: [String: Int] = [:]
      var value = cell.values
      while value >= 0 {
        kept[values[Int(value)].text] = values[Int(value)].count
        value = values[Int(value)].next
      }
      tag.properties[strings[cell.name]] = InferredTag.Property(
        types: cell.types, present: cell.present, values: kept, onlyStrings: !cell.excluded)
      slot = cell.next
    }
    slot = entry.providers
    while slot >= 0 {
      let cell = providers[Int(slot)]
      tag.providers[strings[cell.provider]] = InferredTag.Provider(
        outputs: cell.outputs, blocked: cell.blocked, places: nameSets[cell.places],
        placesWithCalls: nameSets[cell.placesWithCalls])
      slot = cell.next
    }
    slot = entry.calls
    while slot >= 0 {
      let cell = calls[Int(slot)]
      tag.providers[strings[cell.provider]]?.calls[
        InferredTag.Call(method: strings[cell.method], name: cell.name)] =
        InferredTag.CallSeen(
          count: cell.count, parameters: cell.parameters < 0 ? nil : nameSets[cell.parameters],
          places: nameSets[cell.places])
      slot = cell.next
    }
    return tag
  }

  /// Counts `value` in property cell `slot`; returns the value cell it was counted in, `-1`
  /// when its value is not kept.
  private mutating func update(_ slot: Int32, _ value: PropertyValue, _ times: Int) -> Int32 {
    let index = Int(slot)
    properties[index].types |= 1 << InferredTag.typeBit(value)
    guard value != .null else { return -1 }
    properties[index].present += times
    guard case .string(let text) = value else {
      exclude(slot)
      return -1
    }
    guard !properties[index].excluded else { return -1 }
    var value = properties[index].values
    while value >= 0 {
      if values[Int(value)].text == text {
        values[Int(value)].count += times
        return value
      }
      value = values[Int(value)].next
    }
    guard properties[index].valueCount < InferredTag.enumLimit,
      !IdentityShape.isIdShaped(text), !IdentityShape.isFreeText(text)
    else {
      exclude(slot)
      return -1
    }
    let cell = ValueCell(next: properties[index].values, count: times, text: text)
    let added: Int32
    if freeValues >= 0 {
      added = freeValues
      freeValues = values[Int(added)].next
      values[Int(added)] = cell
    } else {
      added = Int32(values.count)
      values.append(cell)
    }
    properties[index].values = added
    properties[index].valueCount += 1
    return added
  }

  /// Marks property cell `slot` as no `enum`, its value cells freed for reuse.
  private mutating func exclude(_ slot: Int32) {
    let index = Int(slot)
    guard !properties[index].excluded else { return }
    properties[index].excluded = true
    var value = properties[index].values
    while value >= 0 {
      let next = values[Int(value)].next
      values[Int(value)] = ValueCell(next: freeValues, count: 0, text: "")
      freeValues = value
      value = next
    }
    properties[index].values = -1
    properties[index].valueCount = 0
  }

  private mutating func update(_ slot: Int32, _ call: CallDescription, place: String, times: Int) {
    let index = Int(slot)
    calls[index].count += times
    // The names present every time: narrowed only when this call lacks one of them.
    if calls[index].parameters >= 0 {
      let current = nameSets[calls[index].parameters]
      if !current.allSatisfy({ call.parameters[$0] != nil }) {
        calls[index].parameters = nameSets.id(current.filter { call.parameters[$0] != nil })
      }
    } else {
      calls[index].parameters = nameSets.id(Set(call.parameters.keys))
    }
    calls[index].places = inserting(place, into: calls[index].places)
  }

  /// The property cell of `tag` named `name`, added when new (excluded from `enum`s at once when
  /// its name is an identity's).
  private mutating func property(_ tag: Int32, _ name: String) -> Int32 {
    let id = strings.id(name)
    let entry = entries[Int(tag)]
    if let slot = find(
      CellKey(tag: tag, kind: 0, id: id), count: entry.propertyCells, head: entry.properties,
      {
        properties[Int($0)].name == id ? nil : properties[Int($0)].next
      })
    {
      return slot
    }
    let slot = Int32(properties.count)
    properties.append(
      PropertyCell(next: entry.properties, name: id, excluded: IdentityShape.isIdentityKey(name)))
    entries[Int(tag)].properties = slot
    entries[Int(tag)].propertyCells += 1
    let indexed = overflowing(
      CellKey(tag: tag, kind: 0, id: id), slot, count: entries[Int(tag)].propertyCells
    ) {
      (CellKey(tag: tag, kind: 0, id: properties[Int($0)].name), properties[Int($0)].next)
    }
    for (key, slot) in indexed { overflow[key] = slot }
    return slot
  }

  /// The provider cell of `tag` for `provider`, added when new.
  private mutating func provider(_ tag: Int32, _ provider: Int32) -> Int32 {
    let entry = entries[Int(tag)]
    if let slot = find(
      CellKey(tag: tag, kind: 1, id: provider), count: entry.providerCells, head: entry.providers,
      {
        providers[Int($0)].provider == provider ? nil : providers[Int($0)].next
      })
    {
      return slot
    }
    let slot = Int32(providers.count)
    providers.append(ProviderCell(next: entry.providers, provider: provider))
    entries[Int(tag)].providers = slot
    entries[Int(tag)].providerCells += 1
    let indexed = overflowing(
      CellKey(tag: tag, kind: 1, id: provider), slot, count: entries[Int(tag)].providerCells
    ) {
      (CellKey(tag: tag, kind: 1, id: providers[Int($0)].provider), providers[Int($0)].next)
    }
    for (key, slot) in indexed { overflow[key] = slot }
    return slot
  }

  /// The call cell of `tag` for a provider's call, added when new.
  private mutating func call(_ tag: Int32, _ provider: Int32, _ method: Int32, _ name: String?) -> Int32 {
    let entry = entries[Int(tag)]
    let key = CellKey(tag: tag, kind: 2, id: provider, method: method, name: name)
    if let slot = find(
      key, count: entry.callCells, head: entry.calls,
      {
        let cell = calls[Int($0)]
        return cell.provider == provider && cell.method == method && cell.name == name ? nil : cell.next
      })
    {
      return slot
    }
    let slot = Int32(calls.count)
    calls.append(CallCell(next: entry.calls, provider: provider, method: method, name: name))
    entries[Int(tag)].calls = slot
    entries[Int(tag)].callCells += 1
    let indexed = overflowing(key, slot, count: entries[Int(tag)].callCells) {
      let cell = calls[Int($0)]
      return (CellKey(tag: tag, kind: 2, id: cell.provider, method: cell.method, name: cell.name), cell.next)
    }
    for (key, slot) in indexed { overflow[key] = slot }
    return slot
  }

  /// The cell found by `key`: in ``overflow`` past ``chainLimit`` cells, else by walking the
  /// chain from `head` (`next` gives `nil` for the cell sought, else the next cell).
  private func find(_ key: CellKey, count: Int32, head: Int32, _ next: (Int32) -> Int32?) -> Int32? {
    guard count <= Self.chainLimit else { return overflow[key] }
    var slot = head
    while slot >= 0 {
      guard let following = next(slot) else { return slot }
      slot = following
    }
    return nil
  }

  /// The cells to index in ``overflow`` for a new cell once its chain is past ``chainLimit``: the
  /// whole chain when it has just gone past it, then each new one.
  private func overflowing(
    _ key: CellKey, _ slot: Int32, count: Int32, _ cell: (Int32) -> (CellKey, Int32)
  ) -> [(CellKey, Int32)] {
    guard count == Self.chainLimit + 1 else { return count > Self.chainLimit ? [(key, slot)] : [] }
    var chain: [(CellKey, Int32)] = []
    var current = slot
    while current >= 0 {
      let (key, next) = cell(current)
      chain.append((key, current))
      current = next
    }
    return chain
  }

  private mutating func inserting(_ screen: String?, into id: Int32) -> Int32 {
    let current = screenSets[id]
    guard !current.contains(screen) else { return id }
    var grown = current
    grown.insert(screen)
    return screenSets.id(grown)
  }

  private mutating func inserting(_ name: String, into id: Int32) -> Int32 {
    let current = nameSets[id]
    guard !current.contains(name) else { return id }
    var grown = current
    grown.insert(name)
    return nameSets.id(grown)
  }
}
