import AnalyticsHub
import TaggingPlan
import TagscopeRecording

/// A provider call catalogue of every call the sample's records carry (per provider, each call
/// name with its method, each nameless call's method, and their parameters' types, with
/// `additionalProperties: false`), appended to a plan: what an imported tracking plan checks, at
/// the scale of the demo's traffic.
enum BenchCatalogue {
  private typealias Entries = [String: (method: String?, params: [String: Set<String>])]

  /// `plan` (YAML without a `catalogues` key) with a `catalogues` section for `records`' calls.
  static func plan(_ plan: String, cataloguing records: [Record]) -> String {
    var calls: [String: Entries] = [:]
    var methods: [String: Entries] = [:]
    var order: [String] = []
    for record in records {
      for output in record.outputs {
        if !order.contains(output.provider) { order.append(output.provider) }
        for call in output.calls {
          if let name = call.name {
            add(call, to: &calls[output.provider, default: [:]][name], method: call.method)
          } else {
            add(call, to: &methods[output.provider, default: [:]][call.method], method: nil)
          }
        }
      }
    }
    var out = plan + "\ncatalogues:\n"
    for provider in order {
      out += "  \(quoted(provider)):\n    unplanned: warning\n"
      for (section, entries) in [("calls", calls[provider] ?? [:]), ("methods", methods[provider] ?? [:])]
      where !entries.isEmpty {
        out += "    \(section):\n"
        for (key, entry) in entries.sorted(by: { $0.key < $1.key }) {
          out += "      \(quoted(key)):\n"
          if let method = entry.method { out += "        method: \(quoted(method))\n" }
          out += "        additionalProperties: false\n"
          if !entry.params.isEmpty { out += "        params:\n" }
          for (param, types) in entry.params.sorted(by: { $0.key < $1.key }) {
            out += "          \(quoted(param)): {type: [\(types.sorted().joined(separator: ", "))]}\n"
          }
        }
      }
    }
    return out
  }

  private static func add(
    _ call: CallDescription, to entry: inout (method: String?, params: [String: Set<String>])?,
    method: String?
  ) {
    var current = entry ?? (method, [:])
    for index in call.parameters.indices {
      current.params[call.parameters[index].key, default: []].insert(type(of: call.parameters[index].value))
    }
    entry = current
  }

  private static func type(of value: PropertyValue) -> String {
    switch value {
    case .string, .date: return "string"
    case .int, .largeInteger, .double: return "number"
    case .bool: return "boolean"
    case .array: return "array"
    case .object: return "object"
    case .null: return "\"null\""
    }
  }

  private static func quoted(_ text: String) -> String { JSONText.quoted(text) }
}
