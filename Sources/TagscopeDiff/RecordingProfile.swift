import AnalyticsHub
import TaggingPlan
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
  }

  /// What one provider did with one tag.
  public struct ProviderProfile: Sendable, Hashable {
    /// Records with this provider's output.
    public var count = 0
    /// How many outputs had each status (`sent`, `dropped`, `blocked`, `failed`…).
    public var statuses: [String: Int] = [:]
    /// By call key (``RecordingProfile/callKey(method:name:)``: the name, else the method).
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
  /// name is an identity (a user id: `setUser(<id>)`, `changeUser(<id>)`, see ``IdentityShape``),
  /// so two runs that identified other users make the same call and compare its parameters.
  public static func callKey(method: String, name: String?) -> String {
    guard let name else { return method }
    return IdentityShape.isIdentityName(name, method: method) ? "\(method)(<id>)" : name
  }

  /// By signature.
  public private(set) var tags: [TagSignature: TagProfile] = [:]
  /// Records read.
  public private(set) var records = 0
  /// The property and parameter types and the method sets of every tag, each distinct value
  /// kept once (see ``Interner``).
  private var shapes = Shapes()

  /// The interned values of a profile.
  private struct Shapes: Sendable {
    var types = Interner<PathTypes>()
    var methods = Interner<Set<String>>()

    /// Adds the types of `properties` to `types`, sharing the storage of equal types.
    mutating func add(_ properties: Properties, to types: inout PathTypes) {
      guard types.wouldChange(properties) else { return }
      var grown = types
      grown.add(properties)
      types = self.types.intern(grown)
    }

    /// Adds `method` to `methods`, sharing the storage of equal sets.
    mutating func add(_ method: String, to methods: inout Set<String>) {
      self.methods.inserting(method, into: &methods)
    }
  }

  public init() {}

  /// What a record adds to the counts, to add again for a record of the same content without
  /// decoding it (its types are already in the profile).
  struct Replay {
    var signature: TagSignature
    var outputs: [(provider: String, status: String, calls: [String])]
    /// Occurrences not yet added.
    var pending = 0

    init(_ record: Record) {
      signature = TagSignature(kind: record.kind.rawValue, name: record.name, screen: record.context.screen)
      outputs = record.outputs.map { output in
        (
          output.provider, output.status.rawValue,
          output.calls.map { RecordingProfile.callKey(method: $0.method, name: $0.name) }
        )
      }
    }
  }

  /// Adds `times` more occurrences of a record already added once. Every change is made in place
  /// (through the dictionaries' `default:` subscripts), so no nested table is copied.
  mutating func add(_ replay: Replay, times: Int) {
    records += times
    Self.update(&tags[replay.signature, default: TagProfile()], replay, times)
  }

  private static func update(_ tag: inout TagProfile, _ replay: Replay, _ times: Int) {
    tag.count += times
    for output in replay.outputs {
      Self.update(&tag.providers[output.provider, default: ProviderProfile()], output, times)
    }
  }

  private static func update(
    _ provider: inout ProviderProfile,
    _ output: (provider: String, status: String, calls: [String]), _ times: Int
  ) {
    provider.count += times
    provider.statuses[output.status, default: 0] += times
    for call in output.calls { provider.calls[call, default: CallProfile()].count += times }
  }

  /// Adds a record that occurred `times` times.
  public mutating func add(_ record: Record, times: Int = 1) {
    records += times
    let signature = TagSignature(kind: record.kind.rawValue, name: record.name, screen: record.context.screen)
    Self.update(&tags[signature, default: TagProfile()], record, times, &shapes)
  }

  private static func update(_ tag: inout TagProfile, _ record: Record, _ times: Int, _ shapes: inout Shapes)
  {
    tag.count += times
    shapes.add(record.properties, to: &tag.properties)
    for output in record.outputs {
      Self.update(&tag.providers[output.provider, default: ProviderProfile()], output, times, &shapes)
    }
  }

  private static func update(
    _ profile: inout CallProfile, _ call: CallDescription, _ times: Int, _ shapes: inout Shapes
  ) {
    profile.count += times
    shapes.add(call.method, to: &profile.methods)
    shapes.add(call.parameters, to: &profile.parameters)
  }

  private static func update(
    _ provider: inout ProviderProfile, _ output: ProviderOutput, _ times: Int, _ shapes: inout Shapes
  ) {
    provider.count += times
    provider.statuses[output.status.rawValue, default: 0] += times
    for call in output.calls {
      update(
        &provider.calls[callKey(method: call.method, name: call.name), default: CallProfile()], call, times,
        &shapes)
    }
  }
}
