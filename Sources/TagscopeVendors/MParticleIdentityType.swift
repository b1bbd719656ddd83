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
  }
}
