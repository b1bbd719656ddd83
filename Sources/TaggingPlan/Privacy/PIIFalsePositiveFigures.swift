/// The detectors' false-positive figures that `help plan` states: values that are not personal
/// data, scanned by `PrivacyDetectorTests.testFalsePositiveRateOnDemoAndFixtureValues`, which
/// fails when what it measures is no longer what these say.
public enum PIIFalsePositiveFigures {
  /// The string and number values the providers receive in the demo's session.
  public static let demoValues = 281
  /// Of those, the values a detector flags.
  public static let demoFalsePositives = 0
  /// The values of the real plans', exports' and payloads' fixtures.
  public static let fixtureValues = 1_188
  /// Of those, the values a detector flags that are not personal data.
  public static let fixtureFalsePositives = 0

  /// `0 of 281 demo values, 0 of 1,188 fixture values`.
  public static var sentence: String {
    "\(demoFalsePositives) of \(grouped(demoValues)) demo values and \(fixtureFalsePositives) of "
      + "\(grouped(fixtureValues)) fixture values"
  }

  /// `1,188`.
  static func grouped(_ number: Int) -> String {
    var digits = String(number)
    var index = digits.count - 3
    while index > 0 {
      digits.insert(",", at: digits.index(digits.startIndex, offsetBy: index))
      index -= 3
    }
    return digits
  }
}
