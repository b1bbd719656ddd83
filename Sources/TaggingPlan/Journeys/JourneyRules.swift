/// An entry's journey rules: what must come before it in its session, how often it may fire, and
/// how soon the same tag may repeat (`after`, `once`, `duplicateWithin`).
public struct EntryJourneyRules: Sendable, Hashable {
  /// The tags one of which must come earlier in the same session (per device); `nil` for none.
  public var after: [String]?
  /// Where the `after` key is.
  public var afterLocation: SourceLocation?
  /// How often the tag may fire: once per session, screen visit or app launch.
  public var once: OnceScope?
  /// Where the `once` key is.
  public var onceLocation: SourceLocation?
  /// The window, in milliseconds, within which the same tag with the same properties is a
  /// duplicate (the classic double-fire).
  public var duplicateWithin: Int64?
  /// Where the `duplicateWithin` key is.
  public var duplicateLocation: SourceLocation?

  /// No rule.
  public init() {}

  /// Whether it has no rule.
  public var isEmpty: Bool { after == nil && once == nil && duplicateWithin == nil }

  /// One line per rule, for generated doc comments: `Must follow checkout_started in the same
  /// session.`, `Sent at most once per session.`, `Not repeated with the same properties within 500ms.`
  public var docLines: [String] {
    var lines: [String] = []
    if let after { lines.append("Must follow \(after.joined(separator: " or ")) in the same session.") }
    if let once { lines.append("Sent at most once per \(once.noun).") }
    if let duplicateWithin {
      lines.append(
        "Not repeated with the same properties within \(JourneyDuration.text(duplicateWithin)).")
    }
    return lines
  }
}

/// What `once:` counts in: a session, a screen visit or an app launch.
public enum OnceScope: String, Sendable, Hashable, CaseIterable {
  case session
  case screen
  case appLaunch = "app-launch"

  /// `session`, `screen visit`, `app launch`.
  public var noun: String {
    switch self {
    case .session: return "session"
    case .screen: return "screen visit"
    case .appLaunch: return "app launch"
    }
  }
}

/// A named funnel (`funnels:`): tags that must come in order within one session of one device,
/// each within `maxGap` of the one before when given.
public struct Funnel: Sendable, Hashable {
  /// One step: a planned tag's name.
  public struct Step: Sendable, Hashable {
    public var tag: String
    public var location: SourceLocation

    /// A step.
    public init(tag: String, location: SourceLocation) {
      self.tag = tag
      self.location = location
    }
  }

  public var name: String
  /// Where the funnel's key is.
  public var location: SourceLocation
  public var steps: [Step]
  /// The longest time, in milliseconds, allowed between two steps; `nil` for no limit.
  public var maxGap: Int64?
  /// The severity of its findings (error by default).
  public var severity: Severity

  /// A funnel.
  public init(
    name: String, location: SourceLocation, steps: [Step], maxGap: Int64? = nil, severity: Severity = .error
  ) {
    self.name = name
    self.location = location
    self.steps = steps
    self.maxGap = maxGap
    self.severity = severity
  }

  /// `Step 2 of funnel checkout (within 10m of the step before).`: one doc line per step a tag is.
  func docLine(step: Int) -> String {
    var text = "Step \(step + 1) of \(steps.count) of funnel \(name)"
    if let maxGap, step > 0 { text += " (within \(JourneyDuration.text(maxGap)) of step \(step))" }
    return text + "."
  }
}

extension Plan {
  /// The journey rules of `entry`, one line each (generated code's doc comments): its `after`,
  /// `once` and `duplicateWithin`, then each funnel step it is.
  public func journeyDocLines(for entry: PlanEntry) -> [String] {
    var lines = entry.journey.docLines
    for funnel in funnels {
      for (step, item) in funnel.steps.enumerated() where item.tag == entry.name {
        lines.append(funnel.docLine(step: step))
      }
    }
    return lines
  }
}

/// Durations as the plan writes them: `500ms`, `2s`, `10m`, `1h`.
public enum JourneyDuration {
  /// Milliseconds of `text`, or `nil` when it is not a whole number followed by ms, s, m or h.
  public static func milliseconds(_ text: String) -> Int64? {
    let units: [(String, Int64)] = [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000)]
    for (unit, scale) in units where text.hasSuffix(unit) {
      let digits = text.dropLast(unit.count)
      guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
        let value = Int64(digits)
      else { return nil }
      return value * scale
    }
    return nil
  }

  /// `500ms`, `2s`, `10m`, `1h`: the largest unit that divides it.
  public static func text(_ milliseconds: Int64) -> String {
    if milliseconds > 0, milliseconds % 3_600_000 == 0 { return "\(milliseconds / 3_600_000)h" }
    if milliseconds > 0, milliseconds % 60_000 == 0 { return "\(milliseconds / 60_000)m" }
    if milliseconds > 0, milliseconds % 1_000 == 0 { return "\(milliseconds / 1_000)s" }
    return "\(milliseconds)ms"
  }
}
