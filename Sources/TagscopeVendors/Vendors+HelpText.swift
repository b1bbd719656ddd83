import Foundation

/// What the help pages say of the vendors' SDK messages, written from their descriptors.
extension Vendors {
  /// Where each SDK vendor's recorded messages hold an event's properties, grouped by path in the
  /// registry's order: "`event_properties` for Amplitude, `properties` for Segment, RudderStack
  /// and PostHog, …; Mixpanel's parameters are the properties".
  public static func propertiesPlaces(quote: String = "`") -> String {
    var paths: [(path: String, names: [String])] = []
    var parameters: [String] = []
    for vendor in all {
      switch vendor.messages?.properties {
      case .at(let path)?:
        if let index = paths.firstIndex(where: { $0.path == path }) {
          paths[index].names.append(vendor.shortName)
        } else {
          paths.append((path, [vendor.shortName]))
        }
      case .parameters?: parameters.append(vendor.shortName)
      case .unmapped?, nil: break
      }
    }
    let placed = paths.map { "\(quote)\($0.path)\(quote) for \(list($0.names))" }.joined(separator: ", ")
    guard !parameters.isEmpty else { return placed }
    return placed + "; the parameters themselves for " + list(parameters)
  }

  /// The fields `listen` knows a message by when its SDK retries it (`messageId`, `insert_id`…),
  /// each once, in the registry's order.
  public static var messageIDFields: [String] {
    var seen: Set<String> = []
    return all.flatMap { $0.messages?.messageID ?? [] }.map(\.path).filter { seen.insert($0).inserted }
  }

  /// The vendors `listen` decodes from their SDKs' HTTP APIs: `Amplitude, Segment, … and Snowplow`.
  public static var sdkNames: String {
    list(all.filter { $0.paths.contains(.sdk) }.map(\.shortName))
  }

  /// What `tagscope help proxy` says of each vendor's traffic besides its hosts, in registry
  /// order: its name and its ``Vendor/wireNote``.
  public static var wireNotes: [(name: String, note: String)] {
    all.compactMap { vendor in vendor.wireNote.map { (vendor.name, $0) } }
  }

  /// `a`, `a and b`, `a, b and c`.
  static func list(_ names: [String]) -> String {
    guard let last = names.last else { return "" }
    return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " and " + last
  }
}

extension Vendor {
  /// Its name without the parenthesis (`Google Analytics 4` of `Google Analytics 4 (gtag)`).
  public var shortName: String {
    name.split(separator: "(").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? name
  }
}
