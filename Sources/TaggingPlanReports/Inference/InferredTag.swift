import AnalyticsHub
import TaggingPlan
import TagscopeRecording

/// What `tagscope plan infer` learns about one tag from the records that carry it: its
/// properties (types, presence, small sets of string values), the screens it happened on, and
/// per provider the calls made on each screen (or, for timed events, in each phase). Built one
/// tag at a time from an ``InferenceStore``, for ``PlanDraftWriter``.
struct InferredTag {
  /// One property across the tag's records.
  struct Property {
    /// Plan types seen, one bit each (see ``InferredTag/typeNames``).
    var types: UInt8 = 0

    /// The plan type names seen, alphabetically.
    var typeNames: [String] {
      InferredTag.typeNames.enumerated().filter { types & (1 << UInt8($0.offset)) != 0 }.map(\.element)
        .sorted()
    }
    /// Records where it is present and not null.
    var present = 0
    /// Distinct string values with how often each was seen, up to ``InferredTag/enumLimit`` + 1
    /// (more means "not an enum").
    var values: [String: Int] = [:]
    /// Whether a value was not a string (then no `enum`).
    var onlyStrings = true

    /// The values of an `enum` for the property named `name`, when it has one: only strings, at
    /// most ``InferredTag/enumLimit`` distinct values, each seen ``InferredTag/enumMinimumRepeats``
    /// times or more and ``InferredTag/enumAverageRepeats`` on average (a value seen once or
    /// twice says the sample has not seen them all), and no identity or content: not a key
    /// named like an id, no id-shaped value, no free text (see ``IdentityShape``), not three
    /// values or more mostly with spaces (titles, names, messages: content, not a choice).
    func inferredEnum(name: String) -> [String]? {
      guard onlyStrings, !values.isEmpty, values.count <= InferredTag.enumLimit,
        present >= InferredTag.enumAverageRepeats * values.count,
        values.values.allSatisfy({ $0 >= InferredTag.enumMinimumRepeats }),
        !IdentityShape.isIdentityKey(name),
        !values.keys.contains(where: { IdentityShape.isIdShaped($0) || IdentityShape.isFreeText($0) })
      else { return nil }
      let spaced = values.keys.count { $0.contains(where: \.isWhitespace) }
      guard values.count < 3 || spaced * 2 <= values.count else { return nil }
      return values.keys.sorted()
    }
  }

  /// One call a provider received (method and name), where it appeared and with which parameters.
  struct Call: Hashable {
    var method: String
    var name: String?
  }

  struct CallSeen {
    /// Times seen.
    var count = 0
    /// Parameter names present each time.
    var parameters: Set<String>?
    /// Where it appeared: a screen, or a timed event's phase.
    var places: Set<String> = []
  }

  /// One provider's outputs for the tag.
  struct Provider {
    var outputs = 0
    var blocked = 0
    /// Places where the provider had an output that was not blocked, and where it made a call.
    var places: Set<String> = []
    var placesWithCalls: Set<String> = []
    var calls: [Call: CallSeen] = [:]
  }

  /// String values kept per property for `enum`: an `enum` has at most this many.
  static let enumLimit = 10
  /// Times every value of an `enum` was seen at least, and on average.
  static let enumMinimumRepeats = 3
  static let enumAverageRepeats = 4

  var section: PlanSection
  var name: String
  var count = 0
  var properties: [String: Property] = [:]
  /// Screens it happened on (`nil` in the set: a record without a current screen).
  var screens: Set<String?> = []
  var providers: [String: Provider] = [:]

  init(section: PlanSection, name: String) {
    self.section = section
    self.name = name
  }

  /// Where a record happened, for its calls: its screen, or a timed event's phase.
  static func place(of record: Record, section: PlanSection) -> String? {
    guard section == .timed else { return record.context.screen }
    if record.kind == .timedStart { return "start" }
    return record.properties["cancelled"] == .bool(true) ? "cancel" : "stop"
  }

  /// The hub's own properties of a timed stop (`duration`, `cancelled`), which plans do not list.
  static func isHubAdded(_ key: String, kind: RecordKind) -> Bool {
    kind == .timedStop && (key == "duration" || key == "cancelled")
  }

  /// The plan's type names, by bit.
  static let typeNames = ["string", "integer", "number", "boolean", "array", "object", "null"]

  /// The bit of a value's plan type (a whole double is still `number`, as it was sent).
  static func typeBit(_ value: PropertyValue) -> UInt8 {
    switch value {
    case .string, .date: 0
    case .int, .largeInteger: 1
    case .double: 2
    case .bool: 3
    case .array: 4
    case .object: 5
    case .null: 6
    }
  }
}

extension InferredTag {
  /// A tag's identity in a plan: its section and name.
  struct Key: Hashable, Comparable {
    var section: PlanSection
    var name: String

    static func < (lhs: Key, rhs: Key) -> Bool {
      (lhs.section.rawValue, lhs.name) < (rhs.section.rawValue, rhs.name)
    }
  }
}
