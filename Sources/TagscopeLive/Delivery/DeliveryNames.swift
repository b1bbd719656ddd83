import Foundation

/// The strings the delivery ledger's entries refer to by number, each kept once: sources (in-app
/// devices and wire sources) with their clocks' offsets, providers, call labels (provider, method
/// and name, with their matching kind) and users.
///
/// Numbered on the producer's thread (``DeliveryFeed``, which hashes each string), adopted in the
/// same order by the book on the ledger's worker (``adopt(_:)``, once per new name): the worker
/// hashes no string per record.
struct DeliveryNames {
  /// A call's provider, method and name, and its matching kind (provider and name, else method).
  struct Label: Sendable {
    var provider: Int32
    var method: String
    var name: String?
    var kind: Int32
  }

  /// The names numbered since the last ``takeFresh()``, in number order.
  struct Fresh: Sendable {
    var sources: [String] = []
    var providers: [String] = []
    var labels: [Label] = []
  }

  private struct KindKey: Hashable {
    var provider: Int32
    var name: String
  }

  private(set) var sources: [String] = []
  /// Each source's smallest `received − time`: its clock's offset from the Mac's, plus transit
  /// (the book's; ``noteClock(source:time:received:)``).
  private(set) var offsets: [Int64] = []
  private(set) var providers: [String] = []
  private(set) var labels: [Label] = []
  /// How many matching kinds there are (numbered from 0).
  private(set) var kindCount = 0
  private var sourceNumbers: [String: Int32] = [:]
  private var providerNumbers: [String: Int32] = [:]
  /// The newest label of each call name (the method's for a call without one), and by label
  /// number the one before it of that name (-1: none): one string hashed per lookup.
  private var labelsByName: [String: Int32] = [:]
  private var previousOfName: [Int32] = []
  private var kindNumbers: [KindKey: Int32] = [:]
  private var userNumbers: [String: Int32] = [:]
  private var fresh = Fresh()
  /// The feed's: sources and labels numbered lately, looked up before their dictionaries.
  private var recentSources = DeliveryRecentNames()
  private var recentLabels = DeliveryRecentNames()

  // MARK: Numbering (the feed)

  /// The number of source `name`.
  mutating func source(_ name: String) -> Int32 {
    let slot = DeliveryRecentNames.slot(of: name)
    if let recent = recentSources[slot], sources[Int(recent)] == name { return recent }
    let number = sourceNumbers[name] ?? newSource(name)
    recentSources[slot] = number
    return number
  }

  private mutating func newSource(_ name: String) -> Int32 {
    let number = Int32(sources.count)
    sources.append(name)
    sourceNumbers[name] = number
    fresh.sources.append(name)
    return number
  }

  /// The number of provider `name`.
  mutating func provider(_ name: String) -> Int32 {
    if let known = providerNumbers[name] { return known }
    let number = Int32(providers.count)
    providers.append(name)
    providerNumbers[name] = number
    fresh.providers.append(name)
    return number
  }

  /// The number of the label of `provider`'s call `method` named `name`.
  mutating func label(provider: Int32, method: String, name: String?) -> Int32 {
    let slot = DeliveryRecentNames.slot(of: name ?? method, salt: provider)
    if let recent = recentLabels[slot], labels[Int(recent)].provider == provider,
      labels[Int(recent)].name == name, labels[Int(recent)].method == method
    {
      return recent
    }
    let number = numberLabel(provider: provider, method: method, name: name)
    recentLabels[slot] = number
    return number
  }

  private mutating func numberLabel(provider: Int32, method: String, name: String?) -> Int32 {
    let head = labelsByName[name ?? method] ?? -1
    var known = head
    while known >= 0 {
      let index = Int(known)
      if labels[index].provider == provider, labels[index].method == method, labels[index].name == name {
        return known
      }
      known = previousOfName[index]
    }
    let kindKey = KindKey(provider: provider, name: name ?? method)
    let kind = kindNumbers[kindKey] ?? Int32(kindCount)
    if kind == Int32(kindCount) {
      kindNumbers[kindKey] = kind
      kindCount += 1
    }
    let label = Label(provider: provider, method: method, name: name, kind: kind)
    labels.append(label)
    fresh.labels.append(label)
    previousOfName.append(head)
    labelsByName[name ?? method] = Int32(labels.count - 1)
    return Int32(labels.count - 1)
  }

  /// The number of user `name`, from 1; 0 when the call does not say.
  mutating func user(_ name: String?) -> Int32 {
    guard let name else { return 0 }
    if let known = userNumbers[name] { return known }
    let number = Int32(userNumbers.count + 1)
    userNumbers[name] = number
    return number
  }

  /// The names numbered since the last call, for the book to adopt.
  mutating func takeFresh() -> Fresh {
    defer { fresh = Fresh() }
    return fresh
  }

  // MARK: Adopting (the book)

  /// Numbers `fresh`'s names after those adopted before (the feed numbered them so).
  mutating func adopt(_ fresh: Fresh) {
    for name in fresh.sources {
      sourceNumbers[name] = Int32(sources.count)
      sources.append(name)
      offsets.append(.max)
    }
    for name in fresh.providers {
      providerNumbers[name] = Int32(providers.count)
      providers.append(name)
    }
    labels += fresh.labels
    kindCount = max(kindCount, Int(fresh.labels.map(\.kind).max() ?? -1) + 1)
  }

  /// Notes that a record of `source` made at `time` (by its clock) arrived at `received` (by the
  /// Mac's).
  mutating func noteClock(source: Int32, time: Int64, received: Int64) {
    offsets[Int(source)] = min(offsets[Int(source)], received &- time)
  }

  /// The numbers of `source` and `provider` if they were seen (a snapshot's filter).
  func known(source name: String) -> Int32? { sourceNumbers[name] }
  func known(provider name: String) -> Int32? { providerNumbers[name] }
}
