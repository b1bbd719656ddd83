import TagscopeServer
import TagscopeTimeline

/// What a `GET /tagscope/v1/assert` asks of the records of a scope (or of the segment) passing
/// its `filter` (all without one): any of exactly N of them, no unplanned tag, these tag names in
/// this order, no plan violation. No check at all passes (`checks` 0).
struct ScopeChecks: Sendable {
  /// The records checked (`filter`, the debugger's language).
  var filter: Filter
  /// `filter`'s text, for the messages (`nil` without one).
  var filterText: String?
  /// `exactly=N`.
  var exactly: Int?
  /// `unplanned=none`.
  var noUnplanned = false
  /// `order=a,b,c`: these names, in this order, among the records (others may come between).
  var order: [String]?
  /// `violations=none`.
  var noViolations = false

  /// The parameters `assert` takes.
  static let parameters: Set<String> = ["scope", "filter", "exactly", "unplanned", "order", "violations"]

  /// The most records `exactly` may ask for.
  static let maximumCount = 100_000

  /// Whether a check needs the tagging plan.
  var needsPlan: Bool { noUnplanned || noViolations }

  /// The checks `request` asks for, or a `400` naming the parameter that is wrong.
  static func parse(_ request: APIRequest) -> Result<ScopeChecks, APIResponse> {
    var checks: ScopeChecks
    switch (QueryService.filter(request), request.integer("exactly", in: 0...maximumCount)) {
    case (.failure(let refused), _), (_, .failure(let refused)): return .failure(refused)
    case (.success(let filter), .success(let count)):
      checks = ScopeChecks(filter: filter, filterText: request.value("filter"), exactly: count)
    }
    for (name, flag) in [("unplanned", \ScopeChecks.noUnplanned), ("violations", \.noViolations)] {
      guard let value = request.value(name) else { continue }
      guard value == "none" else {
        return .failure(.badRequest("parameter '\(name)' takes 'none', not '\(value)'"))
      }
      checks[keyPath: flag] = true
    }
    if let text = request.value("order") {
      let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard !names.contains(where: \.isEmpty) else {
        return .failure(.badRequest("parameter 'order' has an empty name (names are separated by commas)"))
      }
      checks.order = names
    }
    return .success(checks)
  }
}

/// A check of ``ScopeChecks`` that failed: which, what it says, the records it names.
struct ScopeCheckFailure: Sendable {
  /// `exactly`, `unplanned`, `order` or `violations`.
  var check: String
  var message: String
  /// The session positions of the records it names.
  var positions: [Int]
}

/// The first names of `names` found in order among `records` (name and position, in order): the
/// positions matched, one per name, up to the first name not found.
func matchOrder(_ names: [String], in records: [(name: String, position: Int)]) -> [Int] {
  var matched: [Int] = []
  for record in records where matched.count < names.count && record.name == names[matched.count] {
    matched.append(record.position)
  }
  return matched
}
