import AnalyticsHub
import TaggingPlan
import TaggingPlanReports
import TagscopeRecording

/// What a recording sent, without its timing or order: per tag signature, how often it fired, its
/// properties' types, and per provider its statuses and calls with their parameters' types.
public struct RecordingProfile: Sendable {
  /// One provider call name of one tag.
  public struct CallProfile: Sendable, Hashable {
    /// How many times the call was made.
    public var count = 0
    /// The SDK methods it was made through (usually one).
    public var methods: Set<String> = []
    /// Its parameters' types.
    public var parameters = PathTypes()

    public init(count: Int = 0, methods: Set<String> = [], parameters: PathTypes = PathTypes()) {
      self.count = count
      self.methods = methods
      self.parameters = parameters
    }
  }

  /// What one provider did with one tag.
  public struct ProviderProfile: Sendable, Hashable {
    /// Records with this provider's output.
    public var count = 0
    /// How many outputs had each status (`sent`, `dropped`, `blocked`, `failed`…).
    public var statuses: [String: Int] = [:]
    /// By call key (``RecordingProfile/callKey(method:name:kind:)``: the name, else the method).
    public var calls: [String: CallProfile] = [:]
  }

  /// One tag signature.
  public struct TagProfile: Sendable, Hashable {
    /// Records with this signature.
    public var count = 0
    /// Its properties' types.
    public var properties = PathTypes()
    /// By provider identifier.
    public var providers: [String: ProviderProfile] = [:]
  }

  /// What a call is compared by: its name; its method when it has none; `method(<id>)` when its
  /// name is an identity (see ``IdentityShape``): a call of an identity method (`setUser(<id>)`,
  /// `changeUser(<id>)`), or an id-shaped name in a record about identity or a session
  /// (``identityKinds``: mParticle's `login(<id>)`), so two runs that identified other users make
  /// the same call and compare its parameters. Elsewhere an id-shaped name is a name a build
  /// chose (`step_001`, `cd2`): kept as it is, so removing one while a sibling remains is a change.
  public static func callKey(method: String, name: String?, kind: RecordKind) -> String {
    guard let name else { return method }
    let identity =
      IdentityShape.identityMethods.contains(method)
      || (identityKinds.contains(kind) && IdentityShape.isIdShaped(name))
    return identity ? "\(method)(<id>)" : name
  }

  /// The kinds of records whose id-shaped call names are identities.
  public static let identityKinds: Set<RecordKind> = [
    .identify, .reset, .sessionStart, .sessionUpdate, .sessionEnd,
  ]

  /// Records read.
  public private(set) var records = 0
  /// The counts and types, flat (see ``ProfileStore``).
  private var store = ProfileStore()

  public init() {}

  /// Tag signatures seen.
  public var tagCount: Int { store.entries.count }

  /// Every tag signature seen, in no particular order.
  public var signatures: [TagSignature] {
    var list: [TagSignature] = []
    list.reserveCapacity(tagCount)
    forEachSignature { list.append($0) }
    return list
  }

  /// Calls `body` with every tag signature seen, in no particular order.
  public func forEachSignature(_ body: (TagSignature) -> Void) {
    for key in store.index.keys {
      body(
        TagSignature(
          kind: store.strings[key.kind], name: key.name,
          screen: key.screen < 0 ? nil : store.strings[key.screen]))
    }
  }

  /// Whether a record of the tag `signature` was read.
  public func contains(_ signature: TagSignature) -> Bool { entry(signature) != nil }

  /// The entry of `signature`, when a record of it was read.
  private func entry(_ signature: TagSignature) -> Int32? {
    guard let kind = store.strings.existingID(signature.kind) else { return nil }
    var screen: Int32 = -1
    if let name = signature.screen {
      guard let id = store.strings.existingID(name) else { return nil }
      screen = id
    }
    return store.index[ProfileStore.TagKey(name: signature.name, kind: kind, screen: screen)]
  }

  /// The profile of the tag `signature`, when a record of it was read (built on each call from
  /// the flat counts: ask for one tag at a time).
  public func tag(_ signature: TagSignature) -> TagProfile? {
    guard let entry = entry(signature) else { return nil }
    var tag = TagProfile()
    tag.count = store.entries[Int(entry)].count
    tag.properties = store.types[store.entries[Int(entry)].properties]
    for cell in store.cells(of: entry) {
      let provider = store.strings[cell.provider]
      let key = cell.key
      if cell.isCall {
        tag.providers[provider, default: ProviderProfile()].calls[key] = CallProfile(
          count: cell.count, methods: store.methods[cell.methods], parameters: store.types[cell.parameters])
      } else {
        tag.providers[provider, default: ProviderProfile()].count += cell.count
        tag.providers[provider, default: ProviderProfile()].statuses[key] = cell.count
      }
    }
    return tag
  }

  /// Every tag's profile by signature (built whole: for a few tags; ``tag(_:)`` reads one).
  public var tags: [TagSignature: TagProfile] {
    Dictionary(uniqueKeysWithValues: signatures.map { ($0, tag($0)!) })
  }

  /// What a record adds to the counts, to add again for a record of the same content without
  /// decoding it.
  typealias Replay = ProfileStore.Replay

  /// Adds a record that occurred `times` times; with `remember`, returns what its repeats add
  /// (added again by the `add` that takes a replay).
  mutating func add(_ record: Record, times: Int, remember: Bool) -> Replay? {
    records += times
    return store.add(record, times: times, remember: remember)
  }

  /// Adds a record that occurred `times` times.
  public mutating func add(_ record: Record, times: Int = 1) {
    _ = add(record, times: times, remember: false)
  }

  /// Adds `times` more occurrences of a record added once with `remember`.
  mutating func add(_ replay: Replay, times: Int) {
    records += times
    store.add(replay, times: times)
  }

  /// What the profile holds (see ``ProfileStore``).
  var footprint: (tags: Int, cells: Int, strings: Int, types: Int, methods: Int) { store.footprint }

  /// Frees what records were remembered with, once their repeats are added.
  mutating func forgetReplays() { store.forgetReplays() }
}
