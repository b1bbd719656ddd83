import Foundation

/// The import's account of its sources' keys while the importer runs: each key whose value it
/// reads as what it holds (``SourceNode/string``, ``SourceNode/members``…) or consumes from a
/// walk over an object's members (``carry(_:)``) is carried — a key only looked up is not; a key it leaves out on purpose is noted with the reason
/// (``ignore(_:because:)``). ``KeyAccounting`` turns what is left into warnings with their place.
///
/// One ledger is current on the import thread while the importer runs (``recording(_:_:)``);
/// outside it (format detection, tests reading nodes), nothing is noted.
final class KeyLedger {
  /// The first ordinal of the span of keys the import read.
  private let base: UInt32
  /// One bit per ordinal from ``base``: the importer said the key is carried (``carry(_:)``).
  /// Held in memory the ledger owns, not in an array property: every key read notes a bit, and
  /// an array in a class property paid an exclusivity check on each.
  private let carried: KeyLedgerBits
  /// One bit per ordinal from ``base``: the importer read the key's value as what it holds
  /// (``use(ordinal:)``), so carried. A look at a value's shape only reads it raw
  /// (``SourceNode/objectMembers``…) and carries nothing.
  private let used: KeyLedgerBits
  /// Keys left out on purpose, by ordinal, with the reason (`plan metadata`).
  private(set) var ignored: [UInt32: String] = [:]

  /// A ledger of the keys of `documents`.
  init(_ documents: [SourceDocument]) {
    let first = documents.map(\.firstOrdinal).min() ?? 0
    let end = documents.map(\.ordinalEnd).max() ?? 0
    // Past 2³² keys read by the process, ordinals start over: the span is then cut short, and a
    // key past it counts as not carried (reported), never as carried by mistake.
    let span = end >= first ? min(Int(end - first), 1 << 30) : 0
    base = first
    carried = KeyLedgerBits(count: span + 1)
    used = KeyLedgerBits(count: span + 1)
  }

  /// The reason of the annotations left out (`title`, `examples`, `$comment`…).
  static let annotations = "JSON Schema annotations (they describe, they do not constrain)"
  /// The reason of a plan's own metadata left out (ids, names, dates of the whole plan).
  static let planMetadata = "plan metadata"
  /// The reason of a rule's metadata left out (its ids and dates).
  static let ruleMetadata = "rule metadata (ids, dates)"
  /// The reason of rudder-cli's categories left out.
  static let categories = "rudder-cli categories (a plan checks no category)"

  /// Notes `member` (and what it holds) as left out on purpose in the current ledger, if any.
  static func leaveOut(_ member: SourceNode.Member, because reason: String) {
    current?.ignore(member, because: reason)
  }

  /// Notes every key of `node`, at every depth, as left out on purpose in the current ledger (a
  /// rule of a version not imported): one line for `reason` reports them all.
  static func leaveOut(every node: SourceNode, because reason: String) {
    guard let ledger = current else { return }
    var pending = [node]
    while let next = pending.popLast() {
      if let elements = next.arrayElements { pending += elements }
      for member in next.objectMembers ?? [] {
        ledger.ignore(member, because: reason)
        pending.append(member.value)
      }
    }
  }

  /// Notes `member` as carried.
  func carry(_ member: SourceNode.Member) {
    carry(ordinal: member.ordinal)
  }

  /// Notes the key numbered `ordinal` as carried.
  func carry(ordinal: UInt32) {
    carried.set(ordinal &- base)
  }

  /// Notes the value of the key numbered `ordinal` as read, so carried.
  func use(ordinal: UInt32) {
    used.set(ordinal &- base)
  }

  /// Notes every member of `members` as carried.
  func carry(_ members: [SourceNode.Member]) {
    for index in members.indices { carry(ordinal: members[index].ordinal) }
  }

  /// Notes `member` (and what it holds) as left out on purpose, for `reason` (`plan metadata`):
  /// reported in one line per reason, not one warning per key.
  /// A key carried stays carried.
  func ignore(_ member: SourceNode.Member, because reason: String) {
    if ignored[member.ordinal] == nil { ignored[member.ordinal] = reason }
  }

  /// Whether `member` is carried: said so, or its value read.
  func isCarried(_ member: SourceNode.Member) -> Bool {
    let offset = member.ordinal &- base
    return carried.contains(offset) || used.contains(offset)
  }

  // MARK: The current ledger

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// The ledger of the import running on this thread, if any.
  static var current: KeyLedger? {
    guard let pointer = pthread_getspecific(key) else { return nil }
    return Unmanaged<KeyLedger>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// `body`'s result, `ledger` being current on this thread while it runs.
  static func recording<Value, Failure: Error>(
    _ ledger: KeyLedger, _ body: () throws(Failure) -> Value
  ) throws(Failure) -> Value {
    let outer = pthread_getspecific(key)
    pthread_setspecific(key, Unmanaged.passUnretained(ledger).toOpaque())
    defer { pthread_setspecific(key, outer) }
    return try body()
  }
}

/// Numbers the keys of the documents read, each with an ordinal no other key read by this
/// process has (until 2³² keys were read): a reader takes them in blocks.
struct KeyOrdinals {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var next: UInt32 = 0
  private static let block: UInt32 = 256

  /// The first ordinal this numbering gave (or will give).
  private(set) var first: UInt32
  /// The ordinal after the last one given.
  private(set) var end: UInt32
  private var blockEnd: UInt32

  /// A numbering starting at a block of its own.
  init() {
    first = Self.reserve()
    end = first
    blockEnd = first &+ Self.block
  }

  /// The next ordinal.
  mutating func take() -> UInt32 {
    if end == blockEnd {
      // A block after another reader's: the span from `first` grows over it.
      end = Self.reserve()
      blockEnd = end &+ Self.block
    }
    defer { end &+= 1 }
    return end
  }

  private static func reserve() -> UInt32 {
    lock.lock()
    defer { lock.unlock() }
    let start = next
    next &+= block
    return start
  }
}

/// A fixed number of bits in memory of their own, freed with their holder.
final class KeyLedgerBits {
  private let words: UnsafeMutablePointer<UInt64>
  private let wordCount: Int

  /// `count` bits, all clear.
  init(count: Int) {
    wordCount = count / 64 + 1
    words = .allocate(capacity: wordCount)
    words.initialize(repeating: 0, count: wordCount)
  }

  deinit { words.deallocate() }

  /// Sets bit `offset` (an offset past the end does nothing).
  func set(_ offset: UInt32) {
    let offset = Int(offset)
    guard offset >> 6 < wordCount else { return }
    words[offset >> 6] |= 1 << UInt64(offset & 63)
  }

  /// Whether bit `offset` is set (`false` past the end).
  func contains(_ offset: UInt32) -> Bool {
    let offset = Int(offset)
    guard offset >> 6 < wordCount else { return false }
    return words[offset >> 6] & (1 << UInt64(offset & 63)) != 0
  }
}
