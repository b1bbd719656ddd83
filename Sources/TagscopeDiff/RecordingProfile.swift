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
    Self.update(&tags[signature, default: TagProfile()], record, times)
  }

  private static func update(_ tag: inout TagProfile, _ record: Record, _ times: Int) {
    tag.count += times
    tag.properties.add(record.properties)
    for output in record.outputs {
      Self.update(&tag.providers[output.provider, default: ProviderProfile()], output, times)
    }
  }

  private static func update(_ provider: inout ProviderProfile, _ output: ProviderOutput, _ times: Int) {
    provider.count += times
    provider.statuses[output.status.rawValue, default: 0] += times
    for call in output.calls {
      let profile = { (profile: inout CallProfile) in
        profile.count += times
        profile.methods.insert(call.method)
        profile.parameters.add(call.parameters)
      }
      profile(&provider.calls[callKey(method: call.method, name: call.name), default: CallProfile()])
    }
  }
}
