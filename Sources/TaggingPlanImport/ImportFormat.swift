/// The tracking-plan formats `tagscope plan import` reads.
public enum ImportFormat: String, Sendable, Hashable, CaseIterable {
  /// Segment Protocols: the Config API export or the Public API rules.
  case segment
  /// RudderStack tracking plans as `rudder-cli` writes them.
  case rudderstack
  /// Snowplow Iglu self-describing JSON Schemas.
  case iglu
  /// mParticle data plans.
  case mparticle
  /// Plain JSON Schema per event (Avo, Amplitude Data), draft-07 and 2020-12.
  case jsonschema

  /// The provider id of the catalogue when `--provider` is not given; `nil` when the source does
  /// not say (plain JSON Schema).
  public var defaultProvider: String? {
    switch self {
    case .segment: return "segment"
    case .rudderstack: return "rudderstack"
    case .iglu: return "snowplow"
    case .mparticle: return "mparticle"
    case .jsonschema: return nil
    }
  }

  /// The format `root` is in, told from its content; `nil` when unsure.
  public static func detect(_ root: SourceNode) -> ImportFormat? {
    if RudderStackImporter.recognizes(root) { return .rudderstack }
    if IgluImporter.recognizes(root) { return .iglu }
    if MParticleImporter.recognizes(root) { return .mparticle }
    if SegmentImporter.recognizes(root) { return .segment }
    if JSONSchemaImporter.recognizes(root) { return .jsonschema }
    return nil
  }
}
