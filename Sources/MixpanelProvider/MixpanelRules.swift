import AnalyticsHub
import AnalyticsProvidersCore

/// Mixpanel's documented limits.
///
/// Sources:
/// - [TRACK] Mixpanel, "Track Events" reference, https://developer.mixpanel.com/reference/track-event
///   ("Limits"): an event must have fewer than 255 properties, nested objects fewer than 255 keys,
///   arrays fewer than 255 elements.
/// - [IMPORT] Mixpanel, "Import Events", https://developer.mixpanel.com/reference/import-events:
///   `$insert_id` must be ≤ 36 bytes of alphanumerics or `-`; failing records are rejected.
/// - [TYPES] Mixpanel "Data types" / "Events FAQ" (read through secondary quotes in this session,
///   treat as best knowledge): string property values are limited to 255 bytes and truncated.
/// Not confirmed in this session: the Swift SDK replaces an empty event name by `mp_event`
/// (from the mixpanel-swift source as remembered, not re-checked).
public enum MixpanelRules: ProviderRuleSet {
  public static let providerID: ProviderID = "mixpanel"

  static let maxProperties = 255
  static let maxStringBytes = 255
  static let maxInsertIDBytes = 36

  public static func check<Call: ProviderCall>(_ calls: [Call], into violations: inout [RuleViolation]) {
    for index in calls.indices {
      let call = calls[index]
      switch call.method {
      case "track":
        let event = call.name ?? ""
        if event.isEmpty {
          violations.append(
            RuleViolation(
              rule: "mixpanel.event-name-missing",
              message: "track: the event name is empty; the SDK sends it as 'mp_event'",
              consequence: .replaced, callIndex: index))
        }
        checkProperties(
          call.parameters, method: "track '\(TextChecks.excerpt(event))'", index: index, into: &violations)
      case "registerSuperProperties", "people.set":
        checkProperties(call.parameters, method: call.method, index: index, into: &violations)
      default:
        break
      }
    }
  }

  static func checkProperties(
    _ properties: Properties, method: @autoclosure () -> String, index: Int,
    into violations: inout [RuleViolation]
  ) {
    if properties.count >= maxProperties {
      // [TRACK] fewer than 255 properties.
      violations.append(
        RuleViolation(
          rule: "mixpanel.property-count",
          message:
            "\(method()): \(properties.count) properties; Mixpanel accepts fewer than \(maxProperties)",
          consequence: .rejected, callIndex: index))
    }
    for (key, value) in properties {
      switch value {
      case .string(let text):
        if key == "$insert_id" {
          if text.utf8.count > maxInsertIDBytes || !text.utf8.allSatisfy(isInsertIDByte) {
            // [IMPORT] $insert_id ≤ 36 bytes, alphanumeric or '-'.
            violations.append(
              RuleViolation(
                rule: "mixpanel.insert-id",
                message:
                  "\(method()): $insert_id '\(TextChecks.excerpt(text))' must be at most \(maxInsertIDBytes) "
                  + "bytes of letters, digits or '-'; Mixpanel rejects the event",
                consequence: .rejected, callIndex: index))
          }
        } else if text.utf8.count > maxStringBytes {
          // [TYPES] 255-byte strings.
          violations.append(
            RuleViolation(
              rule: "mixpanel.string-length",
              message:
                "\(method()): property '\(key)' is \(text.utf8.count) bytes; Mixpanel keeps the first \(maxStringBytes)",
              consequence: .truncated, callIndex: index))
        }
      case .array(let values) where values.count >= maxProperties:
        // [TRACK] arrays fewer than 255 elements.
        violations.append(
          RuleViolation(
            rule: "mixpanel.array-length",
            message:
              "\(method()): property '\(key)' has \(values.count) elements; Mixpanel accepts fewer than 255",
            consequence: .rejected, callIndex: index))
      case .object(let nested) where nested.count >= maxProperties:
        // [TRACK] nested objects fewer than 255 keys.
        violations.append(
          RuleViolation(
            rule: "mixpanel.object-keys",
            message:
              "\(method()): property '\(key)' has \(nested.count) keys; Mixpanel accepts fewer than 255",
            consequence: .rejected, callIndex: index))
      default:
        break
      }
    }
  }

  @inline(__always)
  static func isInsertIDByte(_ byte: UInt8) -> Bool {
    TextChecks.isASCIILetter(byte) || TextChecks.isASCIIDigit(byte) || byte == 0x2D
  }
}
