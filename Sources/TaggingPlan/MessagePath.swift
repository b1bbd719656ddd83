import AnalyticsHub

/// Where an SDK's message holds an event's properties (`propertiesAt` of a catalogue or entry):
/// a dotted path of object keys (`properties`, `event_properties`, `unstruct_event.data.data`);
/// `.` for the message itself.
public struct MessagePath: Sendable, Hashable, CustomStringConvertible {
  /// The keys from the message to the object, outermost first.
  public let keys: [String]

  /// The path `text` names (`unstruct_event.data.data`, `.` for the message); `nil` when a key
  /// between dots is empty.
  public init?(_ text: String) {
    if text == "." {
      keys = []
      return
    }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard !parts.contains(where: \.isEmpty) else { return nil }
    keys = parts
  }

  /// The path as written.
  public var description: String { keys.isEmpty ? "." : keys.joined(separator: ".") }

  /// What the path reaches in `parameters`: the object there, `.absent` when a key on the way is
  /// missing or null, `.notObject` with the value when something other than an object is in the way.
  public func resolve(in parameters: Properties) -> Resolution {
    var current = parameters
    for (index, key) in keys.enumerated() {
      guard let value = current[key], value != .null else { return .absent }
      guard case .object(let inner) = value else {
        return .notObject(keys[...index].joined(separator: "."), value)
      }
      current = inner
    }
    return .object(current)
  }

  /// The outcome of ``resolve(in:)``.
  public enum Resolution: Sendable, Hashable {
    /// The object at the path.
    case object(Properties)
    /// No value at the path.
    case absent
    /// A value that is not an object, at the path prefix named.
    case notObject(String, PropertyValue)
  }
}
