import AnalyticsHub
import TagscopeRecording

/// When a conditional provider expectation applies.
public struct CallCondition: Sendable, Hashable {
  /// Timed events only: which boundary (`start`, `stop`, or `cancel`: a stop with `cancelled: true`).
  public enum Phase: String, Sendable, Hashable, CaseIterable {
    case start
    case stop
    case cancel
  }

  /// The current screens it applies on; `nil` for any screen.
  public var screens: [String]?
  /// The timed event boundary it applies to; `nil` for both.
  public var phase: Phase?

  /// A condition.
  public init(screens: [String]? = nil, phase: Phase? = nil) {
    self.screens = screens
    self.phase = phase
  }

  /// Whether a record on `screen` (at `phase`, for timed events) meets the condition.
  public func matches(screen: String?, phase recordPhase: Phase?) -> Bool {
    if let screens {
      guard let screen, screens.contains(screen) else { return false }
    }
    if let phase, phase != recordPhase { return false }
    return true
  }
}

/// What the plan expects of one parameter of a provider call.
public enum ParamExpectation: Sendable, Hashable {
  /// Present, any value (`params: [podcast_title]`).
  case present
  /// Present with this value (`params: {screen_name: show_podcasts}`).
  case value(PropertyValue)
  /// Present and conforming (`params: {podcast_title: {type: string, maxLength: 100}}`).
  case constrained(PropertyRule)
}

/// One planned parameter: its name, what is expected and where the plan says so.
public struct PlannedParam: Sendable, Hashable {
  public var name: String
  public var expectation: ParamExpectation
  public var location: SourceLocation

  /// A planned parameter.
  public init(name: String, expectation: ParamExpectation, location: SourceLocation) {
    self.name = name
    self.expectation = expectation
    self.location = location
  }
}

/// One expectation on a provider: a call with a name (and method) and parameters, or no call at
/// all, optionally only under a condition.
public struct ExpectedCall: Sendable, Hashable {
  /// When it applies; `nil` always.
  public var condition: CallCondition?
  /// `true` when the provider must receive nothing (`piano: none`, or `none: true` in a list).
  public var isNone: Bool
  /// The call's event/screen/property name.
  public var name: String?
  /// The SDK method (`logEvent`, `setUserProperty`…), when the plan names one.
  public var method: String?
  public var params: [PlannedParam]
  /// Where the expectation is written in the plan.
  public var location: SourceLocation

  /// An expectation.
  public init(
    condition: CallCondition? = nil, isNone: Bool = false, name: String? = nil, method: String? = nil,
    params: [PlannedParam] = [], location: SourceLocation
  ) {
    self.condition = condition
    self.isNone = isNone
    self.name = name
    self.method = method
    self.params = params
    self.location = location
  }

  /// Whether `call` is the planned one: same name (or, for a call named by an Iglu URI, its schema
  /// name) and, when planned, same method.
  public func identifies(_ call: CallDescription) -> Bool {
    if let name, call.name != name, call.name.flatMap(IgluSchemaName.of) != name { return false }
    if let method, call.method != method { return false }
    return true
  }

  /// `play_podcast_from_favorites` or `setUserProperty auto_play`: how messages name the call.
  public var label: String { callLabel(method: method, name: name) }
}

/// `logEvent play_podcast`, `play_podcast` or `setUserProperty`: how messages name a call by
/// what is known of it (`a call` when nothing is).
func callLabel(method: String?, name: String?) -> String {
  switch (method, name) {
  case (let method?, let name?): return "\(method) \(name)"
  case (nil, let name?): return name
  case (let method?, nil): return method
  case (nil, nil): return "a call"
  }
}

/// Everything a plan entry expects of one provider.
public struct ProviderPlan: Sendable, Hashable {
  /// The provider identifier (`firebase`).
  public var provider: String
  /// The expectations, in plan order. Those with a condition apply when it holds; those without
  /// apply when no conditional one does (the fallback).
  public var calls: [ExpectedCall]
  /// Where the provider key is in the plan.
  public var location: SourceLocation

  /// A provider plan.
  public init(provider: String, calls: [ExpectedCall], location: SourceLocation) {
    self.provider = provider
    self.calls = calls
    self.location = location
  }
}

/// `track Order Completed`, or `identify` for a call without a name: how messages name a call
/// a provider received.
func callLabel(_ call: CallDescription) -> String { callLabel(method: call.method, name: call.name) }
