import AnalyticsHub
import TagscopeRecording
import TagscopeVendors

/// What an unplanned call (one no catalogue entry matches) is (`unplanned:` of a catalogue).
public enum UnplannedCalls: String, Sendable, Hashable, CaseIterable {
  /// An `unplanned-call` error (the default).
  case error
  /// An `unplanned-call` warning.
  case warning
  /// Allowed: not reported.
  case allowed

  /// The severity of its violations; `nil` when allowed.
  public var severity: Severity? {
    switch self {
    case .error: return .error
    case .warning: return .warning
    case .allowed: return nil
    }
  }
}

/// One entry of a provider's call catalogue: the calls it matches (by name, optionally method;
/// or by method alone) and the constraints on their parameters.
public struct CatalogueCall: Sendable, Hashable {
  /// The call name it matches; `nil` for an entry of `methods` (matched by method alone).
  public var name: String?
  /// The SDK method it matches; `nil` for any (entries of `calls` only).
  public var method: String?
  /// Where the entry is in the plan.
  public var location: SourceLocation
  /// The severity of its violations.
  public var severity: Severity
  /// The entry's `description`, not checked (generated code's documentation).
  public var description: String?
  /// Where a call an SDK sent holds what `params` describe (`properties`); `nil` for the whole
  /// message. In-app calls are checked on their parameters whatever it says.
  public var propertiesAt: MessagePath?
  /// The parameters as one object rule: the call's parameters are checked as an object.
  private(set) var parameterObject: PropertyRule
  /// ``messageParams`` as one object rule, checked against the whole message; `nil` when none.
  private(set) var messageObject: PropertyRule?

  /// Constraints on the whole message a call from an SDK carries, whatever `propertiesAt` says
  /// (Segment's common rules on `context`); in-app calls carry no message and skip them.
  public var messageParams: [PropertyRule] {
    get { messageObject?.properties ?? [] }
    set {
      guard !newValue.isEmpty else {
        messageObject = nil
        return
      }
      var object = PropertyRule(name: "", location: location)
      object.properties = newValue
      messageObject = object
    }
  }

  /// The parameters' constraints, by name, in plan order.
  public var params: [PropertyRule] {
    get { parameterObject.properties ?? [] }
    set { parameterObject.properties = newValue }
  }

  /// The rarer keywords of the parameters as one object (`anyOf`, `minProperties`…, written at
  /// the entry's level), checked as a property's are; `nil` when none.
  public var keywords: SchemaKeywords<PropertyRule>? {
    get { parameterObject.keywords }
    set { parameterObject.keywords = newValue }
  }

  /// Whether the call may carry parameters `params` does not list (`additionalProperties`,
  /// true by default: SDK payloads carry many bookkeeping fields).
  public var additionalParams: Bool {
    get { parameterObject.additionalProperties }
    set { parameterObject.additionalProperties = newValue }
  }

  /// An entry.
  public init(
    name: String?, method: String?, location: SourceLocation, severity: Severity = .error,
    params: [PropertyRule] = [], additionalParams: Bool = true
  ) {
    self.name = name
    self.method = method
    self.location = location
    self.severity = severity
    parameterObject = PropertyRule(name: "", location: location)
    parameterObject.properties = params
    parameterObject.additionalProperties = additionalParams
  }

  /// `Order Completed`, `track Order Completed`, or `identify` (a method entry): how reports name it.
  public var label: String { callLabel(method: method, name: name) }
}

/// The catalogue of the calls one provider receives (`catalogues:`): what tools such as Segment
/// Protocols, RudderStack, Iglu and mParticle describe — a call name and its parameter schema —
/// checked on every call the provider gets, in-app or from an SDK through `listen`.
public struct CallCatalogue: Sendable, Hashable {
  /// The provider id (`segment`).
  public var provider: String {
    didSet { sdkProperties = Self.sdkProperties(of: provider) }
  }
  /// The properties the provider's SDKs add among an event's own (`Vendor.SDKProperties`),
  /// looked up once: a closed entry leaves out those it does not list in what an SDK sent.
  public private(set) var sdkProperties: Vendor.SDKProperties
  /// Where the catalogue's key is in the plan.
  public var location: SourceLocation
  /// What a call no entry matches is.
  public var unplanned: UnplannedCalls
  /// The entries' ``CatalogueCall/propertiesAt`` where they do not say (`propertiesAt:`).
  public var propertiesAt: MessagePath?
  /// Where a call holds a list of self-describing entities (`{schema, data}`, Snowplow's
  /// `contexts.data`), each checked against the entry its `schema` names (`entitiesAt:`).
  public var entitiesAt: MessagePath?
  /// Whether the SDKs send its entries' parameter values as text (`valuesAsText:`, mParticle's
  /// mobile SDKs): in a call an SDK sent, a text value is read as the number or boolean its
  /// parameter wants when it is that value's canonical text (`"12.5"`, `"true"`).
  public var valuesAsText = false
  /// Entries matched by call name (and method, when given), in plan order.
  public let calls: [CatalogueCall]
  /// Entries matched by method alone, for calls no name entry matches, in plan order.
  public let methods: [CatalogueCall]
  /// The position in ``entries`` of the first `methods` entry for ``batchMethod``: the entry a
  /// batch's own fields are checked against; `nil` when the catalogue has none.
  public let batchEntry: Int?
  /// The positions in `calls` of each name's entries.
  private let byName: [String: [Int]]
  /// For names ending in a SchemaVer (`iglu:com.acme/cart/jsonschema/1-0-2`): per name without
  /// its version, the position in `calls` of the newest version's first entry.
  private let newestVersion: [String: Int]
  /// The entries in coverage order: `calls`, then `methods` (a view: a catalogue of many
  /// entries does not hold them twice).
  public var entries: Entries { Entries(calls: calls, methods: methods) }

  /// ``calls`` then ``methods``, indexed from 0.
  public struct Entries: RandomAccessCollection, Sendable {
    let calls: [CatalogueCall]
    let methods: [CatalogueCall]

    public var startIndex: Int { 0 }
    public var endIndex: Int { calls.count + methods.count }

    public subscript(position: Int) -> CatalogueCall {
      position < calls.count ? calls[position] : methods[position - calls.count]
    }
  }

  /// A catalogue.
  public init(
    provider: String, location: SourceLocation, unplanned: UnplannedCalls = .error,
    propertiesAt: MessagePath? = nil, entitiesAt: MessagePath? = nil, calls: [CatalogueCall] = [],
    methods: [CatalogueCall] = []
  ) {
    self.provider = provider
    sdkProperties = Self.sdkProperties(of: provider)
    self.location = location
    self.unplanned = unplanned
    self.propertiesAt = propertiesAt
    self.entitiesAt = entitiesAt
    self.calls = calls
    self.methods = methods
    var byName: [String: [Int]] = [:]
    var newest: [String: (version: [Int], index: Int)] = [:]
    for (index, call) in calls.enumerated() {
      guard let name = call.name else { continue }
      byName[name, default: []].append(index)
      if let (stem, version) = SchemaVer.split(name),
        newest[String(stem)].map({ $0.version.lexicographicallyPrecedes(version) }) ?? true
      {
        newest[String(stem)] = (version, index)
      }
    }
    self.byName = byName
    newestVersion = newest.mapValues(\.index)
    batchEntry = methods.firstIndex { $0.method == Self.batchMethod }.map { calls.count + $0 }
  }

  /// The registry's `Vendor.SDKProperties` of `provider`; none for a provider it does not know.
  private static func sdkProperties(of provider: String) -> Vendor.SDKProperties {
    Vendors.vendor(named: provider)?.messages?.sdkProperties ?? .none
  }

  /// The method of the `methods` entry that checks the fields a batch of calls carries beside
  /// its calls (mParticle's `user_attributes`, `user_identities`; a mobile SDK's `ua`, `ui`): a
  /// record an SDK's batch made keeps them, on the batch's first record, in its output's
  /// ``batchField``, checked there once per batch as the parameters of a call of this method.
  public static let batchMethod = "batch"
  /// The output field (`ProviderOutput.extra`) a batch's first record keeps its own fields in.
  public static let batchField = "batch"

  /// The position in ``entries`` of the entry `call` matches: the first name entry with its name
  /// (and method); else, for a name ending in a SchemaVer the catalogue lacks, the newest version
  /// of that name (with that method); else, for an Iglu URI, the entry named by its schema name
  /// alone (`add_to_cart`); else the first method entry with its method.
  public func entryIndex(for call: CallDescription) -> Int? {
    func fits(_ index: Int) -> Bool { calls[index].method == nil || calls[index].method == call.method }
    if let name = call.name {
      if let index = byName[name]?.first(where: fits) { return index }
      if let index = newerVersion(of: name), fits(index) { return index }
      if let bare = IgluSchemaName.of(name), let index = byName[bare]?.first(where: fits) { return index }
    }
    return methods.firstIndex { $0.method == call.method }.map { calls.count + $0 }
  }

  /// The position in ``entries`` of the entry a self-describing entity's `schema` names, whatever
  /// its method: that name, else the newest version of it, else its schema name alone (see
  /// ``entryIndex(for:)``).
  public func entryIndex(forSchema schema: String) -> Int? {
    byName[schema]?.first ?? newerVersion(of: schema)
      ?? IgluSchemaName.of(schema).flatMap { byName[$0]?.first }
  }

  /// For `stem/M-R-A` when the catalogue has other versions of `stem`: the newest one's position.
  private func newerVersion(of name: String) -> Int? {
    guard let (stem, _) = SchemaVer.split(name) else { return nil }
    return newestVersion[String(stem)]
  }
}
