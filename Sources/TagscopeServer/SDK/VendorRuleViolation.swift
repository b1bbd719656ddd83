import AnalyticsHub

extension RuleViolation {
  /// A rule of `provider`'s API a decoder applies (`<provider>.<rule>`): what it did with what the
  /// SDK sent, the record keeping what it read (degraded unless said otherwise).
  static func vendor(
    _ provider: String, _ rule: String, _ message: String, consequence: Consequence = .degraded
  ) -> RuleViolation {
    RuleViolation(rule: "\(provider).\(rule)", message: message, consequence: consequence)
  }
}
