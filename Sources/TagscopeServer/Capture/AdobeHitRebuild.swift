import AnalyticsHub
import TagscopeRecording

/// An Adobe Analytics hit's form written again from its record (the inverse of
/// ``AdobeHitFields``): its variables, and its context data nested in levels at each key's dots
/// (`c.&a.&action=play&.a&.c`), as aepsdk-analytics' `ContextDataUtil` serializes it.
enum AdobeHitRebuild {
  /// The form of `variables` with `contextData` in its `c.` level after `ce` (or first); `nil`
  /// when a key would not read back the same (an empty level: `a..b`, `.a`, `a.`).
  static func form(variables: Properties, contextData: Properties) -> String? {
    var tree = Node()
    for (key, value) in contextData {
      let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
      guard !parts.contains(where: \.isEmpty) else { return nil }
      tree.insert(parts[...], value)
    }
    var fields = variables.map { field($0.key, $0.value) }
    if !contextData.isEmpty {
      let block = field("c.", nil) + tree.serialized() + "&" + field(".c", nil)
      let place = variables.keys.firstIndex(of: "ce").map { $0 + 1 } ?? 0
      fields.insert(block, at: place)
    }
    return fields.joined(separator: "&")
  }

  /// One context data level: its value, if a key ends there, and its levels in order.
  private struct Node {
    var value: PropertyValue?
    var names: [String] = []
    var children: [String: Node] = [:]

    mutating func insert(_ parts: ArraySlice<String>, _ leaf: PropertyValue) {
      guard let first = parts.first else {
        value = leaf
        return
      }
      if children[first] == nil { names.append(first) }
      children[first, default: Node()].insert(parts.dropFirst(), leaf)
    }

    /// The pairs of this level's children, each level opened and closed (`&a.&…&.a`).
    func serialized() -> String {
      var text = ""
      for name in names {
        guard let child = children[name] else { continue }
        if let value = child.value { text += "&" + AdobeHitRebuild.field(name, value) }
        if !child.names.isEmpty {
          text +=
            "&" + AdobeHitRebuild.field(name + ".", nil) + child.serialized() + "&"
            + AdobeHitRebuild.field("." + name, nil)
        }
      }
      return text
    }
  }

  /// `name=value` form-encoded, a non-text value as JSON; a level's name alone (`c.`, `.c`).
  static func field(_ name: String, _ value: PropertyValue?) -> String {
    guard let value else { return HARRequestRebuild.formEncoded(name) }
    var text = ""
    if case .string(let string) = value { text = string } else { text = JSONText.value(value) }
    return HARRequestRebuild.formEncoded(name) + "=" + HARRequestRebuild.formEncoded(text)
  }
}
