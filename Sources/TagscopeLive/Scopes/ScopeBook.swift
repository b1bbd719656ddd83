import Foundation
import TagscopeRecording
import TagscopeServer

/// One UI test scope as the query API keeps it: where it begins and ends among the session's
/// records, and the one source it takes, if any.
struct TestScope: Sendable {
  var name: String
  /// The only source whose records it takes; `nil` for every source.
  var source: String?
  /// The session position of its first record.
  var start: Int
  /// The position after its last record; `nil` while it is open.
  var end: Int?
  var started: Date

  /// Its positions among the `stored` first, from `floor` on (the segment's start).
  func range(stored: Int, floor: Int) -> Range<Int> {
    let lower = max(start, floor)
    return lower..<max(lower, min(end ?? stored, stored))
  }

  /// `{"scope":…,"source":…,"started":…,"open":…}` without the closing brace, for replies to add to.
  var jsonFields: String {
    "{\"scope\":" + JSONText.quoted(name) + ",\"source\":" + (source.map(JSONText.quoted) ?? "null")
      + ",\"started\":\"" + ISO8601Timestamp.string(milliseconds: started.recordMilliseconds)
      + "\",\"open\":\(end == nil)"
  }
}

/// The scopes begun so far, by name (a name begun again after its end names the new one), and
/// those whose begin or end marker is on its way to the recording. Not thread-safe: the query
/// service holds its lock around every call.
struct ScopeBook {
  /// The most scopes one `listen` keeps; beyond it a begin gets `503`.
  static let maximumScopes = 10_000
  /// The longest scope name, in Unicode scalars (JSON Schema's `maxLength`).
  static let maximumNameLength = 200

  private(set) var scopes: [TestScope] = []
  private var current: [String: Int] = [:]
  /// Names whose begin or end marker is being written.
  private var pending: Set<String> = []

  /// The scope `name` names now.
  func scope(named name: String) -> (id: Int, scope: TestScope)? {
    current[name].map { ($0, scopes[$0]) }
  }

  /// The scope `id`.
  func scope(_ id: Int) -> TestScope { scopes[id] }

  /// Why `name` cannot begin now (`400`, `409`, `503`), or `nil` after reserving it.
  mutating func reserveBegin(_ name: String) -> APIResponse? {
    if let refused = Self.check(name, parameter: "name") { return refused }
    guard !pending.contains(name), scope(named: name)?.scope.end != nil || current[name] == nil else {
      return .error(409, "scope '\(name)' is already open (POST scope/end?name=… ends it)")
    }
    guard scopes.count < Self.maximumScopes else {
      return .error(503, "\(Self.maximumScopes) scopes begun; restart listen to begin more")
    }
    pending.insert(name)
    return nil
  }

  /// The scope `name` whose end may be written now, or why not (`400`, `404`, `409`), after
  /// reserving it.
  mutating func reserveEnd(_ name: String) -> Result<TestScope, APIResponse> {
    if let refused = Self.check(name, parameter: "name") { return .failure(refused) }
    guard !pending.contains(name), let (_, scope) = scope(named: name), scope.end == nil else {
      return .failure(.error(pending.contains(name) ? 409 : 404, "no open scope '\(name)'"))
    }
    pending.insert(name)
    return .success(scope)
  }

  /// The reserved `name` begins at `position`; returns its id.
  mutating func begin(_ name: String, source: String?, at position: Int, started: Date) -> Int {
    pending.remove(name)
    scopes.append(TestScope(name: name, source: source, start: position, end: nil, started: started))
    current[name] = scopes.count - 1
    return scopes.count - 1
  }

  /// The reserved `name` ends at `position`.
  mutating func end(_ name: String, at position: Int) -> TestScope? {
    pending.remove(name)
    guard let id = current[name] else { return nil }
    scopes[id].end = max(scopes[id].start, position)
    return scopes[id]
  }

  /// A `400` naming `parameter` when `name` is empty, too long or holds control characters.
  static func check(_ name: String, parameter: String) -> APIResponse? {
    if name.isEmpty { return .badRequest("parameter '\(parameter)' is empty") }
    if name.unicodeScalars.count > maximumNameLength {
      return .badRequest("parameter '\(parameter)' is longer than \(maximumNameLength) characters")
    }
    if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      return .badRequest("parameter '\(parameter)' holds a control character")
    }
    return nil
  }
}
