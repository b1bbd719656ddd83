import TaggingPlan
import TagscopeVendors

/// The personal data each of mParticle's identity types holds (``TagscopeVendors/Vendor/MParticleIdentityType``'s
/// `personalData`), as the kinds Tagscope's privacy detectors find (``TaggingPlan/PIIKind``): a data
/// plan's `user_identities` that plans an identity intends that data there, so the import marks it
/// `pii`. The other types (customer ids, social network ids, `other…`, device and vendor ids) are
/// opaque ids no detector finds, so they need no mark; leaving them unmarked keeps an email or
/// phone number sent as one of them a finding.
enum MParticleIdentityPII {
  /// The kinds of personal data the identity type `name` holds; `nil` when `name` is not one of
  /// mParticle's identity types.
  static func kinds(of name: String) -> PIIKinds? {
    let types = Vendor.MParticleIdentityType.self
    guard types.allNames.contains(name) else { return nil }
    return types.personalData[name].flatMap(PIIKind.init(rawValue:)).map { PIIKinds($0) } ?? []
  }

  /// A warning for each identity the identities schema `definition` (at `path` of `document`)
  /// plans whose name is not one of mParticle's identity types: it is imported, but with no
  /// `pii` mark, as no kind of personal data is known for it.
  static func warnings(_ definition: SourceNode, _ document: SourceDocument, path: JSONPath)
    -> [ImportWarning]
  {
    (definition["properties"]?.members ?? []).compactMap { member in
      guard kinds(of: member.key) == nil else { return nil }
      let here = path.keys("properties", member.key)
      return document.warning(
        member, here,
        "\(member.key) (\(here)) is not one of mParticle's identity types: it is imported without a pii "
          + "mark, so personal data found in it is reported (add pii to the imported plan where it is intended)"
      )
    }
  }
}
