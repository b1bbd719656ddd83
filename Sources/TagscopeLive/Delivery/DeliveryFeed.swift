import Foundation
import TagscopeRecording
import TagscopeServer

/// Reads what the delivery ledger matches on out of records, on the ledger's worker (the live
/// session hands it its batch's arrays whole), into a ``DeliveryBatch`` of compact facts: its
/// strings numbered here, its parameters fingerprinted here, once; the book then touches no
/// record and hashes no string.
struct DeliveryFeed {
  private(set) var names = DeliveryNames()
  /// By provider number: what reads its calls' ids and properties.
  private var readers: [RecordedMessages.Reader] = []
  /// By provider number: whether a wire record of it was seen.
  private var onWire: [Bool] = []
  /// Each in-app device's app run (`extra.run`), by source number.
  private var runs: [Int32: String] = [:]
  /// The last source and provider numbered: compared before their names are hashed, as a wire
  /// batch's records share their source and nearly every record its provider.
  private var lastSource: (name: String, number: Int32)?
  private var lastProvider: (name: String, number: Int32)?
  /// By source number: its last user and that user's number (a device's records nearly always
  /// share their user, and the same string is compared first by its storage, not hashed).
  private var lastUsers: [(name: String, number: Int32)?] = []
  private var batch = DeliveryBatch(received: 0)

  /// Adds the facts of the record `record` points to, at session position `position`: its calls
  /// if it is an in-app record, its wire calls (``Record/isFromSDK``; `answered`: by `listen`, at
  /// once) if not. Read through the pointer, field by field: a record passed by value (even
  /// borrowed, from an array or a buffer) was copied whole, each of its references retained and
  /// released, for every record.
  mutating func add(_ record: UnsafePointer<Record>, at position: Int, answered: Bool) {
    batch.records += 1
    let first = batch.facts.count
    if record.pointee.isFromSDK {
      addWire(record, at: position, answered: answered)
    } else {
      addInApp(record, at: position)
    }
    if batch.facts.count == first {
      let source = number(source: record.pointee.source ?? (record.pointee.isFromSDK ? "-" : "app"))
      batch.facts.append(
        DeliveryFact(kind: .clock, source: source, position: position, time: record.pointee.timeMilliseconds))
    }
    batch.facts[first].startsRecord = true
  }

  /// The facts of the records of `items`, read where they lie (borrowed from their arrays, not
  /// copied). Hand the batch back with ``recycle(_:)``.
  mutating func read(_ items: DeliveryItems) -> DeliveryBatch {
    batch.facts.reserveCapacity(items.records)
    var offset = 0
    var run = 0
    let unanswered = items.unanswered
    for segment in items.segments {
      segment.withUnsafeBufferPointer { records in
        for index in records.indices {
          if index % Self.warmStride == 0 {
            warm(records, from: index == 0 ? 0 : index + Self.warmStride, to: index + 2 * Self.warmStride)
          }
          while run < unanswered.count && unanswered[run].upperBound <= offset { run += 1 }
          let answered = run == unanswered.count || !unanswered[run].contains(offset)
          add(records.baseAddress! + index, at: items.firstPosition + offset, answered: answered)
          offset += 1
        }
      }
    }
    return take(received: items.received)
  }

  /// How many records ``warm(_:from:to:)`` reads ahead at once.
  private static let warmStride = 16
  /// The sum of the counts ``warm(_:from:to:)`` read: kept so the reads are made.
  private var warmed = 0

  /// Reads, for each of `records[start..<end]`, the counts of its `outputs`, of its first
  /// output's calls and of their first call's parameters (and its last parameter's key), record
  /// after record. Each is the first read of a buffer not in this core's cache (the session's
  /// thread retained it last, or no thread touched it lately): reads made together wait for
  /// memory together, where reading one record at a time waited for each in turn.
  private mutating func warm(_ records: UnsafeBufferPointer<Record>, from start: Int, to end: Int) {
    guard start < records.count else { return }
    var total = 0
    for index in start..<min(end, records.count) {
      (records.baseAddress! + index).pointee.outputs.withUnsafeBufferPointer { outputs in
        total &+= outputs.count
        guard let output = outputs.baseAddress, !outputs.isEmpty else { return }
        output.pointee.calls.withUnsafeBufferPointer { calls in
          total &+= calls.count
          guard let call = calls.baseAddress, !calls.isEmpty else { return }
          // The last parameter's key: its storage's last element (most calls' parameters fill
          // two cache lines or more).
          total &+= call.pointee.parameters.count &+ (call.pointee.parameters.last?.key.utf8.count ?? 0)
        }
      }
    }
    warmed &+= total
  }

  /// Takes back a batch ``read(_:)`` returned, once applied: the next batch fills its arrays
  /// (grown once, not again for every batch).
  mutating func recycle(_ used: consuming DeliveryBatch) {
    var used = used
    used.records = 0
    used.facts.removeAll(keepingCapacity: true)
    used.names = DeliveryNames.Fresh()
    used.wireProviders.removeAll(keepingCapacity: true)
    used.ids.removeAll(keepingCapacity: true)
    used.reasons.removeAll(keepingCapacity: true)
    if batch.facts.isEmpty && batch.records == 0 { batch = used }
  }

  /// The facts added since the last call, received at `received` (ms).
  mutating func take(received: Int64) -> DeliveryBatch {
    var taken = batch
    taken.received = received
    taken.names = names.takeFresh()
    batch = DeliveryBatch(received: 0)
    return taken
  }

  private mutating func addInApp(_ record: UnsafePointer<Record>, at position: Int) {
    let device = number(source: record.pointee.source ?? "app")
    var restarts = false
    if !record.pointee.extra.isEmpty, case .string(let run)? = record.pointee.extra["run"],
      runs[device] != run
    {
      restarts = runs.updateValue(run, forKey: device) != nil
    }
    let user = userNumber(record.pointee.context.session?.user, of: device)
    let first = batch.facts.count
    let time = record.pointee.timeMilliseconds
    record.pointee.outputs.withUnsafeBufferPointer { outputs in
      for index in outputs.indices where outputs[index].status == .sent {
        addCalls(of: outputs.baseAddress! + index, device: device, user: user, position: position, time: time)
      }
    }
    if restarts {
      if batch.facts.count == first {
        batch.facts.append(
          DeliveryFact(
            kind: .clock, source: device, position: position, time: record.pointee.timeMilliseconds))
      }
      batch.facts[first].restarts = true
    }
  }

  /// Adds the calls of in-app output `output` (sent) of device `device`'s record, borrowed where
  /// they lie: a call copied out of its array is each of its references retained and released.
  private mutating func addCalls(
    of output: UnsafePointer<ProviderOutput>, device: Int32, user: Int32, position: Int, time: Int64
  ) {
    let provider = noteProvider(output.pointee.provider)
    let reader = readers[Int(provider)]
    let checksViolations = !output.pointee.violations.isEmpty
    output.pointee.calls.withUnsafeBufferPointer { calls in
      for index in calls.indices {
        let call = calls.baseAddress! + index
        var fact = DeliveryFact(
          kind: .call, source: device,
          label: names.label(provider: provider, method: call.pointee.method, name: call.pointee.name),
          user: user, callIndex: Int32(index), position: position, time: time,
          print: DeliveryFacts.fingerprint(inApp: call.pointee, reader: reader))
        if checksViolations,
          let dropping = output.pointee.violations.first(where: {
            DeliveryBook.dropsTheCall($0) && ($0.callIndex == nil || $0.callIndex == index)
          })
        {
          fact.kind = .droppedCall
          fact.extra = Int32(batch.reasons.count)
          batch.reasons.append(dropping.rule)
        } else {
          let ids = DeliveryFacts.ids(inApp: call.pointee, reader: reader)
          if !ids.isEmpty {
            fact.extra = Int32(batch.ids.count)
            batch.ids.append(ids)
          }
        }
        batch.facts.append(fact)
      }
    }
  }

  private mutating func addWire(_ record: UnsafePointer<Record>, at position: Int, answered: Bool) {
    let source = number(source: record.pointee.source ?? "-")
    let user = userNumber(record.pointee.context.session?.user, of: source)
    let time = record.pointee.timeMilliseconds
    record.pointee.outputs.withUnsafeBufferPointer { outputs in
      for index in outputs.indices {
        addWireCalls(
          of: outputs.baseAddress! + index, record: record, source: source, user: user, position: position,
          time: time, answered: answered)
      }
    }
  }

  /// Adds the calls of wire output `output` of `record` (from `source`), borrowed where they lie.
  private mutating func addWireCalls(
    of output: UnsafePointer<ProviderOutput>, record: UnsafePointer<Record>, source: Int32, user: Int32,
    position: Int, time: Int64, answered: Bool
  ) {
    let provider = noteProvider(output.pointee.provider)
    if !onWire[Int(provider)] {
      onWire[Int(provider)] = true
      batch.wireProviders.append(provider)
    }
    let reader = readers[Int(provider)]
    output.pointee.calls.withUnsafeBufferPointer { calls in
      for index in calls.indices {
        let call = calls.baseAddress! + index
        let print = DeliveryFacts.fingerprint(wire: call.pointee, reader: reader)
        var fact = DeliveryFact(
          kind: .wire, printed: print != nil, answered: answered, source: source,
          label: names.label(provider: provider, method: call.pointee.method, name: call.pointee.name),
          user: user, callIndex: Int32(index), position: position, time: time, print: print ?? 0)
        let ids = DeliveryFacts.ids(
          wire: call.pointee, reader: reader, raw: reader.readsRaw ? record.pointee.raw ?? "" : "")
        if !ids.isEmpty {
          fact.extra = Int32(batch.ids.count)
          batch.ids.append(ids)
        }
        batch.facts.append(fact)
      }
    }
  }

  /// The number of source `name`.
  private mutating func number(source name: String) -> Int32 {
    if let last = lastSource, last.name == name { return last.number }
    let number = names.source(name)
    lastSource = (name, number)
    return number
  }

  /// The number of user `name` (`nil`: 0) of a record of source `source`.
  private mutating func userNumber(_ name: String?, of source: Int32) -> Int32 {
    guard let name else { return 0 }
    while lastUsers.count <= Int(source) { lastUsers.append(nil) }
    if let last = lastUsers[Int(source)], last.name == name { return last.number }
    let number = names.user(name)
    lastUsers[Int(source)] = (name, number)
    return number
  }

  /// The number of `provider`, with its reader.
  private mutating func noteProvider(_ provider: String) -> Int32 {
    if let last = lastProvider, last.name == provider { return last.number }
    let number = names.provider(provider)
    if readers.count <= Int(number) {
      readers.append(RecordedMessages.Reader(provider: provider))
      onWire.append(false)
    }
    lastProvider = (provider, number)
    return number
  }
}
