import Foundation
import TagscopeRecording

/// The per-record fields the timeline keeps in memory: where the line is in the file and what the
/// Events list, the filters and the per-source fold need. Each provider's status is two bits in two
/// planes plus a flag (the first 32 providers seen); names, kinds and sources are interned; a `seq`
/// past 32 bits is kept apart (``TimelineIndex/seq(at:)``). Kept in columns (``IndexColumns``),
/// this is what one record reads back as.
struct IndexEntry: Equatable {
  static let ruleViolations: UInt8 = 1
  static let issues: UInt8 = 2
  static let context: UInt8 = 4
  static let moreProviders: UInt8 = 8
  /// `seq` does not fit ``seqLow``: the index keeps it in ``TimelineIndex/wideSeqs``.
  static let wideSeq: UInt8 = 16
  /// The top three bits: how many rule violations the outputs carry, 7 meaning 7 or more.
  static let ruleViolationCountShift: UInt8 = 5

  /// How many rule violations the record's outputs carry (at most 7).
  var ruleViolationCount: Int { Int(flags >> Self.ruleViolationCountShift) }

  var offset: UInt64
  var time: Int64
  /// `seq`, when it fits in 32 bits (else see ``wideSeq``).
  var seqLow: UInt32
  /// Each provider's status.
  var outputs = OutputBits()
  var nameID: UInt32
  var length: UInt32
  var kindID: UInt16
  /// 0: no source.
  var sourceID: UInt16
  var flags: UInt8
  var planViolations: UInt16 = 0
  /// How many records back the previous record of the same source is (0: none, or too far): the
  /// per-source fold walks a source's records without scanning the others'.
  var previousInSource: UInt32 = 0

  init(
    offset: UInt64, seq: UInt64, time: Int64, nameID: UInt32, length: UInt32, kindID: UInt16,
    sourceID: UInt16, flags: UInt8
  ) {
    self.offset = offset
    self.seqLow = UInt32(truncatingIfNeeded: seq)
    self.time = time
    self.nameID = nameID
    self.length = length
    self.kindID = kindID
    self.sourceID = sourceID
    self.flags = flags
  }

  /// What the entry shares with other records (all but its place, time, `seq` and counts).
  var shape: IndexShape {
    IndexShape(nameID: nameID, kindID: kindID, sourceID: sourceID, flags: flags, outputs: outputs)
  }

  /// Records provider `id`'s output (`id` < ``TimelineIndex/maximumProviders``).
  mutating func setOutput(provider id: Int, status: IndexFields.Status, disabled: Bool) {
    outputs.set(provider: id, status: status, disabled: disabled)
  }

  /// Providers with an output, as bits by provider id.
  var present: UInt64 { UInt64(outputs.present) }
  var sent: UInt64 { outputs.sent }
  var dropped: UInt64 { outputs.dropped }
  /// Blocked for want of consent.
  var blocked: UInt64 { outputs.blocked }
  /// Blocked because disabled.
  var disabled: UInt64 { outputs.disabled }
  var failed: UInt64 { outputs.failed }
}

/// The providers' statuses of one record, a bit per provider id in each of four planes.
struct OutputBits: Equatable {
  /// Providers with an output.
  private(set) var present: UInt32 = 0
  /// A provider's status code, low and high bit: 0 sent, 1 dropped, 2 blocked, 3 failed (or a
  /// status word this version does not know, when its ``special`` bit is set).
  private(set) var low: UInt32 = 0
  private(set) var high: UInt32 = 0
  /// Blocked: because disabled (else for want of consent). Code 3: not `failed` but another word.
  private(set) var special: UInt32 = 0

  var sent: UInt64 { UInt64(present & ~low & ~high) }
  var dropped: UInt64 { UInt64(present & low & ~high) }
  /// Blocked for want of consent.
  var blocked: UInt64 { UInt64(present & ~low & high & ~special) }
  /// Blocked because disabled.
  var disabled: UInt64 { UInt64(present & ~low & high & special) }
  var failed: UInt64 { UInt64(present & low & high & ~special) }

  /// Records provider `id`'s output (`id` < ``TimelineIndex/maximumProviders``).
  mutating func set(provider id: Int, status: IndexFields.Status, disabled: Bool) {
    let bit = UInt32(1) << UInt32(id)
    present |= bit
    low &= ~bit
    high &= ~bit
    special &= ~bit
    switch status {
    case .sent: break
    case .dropped: low |= bit
    case .blocked:
      high |= bit
      if disabled { special |= bit }
    case .failed:
      low |= bit
      high |= bit
    case .other:
      low |= bit
      high |= bit
      special |= bit
    }
  }
}

/// Strings stored once and referred to by number.
struct InternTable {
  private(set) var strings: [String] = []
  private var ids: [String: Int] = [:]

  mutating func id(_ string: String) -> Int {
    if let id = ids[string] { return id }
    strings.append(string)
    ids[string] = strings.count - 1
    return strings.count - 1
  }

  func lookup(_ string: String) -> Int? { ids[string] }
}

/// The folded state at a keyframe (or while folding): consent, providers, and where the latest
/// context is.
struct FoldState {
  var consent: [ConsentDecision] = []
  /// By provider id.
  var providers: [ProviderState] = []
  var lastContextIndex: Int?

  mutating func apply(_ entry: IndexEntry, at index: Int, isConsent: Bool, providerNames: [String]) {
    if entry.flags & IndexEntry.context != 0 { lastContextIndex = index }
    var bits = entry.present
    while bits != 0 {
      let id = bits.trailingZeroBitCount
      bits &= bits - 1
      let bit: UInt64 = 1 << UInt64(id)
      while providers.count <= id {
        providers.append(ProviderState(provider: providerNames[providers.count]))
      }
      var state = providers[id]
      state.lastIndex = index
      if entry.disabled & bit != 0 {
        state.enabled = false
      } else {
        state.enabled = true
        if entry.blocked & bit != 0 {
          state.consented = false
        } else if !isConsent {
          state.consented = true
        }
      }
      state.lastStatus = Self.status(entry, bit)
      providers[id] = state
    }
  }

  mutating func apply(_ decision: ConsentDecision) {
    if let position = consent.firstIndex(where: { $0.scope == decision.scope }) {
      consent[position] = decision
    } else {
      consent.append(decision)
    }
  }

  static func status(_ entry: IndexEntry, _ bit: UInt64) -> OutputStatus {
    if entry.sent & bit != 0 { return .sent }
    if entry.dropped & bit != 0 { return .dropped }
    if entry.blocked & bit != 0 || entry.disabled & bit != 0 { return .blocked }
    if entry.failed & bit != 0 { return .failed }
    return OutputStatus(rawValue: "other")
  }

  /// The consent decision a consent record makes (`scope`, `granted` properties).
  static func decision(_ record: Record, index: Int) -> ConsentDecision? {
    guard record.kind == .consent, let scope = record.properties["scope"]?.stringValue,
      let granted = record.properties["granted"]?.boolValue
    else { return nil }
    return ConsentDecision(scope: scope, granted: granted, index: index)
  }
}

/// A source's fold just before one of its records.
struct Keyframe {
  /// The record (a timeline position) the fold stops before.
  var index: Int
  var state: FoldState
}

/// The timeline's index: entries, interned strings, and per source (device or connection) the
/// running fold and a keyframe every ``keyframeInterval`` of its records, so the state as of a
/// record is its own device's. Not thread-safe; ``Timeline`` guards it.
struct TimelineIndex {
  static let keyframeInterval = 256
  static let maximumProviders = 32

  var entries = IndexColumns()
  var names = InternTable()
  var kinds = InternTable()
  /// Id 0 is "no source".
  var sources = InternTable()
  var providers = InternTable()
  /// By source id: its keyframes, in timeline order (the first before its first record).
  var keyframes: [[Keyframe]] = []
  /// By source id: the fold of all its records so far.
  var running: [FoldState] = []
  /// By source id: its latest record, its record count and its records with violations.
  var lastOfSource: [Int] = []
  var countOfSource: [Int] = []
  var violationsOfSource: [Int] = []
  var consentKindID: Int
  /// By record: the `seq`s that do not fit in an entry's 32 bits (rare: recordings are untrusted).
  var wideSeqs: [Int: UInt64] = [:]
  /// The filters compiled lately (``compile(_:)``), extended as names and sources are interned.
  var compiledFilters: [TimelineFilter: CompiledFilter] = [:]
  /// `seq` repeating or going backwards within a source, in file order.
  var sequence = SequenceCheck()

  init() {
    _ = sources.id("")
    consentKindID = kinds.id(RecordKind.consent.rawValue)
  }

  var count: Int { entries.count }

  /// The `seq` of record `index`.
  func seq(at index: Int) -> UInt64 {
    let flags = entries.shape(entries.shapeID(at: index)).flags
    return flags & IndexEntry.wideSeq != 0 ? wideSeqs[index] ?? 0 : UInt64(entries.seqLow(at: index))
  }

  /// Indexes one record whose line is at `offset` (`length` bytes without the newline).
  mutating func add(_ record: Record, offset: UInt64, length: Int) {
    add(IndexFields(record), offset: offset, length: length)
  }

  /// Indexes one record from its index fields.
  mutating func add(_ fields: IndexFields, offset: UInt64, length: Int) {
    let index = entries.count
    var flags: UInt8 = 0
    if fields.hasRuleViolations { flags |= IndexEntry.ruleViolations }
    flags |= UInt8(min(fields.ruleViolationCount, 7)) << IndexEntry.ruleViolationCountShift
    if fields.hasIssues { flags |= IndexEntry.issues }
    if fields.hasContext { flags |= IndexEntry.context }
    if fields.seq > UInt64(UInt32.max) {
      flags |= IndexEntry.wideSeq
      wideSeqs[index] = fields.seq
    }
    var entry = IndexEntry(
      offset: offset, seq: fields.seq, time: fields.time, nameID: UInt32(names.id(fields.name)),
      length: UInt32(clamping: length), kindID: UInt16(clamping: kinds.id(fields.kind)),
      sourceID: fields.source.map { UInt16(clamping: sources.id($0)) } ?? 0, flags: flags)
    for output in fields.outputs {
      let id = providers.id(output.provider)
      guard id < Self.maximumProviders else {
        entry.flags |= IndexEntry.moreProviders
        continue
      }
      entry.setOutput(provider: id, status: output.status, disabled: output.disabled)
    }
    let source = Int(entry.sourceID)
    while running.count <= source {
      running.append(FoldState())
      keyframes.append([])
      lastOfSource.append(-1)
      countOfSource.append(0)
      violationsOfSource.append(0)
    }
    if lastOfSource[source] >= 0 { entry.previousInSource = UInt32(clamping: index - lastOfSource[source]) }
    if countOfSource[source] % Self.keyframeInterval == 0 {
      keyframes[source].append(Keyframe(index: index, state: running[source]))
    }
    lastOfSource[source] = index
    countOfSource[source] += 1
    if entry.flags & IndexEntry.ruleViolations != 0 { violationsOfSource[source] += 1 }
    entries.append(entry)
    _ = sequence.check(seq: fields.seq, sourceKey: source)
    let isConsent = Int(entry.kindID) == consentKindID
    running[source].apply(entry, at: index, isConsent: isConsent, providerNames: providers.strings)
    if isConsent, let decision = fields.consentDecision(index: index) { running[source].apply(decision) }
  }

  /// Sets the plan violations of record `index`, keeping its source's count of records with
  /// violations.
  mutating func setPlanViolations(_ count: Int, at index: Int) {
    let shape = entries.shape(entries.shapeID(at: index))
    let had = entries.hasViolations(at: index)
    let planViolations = UInt16(clamping: count)
    entries.setPlanViolations(planViolations, at: index)
    let has = shape.flags & IndexEntry.ruleViolations != 0 || planViolations > 0
    if had != has { violationsOfSource[Int(shape.sourceID)] += has ? 1 : -1 }
  }

  func summary(at index: Int) -> RecordSummary {
    let entry = entries[index]
    var outputs: [OutputSummary] = []
    var bits = entry.present
    while bits != 0 {
      let id = bits.trailingZeroBitCount
      bits &= bits - 1
      outputs.append(
        OutputSummary(provider: providers.strings[id], status: FoldState.status(entry, 1 << UInt64(id))))
    }
    var summary = RecordSummary(
      index: index, seq: seq(at: index), timeMilliseconds: entry.time,
      kind: RecordKind(rawValue: kinds.strings[Int(entry.kindID)]), name: names.strings[Int(entry.nameID)],
      source: entry.sourceID == 0 ? nil : sources.strings[Int(entry.sourceID)], outputs: outputs,
      hasRuleViolations: entry.flags & IndexEntry.ruleViolations != 0,
      hasIssues: entry.flags & IndexEntry.issues != 0, planViolations: Int(entry.planViolations))
    summary.ruleViolations = entry.ruleViolationCount
    return summary
  }

  /// The compiled form of a filter over this index's interned tables.
  struct CompiledFilter {
    var kindIDs: [Bool]?
    var nameIDs: [Bool]?
    /// The providers a provider condition accepts (one bit each).
    var providerBit: UInt64?
    var providerUnknown = false
    var status: OutputStatus?
    var sourceIDs: [Bool]?
    var violations: Bool?
    var issues: Bool?
  }

  /// Filters kept compiled at most.
  static let compiledFilterLimit = 32

  /// `filter` compiled; one compiled before is extended with the names and sources interned since,
  /// so a filter asked again on every batch (a `wait`, a live list) matches each name once.
  mutating func compile(_ filter: TimelineFilter) throws(TimelineFilterError) -> CompiledFilter {
    // Taken out while extended: a copy left in the cache would make each extension copy the
    // per-name table whole (time in every name interned, on every batch a `wait` asks).
    var compiled = compiledFilters.removeValue(forKey: filter) ?? CompiledFilter()
    if let kinds = filter.kinds {
      var allowed = [Bool](repeating: false, count: self.kinds.strings.count)
      for kind in kinds { if let id = self.kinds.lookup(kind.rawValue) { allowed[id] = true } }
      compiled.kindIDs = allowed
    }
    if !filter.names.isEmpty {
      var matchers: [NameMatcher] = []
      for name in filter.names { matchers.append(try NameMatcher(name)) }
      var ids = compiled.nameIDs ?? []
      for name in names.strings[ids.count...] { ids.append(matchers.allSatisfy { $0.matches(name) }) }
      compiled.nameIDs = ids
    }
    if filter.provider != nil || !filter.providerMatches.isEmpty {
      // The providers every provider condition accepts, as a mask of the index's provider bits.
      var matchers: [NameMatcher] = []
      if let provider = filter.provider { matchers.append(NameMatcher(substring: provider, whole: true)) }
      for match in filter.providerMatches { matchers.append(try NameMatcher(match)) }
      var mask: UInt64 = 0
      for (id, name) in providers.strings.enumerated().prefix(Self.maximumProviders)
      where matchers.allSatisfy({ $0.matches(name) }) {
        mask |= 1 << UInt64(id)
      }
      compiled.providerUnknown = mask == 0
      compiled.providerBit = mask == 0 ? nil : mask
    }
    if let status = filter.status {
      guard status.isKnown else { throw .unknownStatus(status.rawValue) }
      compiled.status = status
    }
    if filter.source != nil || !filter.sourceMatches.isEmpty {
      var matchers: [NameMatcher] = []
      if let source = filter.source { matchers.append(NameMatcher(substring: source)) }
      for match in filter.sourceMatches { matchers.append(try NameMatcher(match)) }
      var ids = compiled.sourceIDs ?? []
      for source in sources.strings[ids.count...] { ids.append(matchers.allSatisfy { $0.matches(source) }) }
      compiled.sourceIDs = ids
    }
    compiled.violations = filter.violations
    compiled.issues = filter.issues
    if compiledFilters[filter] == nil && compiledFilters.count >= Self.compiledFilterLimit {
      compiledFilters.removeAll(keepingCapacity: true)
    }
    compiledFilters[filter] = compiled
    return compiled
  }

  /// What a filter says of every record of one shape: most of a filter reads only what records
  /// share (``IndexShape``), all but whether a record has plan violations.
  enum ShapeVerdict: UInt8 {
    /// Not worked out yet (a scan's table starts so).
    case unknown
    case rejected
    case accepted
    /// Accepted when the record has plan violations.
    case withPlanViolations
    /// Accepted when the record has none.
    case withoutPlanViolations
  }

  /// Scopes shorter than this are matched shape by shape without a table of verdicts.
  static let verdictTableMinimumScope = 64
  /// Nor is a table made when the shapes outnumber the scope's records this many times: a short
  /// scope of a session of all-different records (a live list extended by one batch) would set
  /// up a table of every shape to judge a few.
  static let verdictTableShapesPerRecord = 16

  /// The positions in `scope` that pass `filter`, in order. Each shape is judged once per scan and
  /// each record reads only its shape's number and, when the filter asks, its plan violations.
  func positions(in scope: Range<Int>, passing filter: CompiledFilter) -> [Int] {
    var out: [Int] = []
    let tabled =
      scope.count >= Self.verdictTableMinimumScope
      && entries.shapeCount <= scope.count * Self.verdictTableShapesPerRecord
    var verdicts = [ShapeVerdict](repeating: .unknown, count: tabled ? entries.shapeCount : 0)
    for position in scope {
      let id = entries.shapeID(at: position)
      var verdict = tabled ? verdicts[id] : .unknown
      if verdict == .unknown {
        verdict = self.verdict(entries.shape(id), filter)
        if tabled { verdicts[id] = verdict }
      }
      switch verdict {
      case .accepted: out.append(position)
      case .withPlanViolations where entries.planViolations(at: position) > 0: out.append(position)
      case .withoutPlanViolations where entries.planViolations(at: position) == 0: out.append(position)
      default: break
      }
    }
    return out
  }

  /// What `filter` says of the records of `shape`.
  func verdict(_ shape: IndexShape, _ filter: CompiledFilter) -> ShapeVerdict {
    if let kindIDs = filter.kindIDs, !(Int(shape.kindID) < kindIDs.count && kindIDs[Int(shape.kindID)]) {
      return .rejected
    }
    if let nameIDs = filter.nameIDs, !(Int(shape.nameID) < nameIDs.count && nameIDs[Int(shape.nameID)]) {
      return .rejected
    }
    if filter.providerUnknown { return .rejected }
    let present = UInt64(shape.outputs.present)
    let scope = filter.providerBit ?? present
    if filter.providerBit != nil && present & scope == 0 { return .rejected }
    if let status = filter.status {
      let outputs = shape.outputs
      let mask: UInt64
      switch status {
      case .sent: mask = outputs.sent
      case .dropped: mask = outputs.dropped
      case .blocked: mask = outputs.blocked | outputs.disabled
      default: mask = outputs.failed
      }
      if mask & scope == 0 { return .rejected }
    }
    if let sourceIDs = filter.sourceIDs {
      // Id 0 is a record without a source.
      let id = Int(shape.sourceID)
      guard id != 0, id < sourceIDs.count, sourceIDs[id] else { return .rejected }
    }
    if let issues = filter.issues, (shape.flags & IndexEntry.issues != 0) != issues { return .rejected }
    if let violations = filter.violations, shape.flags & IndexEntry.ruleViolations == 0 {
      return violations ? .withPlanViolations : .withoutPlanViolations
    }
    if filter.violations == false { return .rejected }
    return .accepted
  }

  /// The fold of record `index`'s own source as of that record, from the source's nearest keyframe
  /// (at most ``keyframeInterval`` of its records, reached through their links however many other
  /// sources' records lie between), plus the consent records to decode in range.
  func fold(upTo index: Int) -> (FoldState, consentRecords: [Int]) {
    let source = Int(entries.sourceID(at: index))
    let frames = keyframes[source]
    // The last keyframe at or before `index` (binary search: keyframes are in timeline order).
    var low = 0
    var high = frames.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if frames[middle].index <= index { low = middle } else { high = middle - 1 }
    }
    let keyframe = frames[low]
    var positions: [Int] = []
    positions.reserveCapacity(Self.keyframeInterval)
    var position = index
    while true {
      positions.append(position)
      let back = Int(entries.previousInSource(at: position))
      if position <= keyframe.index || back == 0 { break }
      position -= back
    }
    var state = keyframe.state
    var consentRecords: [Int] = []
    for position in positions.reversed() {
      let entry = entries[position]
      let isConsent = Int(entry.kindID) == consentKindID
      state.apply(entry, at: position, isConsent: isConsent, providerNames: providers.strings)
      if isConsent { consentRecords.append(position) }
    }
    return (state, consentRecords)
  }

  /// The source id of the record at `index` (0: no source).
  func sourceID(at index: Int) -> Int { Int(entries.sourceID(at: index)) }
}

extension IndexFields {
  /// The consent decision of a consent record.
  func consentDecision(index: Int) -> ConsentDecision? {
    guard kind == RecordKind.consent.rawValue, let consentScope, let consentGranted else { return nil }
    return ConsentDecision(scope: consentScope, granted: consentGranted, index: index)
  }
}
