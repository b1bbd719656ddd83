import AnalyticsHub

extension Vendor {
  /// mParticle's user identity types: the numbers its iOS and Android SDKs send (a batch's `ui`
  /// `n`, an identity change's `identity_type`) and the Events API's names for them
  /// (mparticle-python-sdk `UserIdentities`), as Android's `MParticle.java` `IdentityType` numbers
  /// them (`Other2(10)`…`Other10(18)`, `MobileNumber(19)`, `PhoneNumber2(20)`, `PhoneNumber3(21)`).
  /// `listen` carries a mobile identity under its name; an imported data plan's identities
  /// schema judges a mobile batch's `ui` by these numbers.
  public enum MParticleIdentityType {
    /// The Events API's name of each identity type number.
    public static let names: [Int: String] = {
      var names: [Int: String] = [
        0: "other", 1: "customerid", 2: "facebook", 3: "twitter", 4: "google", 5: "microsoft", 6: "yahoo",
        7: "email", 8: "alias", 9: "facebook_custom_audience_id", 19: "mobile_number", 20: "phone_number_2",
        21: "phone_number_3",
      ]
      for other in 2...10 { names[other + 8] = "other_id_\(other)" }
      return names
    }()

    /// The numbers of each name (the inverse of ``names``).
    public static let numbers: [String: Int] = Dictionary(
      uniqueKeysWithValues: names.map { ($0.value, $0.key) })

    /// The personal data each identity type that holds some carries, in the words of a plan's
    /// `pii` (`email`, `phone`, `adid`): an advertising id (`ios_idfa`, `android_aaid`, `roku_aid`,
    /// `fire_aid`, `microsoft_aid`), an email address, a phone number (`mobile_number`,
    /// `phone_number_2`, `phone_number_3`). IDSync's types are those of
    /// mParticle/mparticle-uwp-sdk `IdentityType.cs`.
    public static let personalData: [String: String] = [
      "email": "email",
      "mobile_number": "phone", "phone_number_2": "phone", "phone_number_3": "phone",
      "ios_idfa": "adid", "android_aaid": "adid", "roku_aid": "adid", "fire_aid": "adid",
      "microsoft_aid": "adid",
    ]

    /// Every identity type name IDSync, the Events API and the web SDK use: ``names``, IDSync's
    /// (`other2`…`other10`, the device and vendor ids `ios_idfv`, `android_uuid`,
    /// `device_application_stamp`, `push_token`, the publisher ids, `amp_id`) and the web SDK's
    /// `facebookcustomaudienceid`. Those not in ``personalData`` hold opaque ids.
    public static let allNames: Set<String> = {
      var all = Set(names.values).union(personalData.keys)
      all.formUnion([
        "facebookcustomaudienceid", "amp_id", "android_uuid", "ios_idfv", "push_token", "roku_publisher_id",
        "device_application_stamp", "microsoft_publisher_id",
      ])
      for number in 2...10 { all.insert("other\(number)") }
      return all
    }()
  }
}
