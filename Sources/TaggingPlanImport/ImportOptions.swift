import TaggingPlan

/// How `tagscope plan import` reads its sources and names what it writes.
public struct ImportOptions: Sendable, Hashable {
  /// The source format; `nil`: told from the content.
  public var format: ImportFormat?
  /// The provider id of the catalogue; `nil`: the format's own (required for `jsonschema`).
  public var provider: String?
  /// The plan's name; `nil`: the source's.
  public var name: String?
  /// What a call no entry matches is.
  public var unplanned: UnplannedCalls
  /// The environment variables a format reads (rudder-cli's `RUDDER_NAME` placeholder values);
  /// `tagscope plan import` passes its own.
  public var environment: [String: String]
  /// Whether the plan's ``KeyAccount`` lists what became of each key (``KeyAccount/fates``), for
  /// checking the accounting key by key.
  public var listsEveryKey = false

  /// Options.
  public init(
    format: ImportFormat? = nil, provider: String? = nil, name: String? = nil,
    unplanned: UnplannedCalls = .error, environment: [String: String] = [:]
  ) {
    self.format = format
    self.provider = provider
    self.name = name
    self.unplanned = unplanned
    self.environment = environment
  }
}
