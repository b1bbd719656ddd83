import TaggingPlan

/// The personal data each of mParticle's identity types holds, as the kinds Tagscope's privacy
/// detectors find (``TaggingPlan/PIIKind``): a data plan's `user_identities` that plans an
/// identity intends that data there, so the import marks it `pii`.
///
/// The types are IDSync's (mParticle/mparticle-uwp-sdk `IdentityType.cs`: `customerid`, `email`,
/// `ios_idfa`, `android_aaid`, `roku_aid`, `mobile_number`, `other2`…`other10`…), the Events
/// API's spellings of the same (`other_id_2`…, ``TagscopeVendors/Vendor/MParticleIdentityType``)
/// and the web SDK's `facebookcustomaudienceid`. An advertising id (`ios_idfa`, `android_aaid`,
/// `roku_aid`, `fire_aid`, `microsoft_aid`) is `adid`, `email` is `email`, a phone number
/// (`mobile_number`, `phone_number_2`, `phone_number_3`) is `phone`. The others (customer ids,
/// social network ids, `other…`, the vendor and device ids `ios_idfv`, `android_uuid`,
/// `device_application_stamp`, `push_token`, publisher ids) are opaque ids no detector finds, so
/// they need no mark; leaving them unmarked keeps an email or phone number sent as one of them
/// a finding.
enum MParticleIdentityPII {
  /// The kinds of personal data the identity type `name` holds; `nil` when `name` is not one of
  /// mParticle's identity types.
  static func kinds(of name: String) -> PIIKinds? {
    if let kind = marked[name] { return PIIKinds(kind) }
    return unmarked.contains(name) ? [] : nil
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

  /// The identity types that hold a kind the detectors find.
  private static let marked: [String: PIIKind] = [
    "email": .email,
    "mobile_number": .phone, "phone_number_2": .phone, "phone_number_3": .phone,
    "ios_idfa": .advertisingID, "android_aaid": .advertisingID, "roku_aid": .advertisingID,
    "fire_aid": .advertisingID, "microsoft_aid": .advertisingID,
  ]

  /// The identity types whose values are ids no detector finds.
  private static let unmarked: Set<String> = {
    var names: Set<String> = [
      "other", "customerid", "facebook", "twitter", "google", "microsoft", "yahoo", "alias",
      "facebook_custom_audience_id", "facebookcustomaudienceid", "amp_id", "android_uuid", "ios_idfv",
      "push_token", "roku_publisher_id", "device_application_stamp", "microsoft_publisher_id",
    ]
    for number in 2...10 {
      names.insert("other\(number)")
      names.insert("other_id_\(number)")
    }
    return names
  }()
}
