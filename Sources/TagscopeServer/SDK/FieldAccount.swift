import AnalyticsHub
import TagscopeVendors

/// What a decoder did not understand of one request: each field it neither carries into a record
/// (call, properties, identity, credentials) nor knows as its vendor's transport metadata
/// (``Vendor/transportFields``), by its place in the request (`batch[3].context.foo`).
///
/// The fields are kept with their values in the record's `unread` annotation and reported by one
/// `sdk.field-not-understood` violation that names them; a request's own fields go to its first
/// record, so each is counted once. On the happy path a check costs one pass over an object's keys.
struct FieldAccount: Sendable {
  /// The rule of the violation (`tagscope help listen`).
  static let rule = FieldsNotUnderstood.rule
  /// How many places one violation names; the rest are counted.
  static let named = 8

  /// The fields not understood, by place, with their values.
  private(set) var unread = Properties()

  /// Whether every field was understood.
  var isEmpty: Bool { unread.isEmpty }

  /// Notes the keys of `object` at `place` (`""` for the request's root, `events[2]`) that are in
  /// neither `understood` (what the decoder reads or carries) nor `transport`.
  mutating func check(_ object: Properties, at place: String, understood: Set<String>, transport: Set<String>)
  {
    for element in object where !understood.contains(element.key) && !transport.contains(element.key) {
      unread.appendUnchecked(place.isEmpty ? element.key : "\(place).\(element.key)", element.value)
    }
  }

  /// Notes the fields of a form or query (`pairs`) at `place` that `understood` does not take and
  /// that are not in `transport`, each as text.
  mutating func check(
    pairs: [(name: String, value: String)], at place: String, understood: (String) -> Bool,
    transport: Set<String>
  ) {
    for pair in pairs where !understood(pair.name) && !transport.contains(pair.name) {
      unread.appendUnchecked(place.isEmpty ? pair.name : "\(place).\(pair.name)", .string(pair.value))
    }
  }

  /// Notes each later, different value of a field of `pairs` (a form or query read by each
  /// field's first value) that `names` takes, at `place` by its position among them (`query.s[2]`):
  /// the decoder reads only the first, and the same value again loses nothing.
  mutating func checkRepeats(
    in pairs: [(name: String, value: String)], at place: String, of names: (String) -> Bool = { _ in true }
  ) {
    var first: [String: String] = [:]
    for (index, pair) in pairs.enumerated() where names(pair.name) {
      guard let kept = first[pair.name] else {
        first[pair.name] = pair.value
        continue
      }
      guard pair.value != kept else { continue }
      let name = "\(pair.name)[\(index)]"
      unread.appendUnchecked(place.isEmpty ? name : "\(place).\(name)", .string(pair.value))
    }
  }

  /// Notes the field at `place` as not understood (a value of a type the decoder does not read).
  mutating func note(_ place: String, _ value: PropertyValue) {
    unread.appendUnchecked(place, value)
  }

  /// Notes the identity fields `reader` reads from `root` that name no one
  /// (``IdentityReader/unreadable(in:)``): the record was otherwise sent by nobody without a word.
  mutating func noteUnreadableIdentity(
    _ reader: IdentityReader, at prefix: String = "", in root: (String) -> PropertyValue?
  ) {
    for (place, value) in reader.unreadable(in: root) {
      note(prefix.isEmpty ? place : "\(prefix).\(place)", value)
    }
  }

  /// Notes `value` at `place` when it is sent (present, not `null`) but is no object: a field
  /// that holds properties, which the record would otherwise take as none without a word.
  mutating func noteUnlessObject(_ value: PropertyValue?, at place: String) {
    guard let value, value != .null, Payload.objectOrNil(value) == nil else { return }
    note(place, value)
  }

  /// Adds the fields to `event`: its `unread` annotation and the violation.
  func add(to event: inout IngestedEvent) {
    guard !unread.isEmpty else { return }
    let kept = Payload.object(event.annotations["unread"]).merging(unread)
    event.annotations["unread"] = .object(kept)
    event.violations.removeAll { $0.rule == Self.rule }
    event.violations.append(Self.violation(kept.keys))
  }

  /// Adds the fields to the first of `events` (a request's own fields, counted once).
  func add(to events: inout [IngestedEvent]) {
    guard !unread.isEmpty, !events.isEmpty else { return }
    add(to: &events[0])
  }

  /// What ``add(to:)-(IngestedEvent)`` adds to a record that has neither yet: its `unread`
  /// annotation and the violation naming them.
  struct Report: Sendable {
    /// The fields not understood (a place noted twice keeps its first place and its last value).
    let unread: Properties
    let violation: RuleViolation

    /// Adds them to `event`, just made by a decoder that keeps no `unread` annotation and reports
    /// no such violation itself: both appended, not looked for (with the context of a Firebase
    /// upload's bundle, each look-up compared two dozen keys).
    func add(toFresh event: inout IngestedEvent) {
      event.annotations.appendUnchecked("unread", .object(unread))
      event.violations.append(violation)
    }

    /// ``add(toFresh:)`` to the first of `events` (a request's own fields, counted once).
    func addToFirst(ofFresh events: inout [IngestedEvent]) {
      guard !events.isEmpty else { return }
      add(toFresh: &events[0])
    }
  }

  /// The report of the fields not understood, `nil` when every field was.
  var report: Report? {
    guard !unread.isEmpty else { return nil }
    let kept = Properties().merging(unread)
    return Report(unread: kept, violation: Self.violation(kept.keys))
  }

  /// Adds the violation to each of `events` whose decoder kept fields under `unread` itself
  /// (Braze's), naming them.
  static func reportUnread(in events: inout [IngestedEvent]) {
    for index in events.indices {
      let places = places(in: events[index].annotations)
      guard !places.isEmpty, !events[index].violations.contains(where: { $0.rule == rule }) else { continue }
      events[index].violations.append(violation(places))
    }
  }

  /// The violation naming `places`.
  static func violation(_ places: [String]) -> RuleViolation {
    let shown = places.prefix(named).joined(separator: ", ")
    let more = places.count > named ? " and \(places.count - named) more" : ""
    let fields = places.count == 1 ? "field" : "fields"
    return RuleViolation(
      rule: rule,
      message:
        "\(places.count) \(fields) not understood, kept under the record's `unread`: \(shown)\(more).",
      consequence: .degraded)
  }

  /// The places a record's `unread` annotation names (what the violation counts).
  static func places(in annotations: Properties) -> [String] {
    Payload.object(annotations["unread"]).keys
  }
}

/// A vendor's ``Vendor/TransportFields`` ready to check: the names under each level, split once.
struct TransportLevels: Sendable {
  private let levels: [String: Set<String>]

  init(_ vendor: Vendor, levels names: [String]) {
    let fields = vendor.transportFields
    levels = Dictionary(uniqueKeysWithValues: names.map { ($0, fields.names(at: $0)) })
  }

  /// The transport fields directly under `level` (`""`, `batch[]`).
  subscript(level: String) -> Set<String> { levels[level] ?? [] }
}
