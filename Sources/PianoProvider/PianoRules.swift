import AnalyticsHub
import AnalyticsProvidersCore

/// Piano Analytics' documented rules.
///
/// Sources:
/// - [STD] Piano Analytics developer docs, "Standard events",
///   https://developers.atinternet-solutions.com/piano-analytics/data-collection/how-to-send-events/standard-events
///   — `page.display` with `page`, `page_chapter1…3`; `click.action`, `click.navigation`,
///   `click.download`, `click.exit` with `click`, `click_chapter1…3`; metrics such as time spent
///   per page rely on these standard events. The properties are "not mandatory", so a missing
///   one degrades reports rather than losing the event.
/// - [PROP] Piano Analytics, "Properties" (support.piano.io 4465980791314): "The property key
///   cannot exceed 40 characters"; STRING values are limited to 255. What happens to a longer
///   value (truncated) is our reading, not confirmed.
public enum PianoRules: ProviderRuleSet {
  public static let providerID: ProviderID = "piano"

  static let maxKeyLength = 40
  static let maxStringLength = 255

  public static func check<Call: ProviderCall>(_ calls: [Call], into violations: inout [RuleViolation]) {
    for index in calls.indices {
      let call = calls[index]
      guard call.method == "sendEvent" else { continue }
      let name = call.name ?? ""
      let properties = call.parameters
      if name.isEmpty {
        violations.append(
          RuleViolation(
            rule: "piano.event-name-missing",
            message: "sendEvent: the event name is empty; Piano cannot process it",
            consequence: .dropped, callIndex: index))
      } else if name == PianoEvent.pageDisplay {
        if properties["page"] == nil {
          // [STD] page.display is reported by its `page` property.
          violations.append(
            RuleViolation(
              rule: "piano.page-display-page",
              message: "sendEvent 'page.display' without a 'page' property: the page view has no page name",
              consequence: .degraded, callIndex: index))
        }
      } else if name.hasPrefix("click.") {
        let type = name.dropFirst(6)
        if PianoClick(rawValue: String(type)) == nil {
          // [STD] the four standard click events.
          violations.append(
            RuleViolation(
              rule: "piano.click-type",
              message:
                "sendEvent '\(name)': not a standard click event (click.action, click.navigation, click.download, "
                + "click.exit); it is not counted in click metrics",
              consequence: .degraded, callIndex: index))
        } else if properties["click"] == nil {
          // [STD] click events are reported by their `click` property.
          violations.append(
            RuleViolation(
              rule: "piano.click-name",
              message: "sendEvent '\(name)' without a 'click' property: the click has no label",
              consequence: .degraded, callIndex: index))
        }
      }
      for (key, value) in properties {
        if key.utf8.count > maxKeyLength, key.count > maxKeyLength {
          // [PROP] property keys ≤ 40 characters: such a key cannot be declared in the data model, so
          // its values are not stored (our reading of [PROP]; the collection response is not documented).
          violations.append(
            RuleViolation(
              rule: "piano.property-key-length",
              message:
                "sendEvent '\(name)': property key '\(TextChecks.excerpt(key))' is \(key.count) characters; Piano "
                + "property keys are at most \(maxKeyLength)",
              consequence: .dropped, callIndex: index))
        }
        if case .string(let text) = value, text.utf8.count > maxStringLength, text.count > maxStringLength {
          // [PROP] STRING values ≤ 255.
          violations.append(
            RuleViolation(
              rule: "piano.string-length",
              message:
                "sendEvent '\(name)': property '\(key)' is \(text.count) characters; Piano STRING properties hold "
                + "\(maxStringLength)",
              consequence: .truncated, callIndex: index))
        }
      }
    }
  }
}
