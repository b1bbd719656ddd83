import Foundation
import TagscopeRecording
import TagscopeServer

/// The delivery ledger's matching, without its lock: in-app calls and wire calls in, each call's
/// state out. Times are milliseconds since 1970.
///
/// The rule (`tagscope help listen`, DELIVERY): a call and a wire call whose SDK message ids are
/// equal are one; a call without an id is the wire call of its provider with its name and
/// parameters, from a device that may be its own (a device paired with other wire sources is not),
/// for the same user, within the window of it by the device's clock or by the Mac's (each source's
/// clock offset taken from its records). Two identical calls within one window, or a call with two
/// such wire calls, are ambiguous, with every wire call they could be: never guessed.
///
/// Entries are compact (``Call``, ``Wire``: numbers into ``names``), and a call looks only
/// through the index entries of its kind with its parameters' fingerprint (``DeliveryLane``).
struct DeliveryBook {
  let window: Int64
  /// Providers a wire source is configured for, besides those seen on the wire.
  let configuredProviders: Set<String>
  /// The most settled calls of one device kept for lookup (``keep(_:)``).
  let keptSettled: Int
  private(set) var calls = DeliveryShelf<Call>()
  private(set) var wires = DeliveryShelf<Wire>()
  private(set) var names = DeliveryNames()
  /// Why a call is in its state (dropped by the SDK, lost, ambiguous), by call number.
  private(set) var reasons: [Int32: String] = [:]
  /// The wire calls an ambiguous call could be, by call number.
  private(set) var candidates: [Int32: [Int32]] = [:]
  /// By wire call: how many kept ambiguous calls list it among their candidates (it is let go of
  /// with the last of them).
  private var candidateHolders: [Int32: Int32] = [:]
  /// Index entries the matching has looked through so far (the bound tests count it).
  private(set) var scanned = 0
  /// Each matching kind's index, and its provider.
  private var lanes: [DeliveryLane] = []
  private var laneProviders: [Int32] = []
  /// By provider number: whether a wire source can show its calls.
  private var wireSource: [Bool] = []
  private var callByID: [MessageKey: Int32] = [:]
  private var wireByID: [MessageKey: Int32] = [:]
  /// The message ids of the calls that carry some, while kept: a retry of their message finds them
  /// in `callByID` again.
  private var idsOf: [Int32: [MessageKey]] = [:]
  /// The wire sources each device's calls of a provider went through, by device and provider
  /// number (``pairedSources(_:)``): a few each, looked through without hashing.
  private var pairs: [[[Int32]]] = []
  /// Calls that may be queued or in flight: every such call, and some settled since
  /// (``listUnsettled(_:)``).
  private var unsettledList: [Int32] = []
  private var compactedSize = 0
  /// By device: its settled calls kept, oldest first from `start` (``keep(_:)``).
  private var keptByDevice: [(numbers: [Int32], start: Int)] = []
  /// The calls let go of (``keep(_:)``), counted by provider and device (``pairKey(_:)``) and
  /// state (by its place in ``DeliveryState/allCases``).
  private(set) var retiredCounts: [Int64: [Int]] = [:]
  /// By wire source: its wire calls no call holds (unexplained, a message sent again, an attempt
  /// before a retry), oldest first from `start` (``keepLone(_:)``).
  private var loneWires: [(numbers: [Int32], start: Int)] = []
  /// The message ids of the unexplained wire calls in `wireByID`, while kept.
  private var idsOfWire: [Int32: [MessageKey]] = [:]
  /// The unexplained wire calls let go of (``keepLone(_:)``), by matching kind, one entry for
  /// each wire source: how many, and the newest one's time.
  private(set) var retiredUnexplained: [Int32: [LetGo]] = [:]

  /// Unexplained wire calls of one source and kind let go of (``keepLone(_:)``).
  struct LetGo {
    var source: Int32
    var provider: Int32
    var count = 0
    /// The newest one's time (its ``Wire/time``).
    var newest = Int64.min
  }

  private struct MessageKey: Hashable {
    var provider: Int32
    var id: String
  }

  init(window: Int64, configuredProviders: Set<String>, keptSettled: Int) {
    self.window = window
    self.configuredProviders = configuredProviders
    self.keptSettled = keptSettled
  }

  // MARK: Facts

  /// Applies `batch`: its names first, then each fact in order.
  mutating func apply(_ batch: DeliveryBatch) {
    names.adopt(batch.names)
    while wireSource.count < names.providers.count {
      wireSource.append(configuredProviders.contains(names.providers[wireSource.count]))
    }
    for provider in batch.wireProviders where !wireSource[Int(provider)] {
      wireSource[Int(provider)] = true
      indexQueuedCalls(of: provider)
    }
    var (callFacts, wireFacts) = (0, 0)
    for fact in batch.facts {
      if fact.kind == .wire { wireFacts += 1 } else if fact.kind != .clock { callFacts += 1 }
    }
    calls.reserve(callFacts)
    wires.reserve(wireFacts)
    for fact in batch.facts {
      if fact.startsRecord {
        names.noteClock(source: fact.source, time: fact.time, received: batch.received)
        if fact.restarts { loseQueued(of: fact.source) }
      }
      let ids = fact.extra >= 0 && fact.kind != .droppedCall ? batch.ids[Int(fact.extra)] : []
      switch fact.kind {
      case .call: addCall(fact, ids: ids)
      case .droppedCall: addCall(fact, reason: batch.reasons[Int(fact.extra)])
      case .wire: addWire(fact, ids: ids, received: batch.received)
      case .clock: break
      }
    }
  }

  // MARK: Calls

  /// Adds in-app call `fact` (its SDK message ids `ids`), or, with a `reason`, a call its SDK drops.
  private mutating func addCall(_ fact: DeliveryFact, ids: [String] = [], reason: String? = nil) {
    let number = calls.append(
      Call(
        position: fact.position, called: fact.time, print: fact.print, label: fact.label,
        device: fact.source, user: fact.user, callIndex: fact.callIndex,
        state: reason == nil ? .queued : .droppedBySDK))
    if let reason {
      reasons[number] = reason
      calls.update(number) { $0.hasNotes = true }
      return keep(number)
    }
    listUnsettled(number)
    matchCall(number, provider: names.labels[Int(fact.label)].provider, ids: ids)
    if !retiredUnexplained.isEmpty, calls[number].state == .queued { noteLetGoWires(number) }
  }

  /// Queued call `number` came after unexplained wire calls that could have carried it
  /// were let go of (``keepLone(_:)``: an inspector that connected after its app's SDK had sent
  /// them): its reason says so, since no wire call can match it now (one that comes later still
  /// does, and takes the reason away).
  private mutating func noteLetGoWires(_ number: Int32) {
    let call = calls[number]
    let (paired, mac, kind) = (pairedSources(call), macTime(of: number), names.labels[Int(call.label)].kind)
    var (count, sources) = (0, [String]())
    for letGo in retiredUnexplained[kind] ?? [] {
      let source = letGo.source
      guard paired.isEmpty || paired.contains(source) else { continue }
      // The newest let go of is as late as any: a call later than it by more than the window
      // could not have been any of them, by either clock.
      let offset = names.offsets[Int(source)]
      guard call.called <= letGo.newest + window || mac <= letGo.newest + offset + window else { continue }
      count += letGo.count
      sources.append(names.sources[Int(source)])
    }
    guard count > 0 else { return }
    reasons[number] =
      "its wire call may be one of \(count) wire call\(count == 1 ? "" : "s") of \(sources.sorted().joined(separator: ", ")) "
      + "let go of unexplained before it arrived"
    calls.update(number) { $0.hasNotes = true }
  }

  private mutating func matchCall(_ number: Int32, provider: Int32, ids: [String]) {
    let call = calls[number]
    if !ids.isEmpty {
      let keys = ids.map { MessageKey(provider: provider, id: $0) }
      idsOf[number] = keys
      calls.update(number) { $0.hasNotes = true }
      for key in keys { callByID[key] = number }
      for key in keys {
        if let wire = wireByID.removeValue(forKey: key), isFree(wire) {
          return link(number, wire, learning: true)
        }
      }
      return
    }
    let kind = lane(of: call.label)
    prune(kind, before: call.called - 2 * window)
    var siblings: [Int32] = []
    var free: [Int32] = []
    let (printed, unprinted) = (
      lanes[kind].wires(printed: call.print), lanes[kind].newestUnprintedWires(Self.indexLimit)
    )
    var (twinCount, printedCount, gone) = (0, 0, 0)
    let horizon = call.called - 2 * window
    // Each twin's time and user are the lane's: its entry in the book is read only when it may
    // be identical (within the window, the same user) or may have left (two windows before).
    lanes[kind].forEachCall(printed: call.print) { other, called, user in
      twinCount += 1
      let near = abs(called - call.called) <= window && user == call.user
      guard near || called < horizon else { return }
      guard let twin = calls.keptEntry(other) else {
        gone += 1
        return
      }
      if near {
        if mayShareSource(twin, call) { siblings.append(other) }
      } else if Self.isOut(twin, before: horizon) {
        gone += 1
      }
    }
    for wire in printed {
      printedCount += 1
      if isFree(wire) && fits(number, wire, print: call.print) { free.append(wire) }
    }
    for wire in unprinted where isFree(wire) && fits(number, wire, print: nil) { free.append(wire) }
    scanned += twinCount + printedCount + unprinted.count
    // Mostly calls settled long ago (the lane is pruned only when it doubles, and calls still
    // queued can keep it large): they leave the fingerprint's entries, so a look-up goes through
    // the live ones and, once, each one gone.
    if gone >= 16, 2 * gone >= twinCount {
      let shelf = calls
      lanes[kind].removeCalls(printed: call.print) {
        !shelf.isKept($0) || Self.isOut(shelf[$0], before: horizon)
      }
    }
    // A fingerprint's entries past twice the bound: its oldest leave the index (each look-up
    // stays bounded however long the kind's lane grows between prunings).
    if twinCount > 2 * Self.indexLimit { lanes[kind].keepLastCalls(Self.indexLimit, printed: call.print) }
    if printedCount > 2 * Self.indexLimit { lanes[kind].keepLastWires(Self.indexLimit, printed: call.print) }
    lanes[kind].addCall(
      number, DeliveryLane.CallFacts(print: call.print, called: call.called, user: call.user))
    if !siblings.isEmpty {
      makeAmbiguous(siblings + [number], adding: free)
    } else if free.count == 1 {
      link(number, free[0], learning: true)
    } else if free.count > 1 {
      makeAmbiguous([number], adding: free)
    }
  }

  /// Whether the SDK never sends a call breaking `violation` as called: a rule whose consequence is
  /// `dropped`, or an event name the SDK replaces by its own error event (Firebase's
  /// `firebase_error` for a name over 40 characters).
  static func dropsTheCall(_ violation: RecordViolation) -> Bool {
    violation.consequence == "dropped"
      || (violation.consequence == "replaced" && violation.rule.contains(".event-name"))
  }

  // MARK: Wire calls

  /// Adds wire call `fact` (its SDK message ids `ids`), received at `received`.
  private mutating func addWire(_ fact: DeliveryFact, ids: [String], received: Int64) {
    var wire = Wire(
      position: fact.position, time: fact.time, label: fact.label, source: fact.source,
      user: fact.user, printed: fact.printed)
    if fact.answered { (wire.status, wire.answeredAt) = (200, received) }
    let index = wires.append(wire)
    matchWire(
      index, print: fact.printed ? fact.print : nil, provider: names.labels[Int(fact.label)].provider,
      ids: ids)
  }

  /// Matches wire call `index`, with fingerprint `print` (`nil`: its properties are not mapped;
  /// the shelf does not keep it: the lane's index does, for the wire calls it lists).
  private mutating func matchWire(_ index: Int32, print: Int?, provider: Int32, ids: [String]) {
    let wire = wires[index]
    // No call with message ids yet (most streams): the look-up would only hash each id.
    for id in ids where !callByID.isEmpty {
      guard let number = callByID[MessageKey(provider: provider, id: id)], calls.isKept(number) else {
        continue
      }
      switch calls[number].state {
      case .queued, .lost: return link(number, index, learning: true)
      case _ where isRetried(number, index, print: print, byID: true): return retry(number, index)
      default:
        // Its message again, after its fate was known: a duplicate the call explains.
        wires.update(index) { $0.call = number }
        return keepLone(index)
      }
    }
    let kind = lane(of: wire.label)
    prune(kind, before: .min)
    var found: [Int32] = []
    var retried: [Int32] = []
    if let print {
      let numbers = lanes[kind].calls(printed: print)
      var count = 0
      for number in numbers {
        count += 1
        if isCandidate(number, index, print: print) { found.append(number) }
      }
      scanned += count
      if found.isEmpty { retried = numbers.filter { isRetried($0, index, print: print, byID: false) } }
      if count > 2 * Self.indexLimit { lanes[kind].keepLastCalls(Self.indexLimit, printed: print) }
    } else {
      let numbers = lanes[kind].newestCalls(Self.indexLimit)
      scanned += numbers.count
      for number in numbers where isCandidate(number, index, print: nil) { found.append(number) }
      if found.isEmpty { retried = numbers.filter { isRetried($0, index, print: nil, byID: false) } }
    }
    if found.count == 1, calls[found[0]].state != .ambiguous {
      return link(found[0], index, learning: true)
    }
    if !found.isEmpty { return makeAmbiguous(found, adding: [index]) }
    if retried.count == 1 { return retry(retried[0], index) }
    lanes[kind].addWire(index, print: print)
    if !ids.isEmpty {
      let keys = ids.map { MessageKey(provider: provider, id: $0) }
      for key in keys { wireByID[key] = index }
      idsOfWire[index] = keys
    }
    keepLone(index)
  }

  /// Whether call `number` may still be the call wire call `wire` (fingerprint `print`) carries.
  private func isCandidate(_ number: Int32, _ wire: Int32, print: Int?) -> Bool {
    guard calls.isKept(number) else { return false }
    let state = calls[number].state
    return (state == .queued || state == .lost || state == .ambiguous) && fits(number, wire, print: print)
  }

  /// Whether wire call `wire` (fingerprint `print`) is the SDK's retry of call `number`'s
  /// message: the call's last wire call, earlier and from the same wire source (by its id: from
  /// any), went unanswered or was answered 5xx or 429 (an SDK retries those; another 4xx it drops).
  private func isRetried(_ number: Int32, _ wire: Int32, print: Int?, byID: Bool) -> Bool {
    guard calls.isKept(number) else { return false }
    let call = calls[number]
    guard call.state == .inFlight || call.state == .refused, call.wire >= 0, call.wire != wire else {
      return false
    }
    let last = wires[call.wire]
    guard last.status == 0 || last.status >= 500 || last.status == 429 else { return false }
    if byID { return true }
    return last.source == wires[wire].source && last.position < wires[wire].position
      && fits(number, wire, print: print)
  }

  /// Call `number` follows wire call `wire`, the SDK's retry of its message: in flight, or
  /// settled by its answer (its attempt before stays explained by it).
  private mutating func retry(_ number: Int32, _ wire: Int32) {
    keepLone(calls[number].wire)
    calls.update(number) { $0.wire = wire }
    wires.update(wire) { $0.call = number }
    settle(number)
  }

  /// The vendor's answer to the wire record at `position`, for each of its wire calls (through
  /// the proxy; offline, a recording's answer line, which corrects the success its wire record was
  /// taken with). Its wire calls are found by position on the shelf (no table of the unanswered
  /// beside: a wire call in flight keeps no more than its entry).
  mutating func answer(position: Int, status: Int, at time: Int64) {
    // One settling may let go of another wire call of the record.
    for index in wires.numbers(where: position) where wires.isKept(index) {
      wires.update(index) { ($0.status, $0.answeredAt) = (Int32(clamping: status), time) }
      if wires[index].call >= 0 { settle(wires[index].call) }
    }
  }

  // MARK: Ends

  /// The session ended: every call still queued is lost (or has no wire source), and every call
  /// still in flight is lost too (its wire call was sent, but no answer says it reached the
  /// vendor: the SDK's connection went away, or the session ended first); an answer that still
  /// comes settles it.
  mutating func finish() {
    for number in unsettledList where calls.isKept(number) {
      switch calls[number].state {
      case .queued where hasWireSource(calls[number]):
        calls.update(number) { $0.state = .lost }
        if reasons[number] == nil { reasons[number] = "the session ended before it was sent" }
        calls.update(number) { $0.hasNotes = true }
        keep(number)
      case .queued: calls.update(number) { $0.state = .noWireSource }
      case .inFlight:
        calls.update(number) { $0.state = .lost }
        reasons[number] = "the session ended before the vendor answered it"
        calls.update(number) { $0.hasNotes = true }
        keep(number)
      default: break
      }
    }
    compactUnsettled()
  }

  /// Whether a wire source can show the provider of `call`'s calls.
  func hasWireSource(_ call: Call) -> Bool {
    wireSource[Int(names.labels[Int(call.label)].provider)]
  }

  /// Whether some call numbered below `count` is in flight, or queued with a wire source that
  /// can show it.
  func hasUnsettled(below count: Int) -> Bool {
    unsettledList.contains {
      guard Int($0) < count, calls.isKept($0) else { return false }
      let call = calls[$0]
      return call.state == .inFlight || (call.state == .queued && hasWireSource(call))
    }
  }

  /// When call `number` was made by the Mac's clock: its device's time plus the device's offset
  /// as known now (the smallest `received − time` of its records so far).
  func macTime(of number: Int32) -> Int64 {
    calls[number].called + names.offsets[Int(calls[number].device)]
  }

  // MARK: Matching

  private mutating func link(_ number: Int32, _ wire: Int32, learning: Bool) {
    // A lost call's reason, or a queued one's note of wire calls let go of, no longer holds.
    if calls[number].state == .lost || calls[number].state == .queued { reasons[number] = nil }
    calls.update(number) { $0.wire = wire }
    wires.update(wire) { $0.call = number }
    if learning {
      let device = Int(calls[number].device)
      let provider = Int(names.labels[Int(calls[number].label)].provider)
      let source = wires[wire].source
      while pairs.count <= device { pairs.append([]) }
      while pairs[device].count <= provider { pairs[device].append([]) }
      if !pairs[device][provider].contains(source) { pairs[device][provider].append(source) }
    }
    settle(number)
  }

  /// Sets a linked call's state from its wire call's answer.
  private mutating func settle(_ number: Int32) {
    let wire = calls[number].wire
    guard wire >= 0 else { return }
    if let answer = wires[wire].answer {
      if calls[number].state == .lost { reasons[number] = nil }
      calls.update(number) { $0.state = answer.status < 400 ? .delivered : .refused }
      keep(number)
    } else {
      calls.update(number) { $0.state = .inFlight }
      listUnsettled(number)
    }
  }

  /// `numbers` and every wire call they were or could be, ambiguous together.
  private mutating func makeAmbiguous(_ numbers: [Int32], adding extra: [Int32]) {
    var group = extra
    for number in numbers {
      if calls[number].wire >= 0 { group.append(calls[number].wire) }
      group += candidates[number] ?? []
    }
    group = Array(Set(group)).sorted()
    for wire in group {
      wires.update(wire) {
        $0.ambiguous = true
        $0.call = -1
      }
    }
    let reason = "\(numbers.count) identical calls, \(group.count) wire calls in one window"
    for wire in group { candidateHolders[wire, default: 0] += Int32(numbers.count) }
    for number in numbers {
      for wire in candidates[number] ?? [] { candidateHolders[wire, default: 0] -= 1 }
      calls.update(number) {
        $0.state = .ambiguous
        $0.wire = -1
      }
      candidates[number] = group
      reasons[number] = reason
      calls.update(number) { $0.hasNotes = true }
      // Settled for the bound: kept like the others, then only counted.
      keep(number)
    }
  }

  /// Whether the wire call `wire`, with fingerprint `print` (`nil`: its properties are not
  /// mapped; the caller's: the lane's index or the wire call's fact), may carry call `number`:
  /// same kind (the caller's index), the same parameters when the wire's are known, the same user
  /// when both say, a device that may be its own, within the window by the device's clock or the
  /// Mac's.
  private func fits(_ number: Int32, _ wire: Int32, print: Int?) -> Bool {
    let (call, candidate) = (calls[number], wires[wire])
    if let print, print != call.print { return false }
    if call.user != 0, candidate.user != 0, call.user != candidate.user { return false }
    let paired = pairedSources(call)
    if !paired.isEmpty, !paired.contains(candidate.source) { return false }
    let wireTime = candidate.time + names.offsets[Int(candidate.source)]
    return abs(call.called - candidate.time) <= window || abs(macTime(of: number) - wireTime) <= window
  }

  /// Whether calls `first` and `second` (of one kind, with one fingerprint, within one window,
  /// for one user: identical) could share a wire source.
  private func mayShareSource(_ first: Call, _ second: Call) -> Bool {
    let (left, right) = (pairedSources(first), pairedSources(second))
    return left.isEmpty || right.isEmpty || left.contains(where: right.contains)
  }

  /// The wire sources `call`'s device's calls of its provider went through (none learnt yet:
  /// empty).
  private func pairedSources(_ call: Call) -> [Int32] {
    let (device, provider) = (Int(call.device), Int(names.labels[Int(call.label)].provider))
    guard device < pairs.count, provider < pairs[device].count else { return [] }
    return pairs[device][provider]
  }

  /// No calls of any state, by place in ``DeliveryState/allCases``.
  private static let noCounts = [Int](repeating: 0, count: DeliveryState.allCases.count)

  /// The key of `call`'s device and provider in ``retiredCounts``.
  private func pairKey(_ call: Call) -> Int64 {
    Int64(call.device) << 32 | Int64(names.labels[Int(call.label)].provider)
  }

  /// The lane of `label`'s kind (made if new).
  private mutating func lane(of label: Int32) -> Int {
    let kind = Int(names.labels[Int(label)].kind)
    while lanes.count <= kind {
      lanes.append(DeliveryLane())
      laneProviders.append(-1)
    }
    laneProviders[kind] = names.labels[Int(label)].provider
    return kind
  }

  /// Lets go of the calls of lane `kind` settled before `time` (queued and lost ones stay
  /// matchable), and of its wire calls explained since. Runs when the lane doubled since its last
  /// run, so each call pays a constant share; past ``indexLimit`` entries with one fingerprint
  /// the oldest of them leave the index (they stay in the ledger: a call no later wire call can
  /// match is lost at the end).
  private mutating func prune(_ kind: Int, before time: Int64, earlier: [Int32] = []) {
    guard lanes[kind].needsPruning || !earlier.isEmpty else { return }
    scanned += lanes[kind].size + earlier.count
    var lane = lanes[kind]
    lanes[kind] = DeliveryLane()
    lane.prune(
      limit: Self.indexLimit, perFingerprint: wireSource[Int(laneProviders[kind])], earlier: earlier,
      keptCall: {
        // Its entry read once: kept, not out, and its facts.
        guard let call = calls.keptEntry($0), !Self.isOut(call, before: time) else { return nil }
        return DeliveryLane.CallFacts(print: call.print, called: call.called, user: call.user)
      },
      keepWire: { isFree($0) })
    lanes[kind] = lane
  }

  /// Provider `provider` has its first wire source: its queued calls the lanes let go of while
  /// none could come (``DeliveryLane``) are indexed again, each lane bounded per fingerprint now.
  private mutating func indexQueuedCalls(of provider: Int32) {
    var byKind: [Int: [Int32]] = [:]
    for number in unsettledList where calls.isKept(number) && calls[number].state == .queued {
      // A call with message ids is matched by them, never through a lane.
      let label = calls[number].label
      guard names.labels[Int(label)].provider == provider, idsOf[number] == nil else { continue }
      byKind[lane(of: label), default: []].append(number)
    }
    for (kind, numbers) in byKind { prune(kind, before: .min, earlier: numbers) }
  }

  /// Whether `call` is settled and made before `time`: a lane's pruning lets go of it
  /// (``prune(_:before:earlier:)``; queued and lost calls stay matchable).
  private static func isOut(_ call: Call, before time: Int64) -> Bool {
    call.state != .queued && call.state != .lost && call.called < time
  }

  /// The most calls (and wire calls) with one kind and fingerprint the matching looks through
  /// (and, for a wire call whose parameters are not read, the most calls of its kind).
  static let indexLimit = 256

  /// Notes that call `number` may be queued or in flight; the list lets go of settled calls when
  /// it doubled since it last did.
  private mutating func listUnsettled(_ number: Int32) {
    guard !calls[number].listed else { return }
    calls.update(number) { $0.listed = true }
    unsettledList.append(number)
    if unsettledList.count > 64, unsettledList.count >= 2 * compactedSize { compactUnsettled() }
  }

  private mutating func compactUnsettled() {
    var kept: [Int32] = []
    kept.reserveCapacity(unsettledList.count)
    for number in unsettledList {
      // Each call looked up once: whether it is kept, its state, its mark.
      let stays = calls.updateIfKept(number) { call in
        guard call.state != .queued && call.state != .inFlight else { return true }
        call.listed = false
        return false
      }
      if stays == true { kept.append(number) }
    }
    unsettledList = kept
    compactedSize = kept.count
  }

  /// A new run of `device`'s app: its calls still queued from the runs before are lost.
  private mutating func loseQueued(of device: Int32) {
    for number in unsettledList
    where calls.isKept(number) && calls[number].device == device && calls[number].state == .queued {
      calls.update(number) { $0.state = .lost }
      // A note of wire calls let go of that may have carried it stays: it may have been sent.
      if reasons[number] == nil { reasons[number] = "the app restarted before it was sent" }
      calls.update(number) { $0.hasNotes = true }
      keep(number)
    }
  }

  /// Whether wire call `wire` is kept and no call explains it yet.
  private func isFree(_ wire: Int32) -> Bool { wires.isKept(wire) && !wires[wire].isExplained }

  // MARK: Kept entries

  /// Notes that call `number` settled (delivered, refused, dropped by the SDK, lost, ambiguous): its device
  /// keeps its last ``keptSettled`` settled calls, and any made within two windows of the one
  /// settling now; older ones are let go of with their wire calls, only counted (no wire call can
  /// be theirs any more, nor a new call their twin).
  private mutating func keep(_ number: Int32) {
    // Looked up once: marked kept, its device and time read.
    let marked = calls.update(number) { call -> (device: Int, called: Int64)? in
      guard !call.kept else { return nil }
      call.kept = true
      return (Int(call.device), call.called)
    }
    guard let (device, called) = marked else { return }
    while keptByDevice.count <= device { keptByDevice.append(([], 0)) }
    keptByDevice[device].numbers.append(number)
    let horizon = called - 2 * window
    while keptByDevice[device].numbers.count - keptByDevice[device].start > keptSettled {
      let oldest = keptByDevice[device].numbers[keptByDevice[device].start]
      guard calls[oldest].called < horizon else { break }
      keptByDevice[device].start += 1
      retire(oldest)
    }
    let start = keptByDevice[device].start
    if start >= 1024, 2 * start >= keptByDevice[device].numbers.count {
      keptByDevice[device].numbers.removeFirst(start)
      keptByDevice[device].start = 0
    }
  }

  /// Notes that wire call `index` is one no call holds (unexplained, a duplicate, an earlier
  /// attempt): its source keeps its last ``keptSettled`` such wire calls, and any sent within two
  /// windows of this one; older ones are let go of, an unexplained one counted (a call that comes
  /// later can no longer be it). One a call took since stays with the call, an ambiguous one with
  /// its calls.
  private mutating func keepLone(_ index: Int32) {
    let source = Int(wires[index].source)
    while loneWires.count <= source { loneWires.append(([], 0)) }
    loneWires[source].numbers.append(index)
    let horizon = wires[index].time - 2 * window
    while loneWires[source].numbers.count - loneWires[source].start > keptSettled {
      let oldest = loneWires[source].numbers[loneWires[source].start]
      if wires.isKept(oldest) {
        guard wires[oldest].time < horizon else { break }
        let wire = wires[oldest]
        if !wire.isExplained {
          noteLetGo(wire)
          for key in idsOfWire[oldest] ?? [] where wireByID[key] == oldest { wireByID[key] = nil }
          retireWire(oldest)
        } else if !wire.ambiguous, wire.call >= 0, !calls.isKept(wire.call) || calls[wire.call].wire != oldest
        {
          retireWire(oldest)
        }
      }
      idsOfWire[oldest] = nil
      loneWires[source].start += 1
    }
    let start = loneWires[source].start
    if start >= 1024, 2 * start >= loneWires[source].numbers.count {
      loneWires[source].numbers.removeFirst(start)
      loneWires[source].start = 0
    }
  }

  /// Counts unexplained wire call `wire`, let go of, by its kind and source.
  private mutating func noteLetGo(_ wire: Wire) {
    let label = names.labels[Int(wire.label)]
    var sources = retiredUnexplained.removeValue(forKey: label.kind) ?? []
    if let place = sources.firstIndex(where: { $0.source == wire.source }) {
      sources[place].count += 1
      sources[place].newest = max(sources[place].newest, wire.time)
    } else {
      sources.append(LetGo(source: wire.source, provider: label.provider, count: 1, newest: wire.time))
    }
    retiredUnexplained[label.kind] = sources
  }

  /// Lets go of wire call `index`.
  private mutating func retireWire(_ index: Int32) { wires.retire(index) }

  /// The side tables' entries (the bound test's measure): message ids, reasons, candidates and
  /// the lists of calls and wire calls kept.
  var sideTableCount: Int {
    callByID.count + wireByID.count + idsOf.count + idsOfWire.count + reasons.count
      + candidates.count + candidateHolders.count + unsettledList.count
      + keptByDevice.reduce(0) { $0 + $1.numbers.count - $1.start }
      + loneWires.reduce(0) { $0 + $1.numbers.count - $1.start }
  }

  /// Lets go of call `number` (and its wire call; an ambiguous one's candidates with the last call
  /// listing them), counted, if it is still settled.
  private mutating func retire(_ number: Int32) {
    calls.update(number) { $0.kept = false }
    let call = calls[number]
    switch call.state {
    case .delivered, .refused, .droppedBySDK, .lost, .ambiguous: break
    default: return
    }
    retiredCounts[pairKey(call), default: Self.noCounts][call.state.place] += 1
    if call.wire >= 0 { retireWire(call.wire) }
    if call.hasNotes { forgetNotes(of: number) }
    calls.retire(number)
  }

  /// Lets go of the side tables' entries of call `number` (retired): its reason, its message ids,
  /// and, with the last call listing them, an ambiguous call's candidates.
  private mutating func forgetNotes(of number: Int32) {
    for wire in candidates.removeValue(forKey: number) ?? [] {
      let holders = (candidateHolders[wire] ?? 1) - 1
      guard holders <= 0 else {
        candidateHolders[wire] = holders
        continue
      }
      candidateHolders[wire] = nil
      guard wires.isKept(wire) else { continue }
      for key in idsOfWire.removeValue(forKey: wire) ?? [] where wireByID[key] == wire { wireByID[key] = nil }
      retireWire(wire)
    }
    for key in idsOf.removeValue(forKey: number) ?? [] where callByID[key] == number { callByID[key] = nil }
    reasons[number] = nil
  }

}
