import TagscopeVendors

/// The tracking-plan formats `tagscope plan import` reads.
public enum ImportFormat: String, Sendable, Hashable, CaseIterable {
  /// Segment Protocols: the Config API export (or its bare rules object), the Public API rules.
  case segment
  /// RudderStack tracking plans as `rudder-cli` writes them, and RudderTyper's `plan.json`.
  case rudderstack
  /// Snowplow Iglu self-describing JSON Schemas.
  case iglu
  /// mParticle data plans.
  case mparticle
  /// Plain JSON Schema per event (Avo, Amplitude Data), draft-07 and 2020-12.
  case jsonschema

  /// The provider id of the catalogue when `--provider` is not given: the vendor whose descriptor
  /// lists the format (``Vendor/importFormats``); `nil` when the source does not say (plain JSON
  /// Schema).
  public var defaultProvider: String? {
    Vendors.importFormat(named: rawValue)?.vendor.id.rawValue
  }

  /// What the format reads, for `tagscope help qa`: its vendor's descriptor's words.
  public var summary: String {
    Vendors.importFormat(named: rawValue)?.format.summary
      ?? "plain JSON Schema per event (Avo, Amplitude Data), draft-07 and 2020-12"
  }

  /// The format `root` is in, told from its content; `nil` when it matches none or several
  /// (``FormatEvidence/candidates(_:)`` says which and why).
  public static func detect(_ root: SourceNode) -> ImportFormat? {
    let candidates = FormatEvidence.candidates(root)
    return candidates.count == 1 ? candidates[0].format : nil
  }
}
