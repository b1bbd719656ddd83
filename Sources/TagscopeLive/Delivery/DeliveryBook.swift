import Foundation
import TagscopeRecording

/// The delivery ledger's matching, without its lock: in-app calls and wire calls in, each call's
/// state out. Times are milliseconds since 1970.
///
/// The rule (`tagscope help listen`, DELIVERY): a call and a wire call whose SDK message ids are
/// equal are one; a call without an id is the wire call of its provider with its name and
/// parameters, from a device that may be its own (a device paired with other wire sources is not),
/// for the same user, within the window of it by the device's clock or by the Mac's (each source's
/// clock offset taken from its records). Two identical calls within one window, or a call with two
/// such wire calls, are ambiguous, with every wire call they could be: never guessed.
struct DeliveryBook {
  struct Call {
    var position: Int
    var callIndex: Int
    var provider: String
    var method: String
    var name: String?
    var device: String
    var run: String?
    /// By the device's clock.
    var called: Int64
    var facts: DeliveryFacts
    var state: DeliveryState
    var wire: Int?
    var reason: String?
    var candidates: [Int] = []
  }

  struct Wire {
    var position: Int
    var provider: String
    var method: String
    var name: String?
    var source: String
    var time: Int64
    var facts: DeliveryFacts
    var answer: (status: Int, at: Int64)?
    var call: Int?
    var ambiguous = false

    var isExplained: Bool { call != nil || ambiguous }
  }

  let window: Int64
  /// Providers a wire source is configured for, besides those seen on the wire.
  let configuredProviders: Set<String>
  private(set) var calls: [Call] = []
  private(set) var wires: [Wire] = []
  private(set) var wireProviders: Set<String> = []
  /// Calls without ids that a later call or wire call may still match (by key), pruned.
  private var pendingByKey: [String: [Int]] = [:]
  /// Wire calls no call explains yet (by key; explained ones are skipped, then pruned).
  private var unexplainedByKey: [String: [Int]] = [:]
  /// Index entries the matching has looked through so far (the bound tests count it).
  private(set) var scanned = 0
  /// Each key's index size after its last ``prune(_:before:)``.
  private var prunedSize: [String: Int] = [:]
  private var callByID: [String: Int] = [:]
  private var wireByID: [String: Int] = [:]
  private var unansweredWire: [Int: Int] = [:]
  /// The wire sources each device's calls of a provider went through (`device␟provider`).
  private var pairs: [String: Set<String>] = [:]
  /// Each source's smallest `received − time`: its clock's offset from the Mac's, plus transit.
  private var offsets: [String: Int64] = [:]
  private var runs: [String: String] = [:]
  /// Calls queued or in flight.
  private(set) var unsettled: Set<Int> = []

  init(window: Int64, configuredProviders: Set<String>) {
    self.window = window
    self.configuredProviders = configuredProviders
  }

  // MARK: Calls

  /// Adds the calls of in-app `record` at `position`, received at `received`.
  mutating func addInApp(_ record: Record, at position: Int, received: Int64) {
    let device = record.source ?? "app"
    noteOffset(device, time: record.timeMilliseconds, received: received)
    if case .string(let run)? = record.extra["run"] { noteRun(run, device: device) }
    for output in record.outputs where output.status == .sent {
      for (index, call) in output.calls.enumerated() {
        let dropping = output.violations.first {
          Self.dropsTheCall($0) && ($0.callIndex == nil || $0.callIndex == index)
        }
        var entry = Call(
          position: position, callIndex: index, provider: output.provider, method: call.method,
          name: call.name,
          device: device, run: record.extra["run"]?.stringValue, called: record.timeMilliseconds,
          facts: DeliveryFacts(inApp: call, provider: output.provider, user: record.context.session?.user),
          state: .queued)
        if let dropping {
          entry.state = .droppedBySDK
          entry.reason = dropping.rule
          calls.append(entry)
          continue
        }
        calls.append(entry)
        let number = calls.count - 1
        unsettled.insert(number)
        matchCall(number)
      }
    }
  }

  private mutating func matchCall(_ number: Int) {
    let call = calls[number]
    if !call.facts.ids.isEmpty {
      for id in call.facts.ids {
        let key = call.provider + "\u{1F}" + id
        if let wire = wireByID.removeValue(forKey: key), !wires[wire].isExplained {
          return link(number, wire, learning: true)
        }
      }
      for id in call.facts.ids { callByID[call.provider + "\u{1F}" + id] = number }
      return
    }
    prune(call.facts.key, before: call.called - 2 * window)
    scanned += (pendingByKey[call.facts.key]?.count ?? 0) + (unexplainedByKey[call.facts.key]?.count ?? 0)
    let siblings = (pendingByKey[call.facts.key] ?? []).filter { isIdentical($0, number) }
    let free = (unexplainedByKey[call.facts.key] ?? []).filter {
      !wires[$0].isExplained && fits(number, $0)
    }
    pendingByKey[call.facts.key, default: []].append(number)
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

  /// Adds the calls of wire `record` at `position`, received at `received`; `answered`: `listen`
  /// answered it itself (no vendor behind), with success, at `received`.
  mutating func addWire(_ record: Record, at position: Int, received: Int64, answered: Bool) {
    let source = record.source ?? "-"
    noteOffset(source, time: record.timeMilliseconds, received: received)
    for output in record.outputs {
      wireProviders.insert(output.provider)
      for call in output.calls {
        let wire = Wire(
          position: position, provider: output.provider, method: call.method, name: call.name, source: source,
          time: record.timeMilliseconds,
          facts: DeliveryFacts(
            wire: call, provider: output.provider, raw: record.raw ?? "", user: record.context.session?.user),
          answer: answered ? (200, received) : nil)
        wires.append(wire)
        let index = wires.count - 1
        if !answered { unansweredWire[position] = index }
        matchWire(index)
      }
    }
  }

  private mutating func matchWire(_ index: Int) {
    let wire = wires[index]
    for id in wire.facts.ids {
      if let number = callByID.removeValue(forKey: wire.provider + "\u{1F}" + id) {
        return link(number, index, learning: true)
      }
    }
    scanned += pendingByKey[wire.facts.key]?.count ?? 0
    let candidates = (pendingByKey[wire.facts.key] ?? []).filter {
      let state = calls[$0].state
      return (state == .queued || state == .lost || state == .ambiguous) && fits($0, index)
    }
    if candidates.count == 1, calls[candidates[0]].state != .ambiguous {
      return link(candidates[0], index, learning: true)
    }
    if !candidates.isEmpty { return makeAmbiguous(candidates, adding: [index]) }
    unexplainedByKey[wire.facts.key, default: []].append(index)
    for id in wire.facts.ids { wireByID[wire.provider + "\u{1F}" + id] = index }
  }

  /// The vendor's answer to the wire record at `position` (through the proxy).
  mutating func answer(position: Int, status: Int, at time: Int64) {
    guard let index = unansweredWire.removeValue(forKey: position) else { return }
    wires[index].answer = (status, time)
    if let number = wires[index].call { settle(number) }
  }

  // MARK: Ends

  /// The session ended: every call still queued is lost (or has no wire source).
  mutating func finish() {
    for number in unsettled where calls[number].state == .queued {
      calls[number].state = hasWireSource(calls[number].provider) ? .lost : .noWireSource
      calls[number].reason =
        calls[number].state == .lost ? "the session ended before it was sent" : "no wire source for it"
      unsettled.remove(number)
    }
  }

  /// Whether a wire source can show `provider`'s calls.
  func hasWireSource(_ provider: String) -> Bool {
    wireProviders.contains(provider) || configuredProviders.contains(provider)
  }

  // MARK: Matching

  private mutating func link(_ number: Int, _ wire: Int, learning: Bool) {
    calls[number].wire = wire
    calls[number].reason = nil
    wires[wire].call = number
    if learning {
      pairs[calls[number].device + "\u{1F}" + calls[number].provider, default: []].insert(wires[wire].source)
    }
    settle(number)
  }

  /// Sets a linked call's state from its wire call's answer.
  private mutating func settle(_ number: Int) {
    guard let wire = calls[number].wire.map({ wires[$0] }) else { return }
    if let answer = wire.answer {
      calls[number].state = answer.status < 400 ? .delivered : .refused
      unsettled.remove(number)
    } else {
      calls[number].state = .inFlight
      unsettled.insert(number)
    }
  }

  /// `numbers` and every wire call they were or could be, ambiguous together.
  private mutating func makeAmbiguous(_ numbers: [Int], adding extra: [Int]) {
    var group = extra
    for number in numbers {
      if let wire = calls[number].wire { group.append(wire) }
      group += calls[number].candidates
    }
    group = Array(Set(group)).sorted()
    for wire in group {
      wires[wire].ambiguous = true
      wires[wire].call = nil
    }
    for number in numbers {
      calls[number].state = .ambiguous
      calls[number].wire = nil
      calls[number].candidates = group
      calls[number].reason = "\(numbers.count) identical calls, \(group.count) wire calls in one window"
      unsettled.remove(number)
    }
  }

  /// Whether the wire call `wire` may carry call `number`: same key (the caller's index), the
  /// same parameters when the wire's are known, the same user when both say, a device that may be
  /// its own, within the window by the device's clock or the Mac's.
  private func fits(_ number: Int, _ wire: Int) -> Bool {
    let (call, candidate) = (calls[number], wires[wire])
    if let print = candidate.facts.fingerprint, print != call.facts.fingerprint { return false }
    if let user = call.facts.user, let other = candidate.facts.user, user != other { return false }
    if let paired = pairs[call.device + "\u{1F}" + call.provider], !paired.contains(candidate.source) {
      return false
    }
    let wireTime = candidate.time + (offsets[candidate.source] ?? 0)
    return abs(call.called - candidate.time) <= window || abs(macTime(of: number) - wireTime) <= window
  }

  /// Whether calls `a` and `b` are identical within one window (and could share a wire source).
  private func isIdentical(_ a: Int, _ b: Int) -> Bool {
    let (first, second) = (calls[a], calls[b])
    guard first.facts.fingerprint == second.facts.fingerprint, abs(first.called - second.called) <= window,
      first.facts.user == second.facts.user
    else { return false }
    let left = pairs[first.device + "\u{1F}" + first.provider] ?? []
    let right = pairs[second.device + "\u{1F}" + second.provider] ?? []
    return left.isEmpty || right.isEmpty || !left.isDisjoint(with: right)
  }

  /// Lets go of the calls of `key` settled before `time` (queued and lost ones stay matchable),
  /// and of its wire calls explained since. Runs when the key's lists doubled since its last run,
  /// so each call pays a constant share; past ``indexLimit`` entries the oldest leave the index
  /// (they stay in the ledger: a call no later wire call can match is lost at the end).
  private mutating func prune(_ key: String, before time: Int64) {
    let size = (pendingByKey[key]?.count ?? 0) + (unexplainedByKey[key]?.count ?? 0)
    guard size > 8, size >= 2 * (prunedSize[key] ?? 0) else { return }
    scanned += size
    if let list = pendingByKey[key] {
      let kept = list.filter {
        let state = calls[$0].state
        return state == .queued || state == .lost || calls[$0].called >= time
      }
      pendingByKey[key] = Array(kept.suffix(Self.indexLimit))
    }
    if let list = unexplainedByKey[key] {
      unexplainedByKey[key] = Array(list.filter { !wires[$0].isExplained }.suffix(Self.indexLimit))
    }
    prunedSize[key] = (pendingByKey[key]?.count ?? 0) + (unexplainedByKey[key]?.count ?? 0)
  }

  /// The most calls (and wire calls) of one key the matching looks through.
  static let indexLimit = 256

  private mutating func noteOffset(_ source: String, time: Int64, received: Int64) {
    offsets[source] = min(offsets[source] ?? .max, received - time)
  }

  /// When call `number` was made by the Mac's clock: its device's time plus the device's offset
  /// as known now (the smallest `received − time` of its records so far).
  func macTime(of number: Int) -> Int64 {
    calls[number].called + (offsets[calls[number].device] ?? 0)
  }

  /// A new run of `device`'s app: its calls still queued from the runs before are lost.
  private mutating func noteRun(_ run: String, device: String) {
    guard let previous = runs.updateValue(run, forKey: device), previous != run else { return }
    for number in unsettled where calls[number].device == device && calls[number].state == .queued {
      calls[number].state = .lost
      calls[number].reason = "the app restarted before it was sent"
      unsettled.remove(number)
    }
  }
}
