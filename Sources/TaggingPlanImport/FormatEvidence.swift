import TagscopeVendors

/// Why `tagscope plan import` reads a source in one format: the format and the keys of the source
/// that told it (or `--from`), printed as `read as RudderStack (RudderTyper plan.json:
/// rules.events[].rules, id tp_…)`.
public struct FormatEvidence: Sendable, Hashable, CustomStringConvertible {
  /// The format read.
  public var format: ImportFormat
  /// The shape recognized and the keys matched, in the source's words (`--from rudderstack` when
  /// given).
  public var reason: String

  /// Evidence.
  public init(format: ImportFormat, reason: String) {
    self.format = format
    self.reason = reason
  }

  /// `read as Segment (Segment Config API tracking plan: rules.events[].rules)`.
  public var description: String { "read as \(format.displayName) (\(reason))" }

  /// Every format `root` matches, with its evidence: the tools' own shapes first (rudder-cli,
  /// RudderTyper, Iglu, mParticle, Segment), plain JSON Schema only when none matches. More than
  /// one means the content alone does not tell (``ImportFormat/detect(_:)`` is `nil` then).
  public static func candidates(_ root: SourceNode) -> [FormatEvidence] {
    let specific: [(ImportFormat, String?)] = [
      (.rudderstack, RudderStackImporter.evidence(root)),
      (.rudderstack, ConfigPlanShape.rudderTyperEvidence(root)),
      (.iglu, IgluImporter.evidence(root)),
      (.mparticle, MParticleImporter.evidence(root)),
      (.segment, SegmentImporter.evidence(root)),
    ]
    let found = specific.compactMap { format, reason in
      reason.map { FormatEvidence(format: format, reason: $0) }
    }
    guard found.isEmpty else { return found }
    return JSONSchemaImporter.evidence(root).map { [FormatEvidence(format: .jsonschema, reason: $0)] } ?? []
  }
}

extension ImportFormat {
  /// The tool's name as its users write it (`RudderStack`, `mParticle`): its vendor's descriptor's.
  public var displayName: String {
    Vendors.importFormat(named: rawValue)?.format.displayName ?? "JSON Schema"
  }
}
