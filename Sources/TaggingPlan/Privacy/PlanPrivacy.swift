/// The plan's `privacy`: whether the values providers receive are scanned for personal data, and
/// the kinds allowed everywhere.
///
/// `privacy: off` turns the `personal-data` check off for the whole plan;
/// `privacy: {allow: [email, ip]}` allows those kinds in every value (the other kinds are still
/// reported unless a property's `pii` allows them).
public struct PlanPrivacy: Sendable, Hashable {
  /// Whether values are scanned at all (`privacy: off` makes it `false`).
  public var scans: Bool
  /// The kinds allowed in every value (`allow`).
  public var allowed: PIIKinds

  /// A privacy setting; the default scans every value and allows nothing plan-wide.
  public init(scans: Bool = true, allowed: PIIKinds = []) {
    self.scans = scans
    self.allowed = allowed
  }

  /// The kinds the validator looks for: none when off, else those not allowed plan-wide.
  public var checkedKinds: PIIKinds { scans ? PIIKinds.all.subtracting(allowed) : [] }
}
