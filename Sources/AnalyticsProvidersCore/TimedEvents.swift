import AnalyticsHub
import Foundation

/// How a provider without timed events names the start and the end of one (seed 003): the
/// closest equivalent is a pair of ordinary events, the second carrying the measured duration.
public struct TimedEventNaming: Sendable {
  /// The event name for a timed event's start, from the tag name (`onboarding`).
  public var start: @Sendable (String) -> String
  /// The event name for its stop.
  public var stop: @Sendable (String) -> String
  /// The event name for its cancellation.
  public var cancel: @Sendable (String) -> String

  /// A naming from three functions.
  public init(
    start: @escaping @Sendable (String) -> String, stop: @escaping @Sendable (String) -> String,
    cancel: @escaping @Sendable (String) -> String
  ) {
    self.start = start
    self.stop = stop
    self.cancel = cancel
  }

  /// `onboarding_start`, `onboarding_stop`, `onboarding_cancel` (Firebase, Batch).
  public static let snakeCase = TimedEventNaming(
    start: { TagNaming.snakeCase($0) + "_start" }, stop: { TagNaming.snakeCase($0) + "_stop" },
    cancel: { TagNaming.snakeCase($0) + "_cancel" })

  /// `ONBOARDING_START`, `ONBOARDING_STOP`, `ONBOARDING_CANCEL`.
  public static let upperSnakeCase = TimedEventNaming(
    start: { TagNaming.upperSnakeCase($0) + "_START" }, stop: { TagNaming.upperSnakeCase($0) + "_STOP" },
    cancel: { TagNaming.upperSnakeCase($0) + "_CANCEL" })

  /// `Onboarding Started`, `Onboarding Completed`, `Onboarding Cancelled` (Amplitude, Segment).
  public static let titleCase = TimedEventNaming(
    start: { TagNaming.titleCase($0) + " Started" }, stop: { TagNaming.titleCase($0) + " Completed" },
    cancel: { TagNaming.titleCase($0) + " Cancelled" })
}

/// A timed event tag turned into an ordinary event: its name, which boundary it is, and its
/// properties (with the duration in seconds for a stop or cancel).
public struct TimedEventEquivalent: Sendable, Hashable {
  /// Which boundary of the timed event.
  public enum Phase: String, Sendable, Hashable {
    case start
    case stop
    case cancel
  }

  /// The event name (`onboarding_stop`).
  public var name: String
  public var phase: Phase
  /// The tag's properties, plus the duration for `stop` and `cancel`.
  public var properties: Properties
  /// The measured duration in seconds (`nil` for `start`).
  public var duration: TimeInterval?

  /// An equivalent event.
  public init(name: String, phase: Phase, properties: Properties, duration: TimeInterval?) {
    self.name = name
    self.phase = phase
    self.properties = properties
    self.duration = duration
  }
}

extension Tag {
  /// The ordinary event standing for this timed event tag, or `nil` if it is not one.
  ///
  /// - Parameters:
  ///   - naming: How start/stop/cancel are named.
  ///   - durationKey: The property the duration goes in (`duration`); the hub's own `duration`
  ///     and `cancelled` properties are replaced by it.
  public func timedEquivalent(naming: TimedEventNaming = .snakeCase, durationKey: String = "duration")
    -> TimedEventEquivalent?
  {
    switch self {
    case .timedStart(let tag):
      return TimedEventEquivalent(
        name: naming.start(tag.name), phase: .start, properties: tag.properties, duration: nil)
    case .timedStop(let tag, let duration):
      var properties = tag.properties
      properties[durationKey] = .double(Self.seconds(duration))
      return TimedEventEquivalent(
        name: naming.stop(tag.name), phase: .stop, properties: properties, duration: duration)
    case .timedCancel(let tag, let duration):
      var properties = tag.properties
      properties[durationKey] = .double(Self.seconds(duration))
      return TimedEventEquivalent(
        name: naming.cancel(tag.name), phase: .cancel, properties: properties, duration: duration)
    default:
      return nil
    }
  }

  private static func seconds(_ duration: TimeInterval) -> Double { (duration * 1000).rounded() / 1000 }
}
