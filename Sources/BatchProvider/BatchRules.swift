import AnalyticsHub
import AnalyticsProvidersCore

/// Batch's documented rules.
///
/// Sources:
/// - [TRACK] Batch SDK reference, `trackEvent` (batch_flutter `BatchUser.trackEvent` /
///   `BatchProfile.trackEvent`, mirroring the native SDKs): event names `[a-z0-9_]`, non-empty,
///   ≤ 30 characters; a label must not be empty or longer than 200 characters, "If the label is
///   too long, it will be ignored".
/// - [DATA] `BatchEventData`: "Events support at most 10 tags and 15 attributes. Event data that is
///   over the limit will be discarded"; keys `[a-z0-9_]` ≤ 30 characters ("limits enforced by the
///   native SDKs, they might be different depending on the … SDK version").
/// - [ATTR] Batch iOS, "Attributes", https://doc.batch.com/developer/sdk/ios/profile-data/attributes:
///   attribute names `[a-z0-9_]` ≤ 30; string values ≤ 300 characters and not empty (SDK v2; v1
///   documented 64).
/// Not confirmed in this session: tag collection names follow the attribute naming rule and tags
/// are ≤ 64 characters.
public enum BatchRules: ProviderRuleSet {
  public static let providerID: ProviderID = "batch"

  static let maxNameLength = 30
  static let maxLabelLength = 200
  static let maxEventAttributes = 15
  static let maxEventTags = 10
  static let maxStringLength = 300
  static let maxTagLength = 64

  public static func check<Call: ProviderCall>(_ calls: [Call], into violations: inout [RuleViolation]) {
    for index in calls.indices {
      let call = calls[index]
      switch call.method {
      case "trackEvent": checkEvent(call.name ?? "", call.parameters, index: index, into: &violations)
      case "setAttribute":
        let key = call.name ?? ""
        if !isBatchName(key) {
          violations.append(
            RuleViolation(
              rule: "batch.attribute-name",
              message:
                "setAttribute '\(TextChecks.excerpt(key))': attribute names are 1 to \(maxNameLength) characters of "
                + "[a-z0-9_]; Batch rejects the attribute",
              consequence: .dropped, callIndex: index))
        }
        if case .string(let text) = call.parameters["value"] ?? .null,
          text.isEmpty || text.count > maxStringLength
        {
          violations.append(
            RuleViolation(
              rule: "batch.attribute-value-length",
              message:
                "setAttribute '\(key)': string values must be 1 to \(maxStringLength) characters (this one is "
                + "\(text.count)); Batch rejects the attribute",
              consequence: .dropped, callIndex: index))
        }
      case "addTag", "removeTag":
        let collection = call.name ?? ""
        let tag = call.parameters["tag"]?.stringValue ?? ""
        if !isBatchName(collection) {
          violations.append(
            RuleViolation(
              rule: "batch.tag-collection-name",
              message:
                "\(call.method) '\(tag)': collection '\(TextChecks.excerpt(collection))' must be 1 to "
                + "\(maxNameLength) characters of [a-z0-9_]; Batch ignores the change",
              consequence: .dropped, callIndex: index))
        }
        if tag.isEmpty || tag.count > maxTagLength {
          violations.append(
            RuleViolation(
              rule: "batch.tag-length",
              message:
                "\(call.method) in '\(collection)': tags are 1 to \(maxTagLength) characters (this one is "
                + "\(tag.count)); Batch ignores the change",
              consequence: .dropped, callIndex: index))
        }
      default:
        break
      }
    }
  }

  static func checkEvent(
    _ name: String, _ parameters: Properties, index: Int, into violations: inout [RuleViolation]
  ) {
    if !isBatchName(name) {
      // [TRACK] event names.
      violations.append(
        RuleViolation(
          rule: "batch.event-name",
          message:
            "trackEvent '\(TextChecks.excerpt(name))': event names are 1 to \(maxNameLength) characters of "
            + "[a-z0-9_]; Batch does not track the event",
          consequence: .dropped, callIndex: index))
    }
    var attributes = 0
    for (key, value) in parameters {
      switch key {
      case "$label":
        let label = value.stringValue ?? ""
        if label.isEmpty || label.count > maxLabelLength {
          // [TRACK] labels.
          violations.append(
            RuleViolation(
              rule: "batch.event-label-length",
              message:
                "trackEvent '\(name)': the label is \(label.count) characters; Batch takes 1 to \(maxLabelLength) "
                + "and ignores it otherwise",
              consequence: .dropped, callIndex: index))
        }
      case "$tags":
        if case .array(let tags) = value, tags.count > maxEventTags {
          // [DATA] at most 10 tags.
          violations.append(
            RuleViolation(
              rule: "batch.event-tag-count",
              message:
                "trackEvent '\(name)': \(tags.count) tags; Batch keeps \(maxEventTags) and discards the rest",
              consequence: .dropped, callIndex: index))
        }
      default:
        attributes += 1
        if !isBatchName(key) {
          // [DATA] attribute keys.
          violations.append(
            RuleViolation(
              rule: "batch.event-attribute-name",
              message:
                "trackEvent '\(name)': attribute '\(TextChecks.excerpt(key))' must be 1 to \(maxNameLength) "
                + "characters of [a-z0-9_]; Batch discards it",
              consequence: .dropped, callIndex: index))
        }
      }
    }
    if attributes > maxEventAttributes {
      // [DATA] at most 15 attributes.
      violations.append(
        RuleViolation(
          rule: "batch.event-attribute-count",
          message:
            "trackEvent '\(name)': \(attributes) attributes; Batch keeps \(maxEventAttributes) and discards the rest",
          consequence: .dropped, callIndex: index))
    }
  }

  @inline(__always)
  static func isBatchName(_ name: String) -> Bool {
    let count = name.utf8.count
    return count > 0 && count <= maxNameLength && TextChecks.isLowercaseDigitUnderscore(name)
  }
}
