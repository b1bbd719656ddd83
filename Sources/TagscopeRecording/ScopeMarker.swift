import AnalyticsHub
import Foundation

/// A UI test scope's begin or end as a recording line: a drop marker of nothing,
/// `{"dropped":0,"time":"…","by":"scope","scope":"checkout","event":"begin","device":"sim"}`.
///
/// Written as a drop marker so every reader, old or new, takes it (replay lists it among the gaps,
/// `validate` counts no lost record); readers that know scopes split the records by it. `device`
/// is present when the scope takes only that source's records.
public struct ScopeMarker: Sendable, Hashable {
  /// Whether the scope begins or ends here.
  public enum Event: String, Sendable, Hashable {
    case begin, end
  }

  /// The `by` of a scope's drop marker.
  public static let origin = "scope"

  /// The scope's name (`scope`).
  public var name: String
  /// `begin` or `end` (`event`).
  public var event: Event
  /// The only source whose records the scope takes (`device`); `nil` for every source.
  public var source: String?
  /// When it was written, in milliseconds since 1970.
  public var timeMilliseconds: Int64

  /// A scope line.
  public init(name: String, event: Event, source: String? = nil, time: Date = Date()) {
    self.name = name
    self.event = event
    self.source = source
    self.timeMilliseconds = time.recordMilliseconds
  }

  /// The scope line `marker` is, or `nil` when it is another drop marker (or a scope line missing
  /// its name or event).
  public init?(_ marker: DropMarker) {
    guard marker.origin == Self.origin, marker.count == 0,
      case .string(let name)? = marker.extra["scope"], case .string(let word)? = marker.extra["event"],
      let event = Event(rawValue: word)
    else { return nil }
    self.name = name
    self.event = event
    if case .string(let source)? = marker.extra["device"] { self.source = source }
    self.timeMilliseconds = marker.timeMilliseconds
  }

  /// The drop marker written for it.
  public var dropMarker: DropMarker {
    var extra: Properties = ["scope": .string(name), "event": .string(event.rawValue)]
    if let source { extra["device"] = .string(source) }
    var marker = DropMarker(count: 0, time: Date(), origin: Self.origin, extra: extra)
    marker.timeMilliseconds = timeMilliseconds
    return marker
  }
}
