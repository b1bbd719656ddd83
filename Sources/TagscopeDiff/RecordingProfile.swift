import TagscopeRecording

/// What a recording sent, without its timing or order: per tag signature, how often it fired, its
/// properties' types, and per provider its statuses and calls with their parameters' types.
public struct RecordingProfile: Sendable {
  /// One provider call name of one tag.
  public struct CallProfile: Sendable, Hashable {
    /// How many times the call was made.
    public var count = 0
    /// The SDK methods used (`logEvent`, `track`…).
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
    /// By call name (the method when a call has no name).
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

  /// By signature.
  public private(set) var tags: [TagSignature: TagProfile] = [:]
  /// Records read.
  public private(set) var records = 0

  public init() {}

  /// Adds a record that occurred `times` times.
  public mutating func add(_ record: Record, times: Int = 1) {
    records += times
    let signature = TagSignature(kind: record.kind.rawValue, name: record.name, screen: record.context.screen)
    var tag = tags[signature] ?? TagProfile()
    tag.count += times
    tag.properties.add(record.properties)
    for output in record.outputs {
      var provider = tag.providers[output.provider] ?? ProviderProfile()
      provider.count += times
      provider.statuses[output.status.rawValue, default: 0] += times
      for call in output.calls {
        let name = call.name ?? call.method
        var profile = provider.calls[name] ?? CallProfile()
        profile.count += times
        profile.methods.insert(call.method)
        profile.parameters.add(call.parameters)
        provider.calls[name] = profile
      }
      tag.providers[output.provider] = provider
    }
    tags[signature] = tag
  }
}
