extension Vendor {
  /// Where a vendor's SDK messages, as `listen` records them (the call's parameters hold the
  /// message's fields), keep what Tagscope reads of them.
  public struct MessageFields: Sendable, Hashable {
    /// Where the message's own id is (the SDK's retry key), tried in order; empty when its SDK
    /// gives none (GA4: two equal hits are two events).
    public let messageID: [MessageIDPath]
    /// Where an event's properties are.
    public let properties: PropertiesPlace
    /// The method its track calls are recorded under (`track`, PostHog's `capture`).
    public let trackMethod: String
    /// Where the messages of other calls keep the properties they set, by the call's method
    /// (Amplitude's `identify`: `user_properties.$set`); read by `plan import` for the schemas of
    /// those calls.
    public let methodProperties: [String: String]
    /// The properties its SDKs add among an event's own (Mixpanel's `mp_lib`, `$os`): the
    /// delivery ledger leaves them out when it matches an app's call with what the SDK sent, and
    /// a plan's closed catalogue entry when it judges what the SDK sent.
    public let sdkProperties: SDKProperties

    /// Message fields.
    public init(
      messageID: [MessageIDPath], properties: PropertiesPlace, trackMethod: String = "track",
      methodProperties: [String: String] = [:], sdkProperties: SDKProperties = .none
    ) {
      self.messageID = messageID
      self.properties = properties
      self.trackMethod = trackMethod
      self.methodProperties = methodProperties
      self.sdkProperties = sdkProperties
    }
  }

  /// The names an SDK gives the properties it adds to an event's own: exact names and prefixes.
  public struct SDKProperties: Sendable, Hashable {
    /// Exact names (`distinct_id`).
    public let names: Set<String>
    /// Prefixes (`$`, `mp_`).
    public let prefixes: [String]

    /// None: the SDK sends an event's properties as the app gave them.
    public static let none = SDKProperties(names: [], prefixes: [])

    /// Names and prefixes.
    public init(names: Set<String>, prefixes: [String]) {
      self.names = names
      self.prefixes = prefixes
    }

    /// Whether there are any.
    public var isEmpty: Bool { names.isEmpty && prefixes.isEmpty }

    /// Whether `key` is one of them.
    public func contains(_ key: String) -> Bool {
      names.contains(key) || prefixes.contains { key.hasPrefix($0) }
    }

    /// For people: `$…, mp_…, distinct_id`.
    public var summary: String {
      (prefixes.map { "\($0)…" } + names.sorted()).joined(separator: ", ")
    }
  }

  /// Where a recorded SDK message keeps an event's properties.
  public enum PropertiesPlace: Sendable, Hashable {
    /// Under this dotted path of the call's parameters (`event_properties`).
    case at(String)
    /// The call's parameters are the properties (Mixpanel's `track`).
    case parameters
    /// Not mapped by Tagscope (an imported plan says where).
    case unmapped

    /// The dotted path, or `nil` when there is none.
    public var path: String? {
      if case .at(let path) = self { return path }
      return nil
    }
  }

  /// One place a message id may be.
  public struct MessageIDPath: Sendable, Hashable {
    /// The dotted path (`messageId`, `data.source_message_id`).
    public let path: String
    /// Only for calls recorded with this method (Mixpanel's `track`); `nil` for any.
    public let method: String?
    /// Read from the message as sent (the record's raw text, a JSON string only) when that holds
    /// this key (mParticle's mobile messages, typed by `dt`), not from the parameters.
    public let rawMarker: String?

    /// A message id path.
    public init(_ path: String, method: String? = nil, rawMarker: String? = nil) {
      self.path = path
      self.method = method
      self.rawMarker = rawMarker
    }
  }

  /// A host `tagscope proxy` decrypts, or `*.domain` for every host under `domain`.
  public struct ProxyHost: Sendable, Hashable {
    /// The host or `*.domain`.
    public let pattern: String
    /// The SDK it serves, for `tagscope help proxy` (`Segment (EU)`).
    public let sdk: String

    /// A host.
    public init(_ pattern: String, _ sdk: String) {
      self.pattern = pattern
      self.sdk = sdk
    }
  }

  /// A tracking-plan format of the vendor that `tagscope plan import --from` reads.
  public struct ImportFormatFacts: Sendable, Hashable {
    /// Its `--from` name (`iglu`).
    public let name: String
    /// The tool's name as its users write it (`Snowplow Iglu`).
    public let displayName: String
    /// What it reads, for `tagscope help plan`.
    public let summary: String
    /// The keys of a source that tell the format, as the evidence `plan import` prints names them
    /// (`…` stands for the rest of a value); `VendorHelpPageTests` checks each is what the
    /// importer's evidence says, and that its every evidence names one.
    public let evidenceKeys: [String]

    /// A format.
    public init(name: String, displayName: String, summary: String, evidenceKeys: [String]) {
      self.name = name
      self.displayName = displayName
      self.summary = summary
      self.evidenceKeys = evidenceKeys
    }
  }
}
