import AnalyticsHub
import TaggingPlan
import TagscopeRecording

/// The counts and types of a ``RecordingProfile``, flat: a tag is an entry (its count, its
/// properties' types by id, the head of its cells), and each of its provider statuses and calls a
/// 40-byte cell in one shared array, chained from the entry; names are ids in tables kept once
/// per profile. A tag of many records costs a few dozen bytes, not a dictionary per provider.
struct ProfileStore: Sendable {
  /// A tag signature with its kind and screen as ids (its name, distinct per tag, kept as is).
  struct TagKey: Hashable, Sendable {
    var name: String
    var kind: Int32
    /// `-1`: no screen.
    var screen: Int32
  }

  /// One provider status (its count of outputs) or one call (its count, method set and
  /// parameter types) of one tag: 40 bytes.
  struct Cell: Sendable {
    var next: Int32
    var provider: Int32
    /// A call's method set; `-1` for a status.
    var methods: Int32
    var parameters: Int32 = 0
    var count = 0
    /// The status, or the call key (kept here: a call is often named as its tag, once per tag).
    var key: String

    /// Whether it is a call's (else a status').
    var isCall: Bool { methods >= 0 }
  }

  /// One tag.
  struct Entry: Sendable {
    var count = 0
    var properties: Int32 = 0
    var head: Int32 = -1
    var cells: Int32 = 0
  }

  /// What identifies a cell in ``overflow``.
  private struct CellKey: Hashable {
    var tag: Int32
    var provider: Int32
    var key: String
    var isCall: Bool
  }

  /// Cells a tag's chain holds before its cells are also found through ``overflow`` (a tag of
  /// thousands of call names is not walked once per call).
  static let chainLimit: Int32 = 16

  private(set) var index = KeyIndex<TagKey>()
  private(set) var entries: [Entry] = []
  private(set) var cells: [Cell] = []
  private var overflow: [CellKey: Int32] = [:]
  /// Providers, kinds and screens.
  private(set) var strings = IDTable<String>()
  /// Property and parameter types (id 0: none).
  private(set) var types = IDTable<PathTypes>()
  /// Call method sets (id 0: none).
  private(set) var methods = IDTable<Set<String>>()
  /// The cells each remembered record adds to, ranges of it kept by ``Replay``.
  private var bumps: [Int32] = []

  init() {
    _ = types.id(PathTypes())
    _ = methods.id([])
  }

  /// What a record adds to the counts, to add again for a record of the same content.
  struct Replay: Sendable {
    var tag: Int32
    var start: Int32
    var end: Int32
  }

  /// Adds a record that occurred `times` times; with `remember`, returns what its repeats add.
  mutating func add(_ record: Record, times: Int, remember: Bool) -> Replay? {
    let key = TagKey(
      name: record.name, kind: strings.id(record.kind.rawValue),
      screen: record.context.screen.map { strings.id($0) } ?? -1)
    let (tag, inserted) = index.insert(key)
    if inserted { entries.append(Entry()) }
    let start = Int32(bumps.count)
    entries[Int(tag)].count += times
    entries[Int(tag)].properties = adding(record.properties, to: entries[Int(tag)].properties)
    for output in record.outputs {
      let provider = strings.id(output.provider)
      let status = cell(tag, provider, output.status.rawValue, isCall: false)
      cells[Int(status)].count += times
      if remember { bumps.append(status) }
      for call in output.calls {
        let key = RecordingProfile.callKey(method: call.method, name: call.name, kind: record.kind)
        let slot = Int(cell(tag, provider, key, isCall: true))
        cells[slot].count += times
        cells[slot].methods = adding(call.method, to: cells[slot].methods)
        cells[slot].parameters = adding(call.parameters, to: cells[slot].parameters)
        if remember { bumps.append(Int32(slot)) }
      }
    }
    return remember ? Replay(tag: tag, start: start, end: Int32(bumps.count)) : nil
  }

  /// Adds `times` more occurrences of a remembered record.
  mutating func add(_ replay: Replay, times: Int) {
    entries[Int(replay.tag)].count += times
    for slot in bumps[Int(replay.start)..<Int(replay.end)] { cells[Int(slot)].count += times }
  }

  /// What is held: tags, cells, and the distinct strings, types and method sets (they stay few
  /// however many tags share them).
  var footprint: (tags: Int, cells: Int, strings: Int, types: Int, methods: Int) {
    (entries.count, cells.count, strings.values.count, types.values.count, methods.values.count)
  }

  /// Forgets what records were remembered with (once their repeats are added).
  mutating func forgetReplays() { bumps = [] }

  /// The cells of entry `tag`, in the order added.
  func cells(of tag: Int32) -> [Cell] {
    var chain: [Cell] = []
    var slot = entries[Int(tag)].head
    while slot >= 0 {
      chain.append(cells[Int(slot)])
      slot = cells[Int(slot)].next
    }
    return chain.reversed()
  }

  /// The cell of `tag` for a provider's status or call, added when new.
  private mutating func cell(_ tag: Int32, _ provider: Int32, _ key: String, isCall: Bool) -> Int32 {
    let entry = entries[Int(tag)]
    if entry.cells > Self.chainLimit {
      if let slot = overflow[CellKey(tag: tag, provider: provider, key: key, isCall: isCall)] { return slot }
    } else {
      var slot = entry.head
      while slot >= 0 {
        let cell = cells[Int(slot)]
        if cell.provider == provider, cell.key == key, cell.isCall == isCall { return slot }
        slot = cell.next
      }
    }
    let slot = Int32(cells.count)
    cells.append(Cell(next: entry.head, provider: provider, methods: isCall ? 0 : -1, key: key))
    entries[Int(tag)].head = slot
    entries[Int(tag)].cells += 1
    if entries[Int(tag)].cells == Self.chainLimit + 1 {
      var chained = slot
      while chained >= 0 {
        let cell = cells[Int(chained)]
        overflow[CellKey(tag: tag, provider: cell.provider, key: cell.key, isCall: cell.isCall)] = chained
        chained = cell.next
      }
    } else if entries[Int(tag)].cells > Self.chainLimit + 1 {
      overflow[CellKey(tag: tag, provider: provider, key: key, isCall: isCall)] = slot
    }
    return slot
  }

  /// The types id of `id`'s types with `properties` added (equal types share one id).
  private mutating func adding(_ properties: Properties, to id: Int32) -> Int32 {
    let current = types[id]
    guard current.wouldChange(properties) else { return id }
    var grown = current
    grown.add(properties)
    return types.id(grown)
  }

  /// The method set id of `id`'s set with `method` added.
  private mutating func adding(_ method: String, to id: Int32) -> Int32 {
    let current = methods[id]
    guard !current.contains(method) else { return id }
    var grown = current
    grown.insert(method)
    return methods.id(grown)
  }
}
