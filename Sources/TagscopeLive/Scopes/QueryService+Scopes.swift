import Foundation
import TaggingPlan
import TagscopeRecording
import TagscopeServer
import TagscopeTimeline

/// UI test scopes: `POST …/scope/begin` and `…/scope/end` write a ``ScopeMarker`` to the recording
/// behind what was delivered so far, and the records stored between the two (of its source only,
/// for a scope given one) are the scope's; `scope=NAME` narrows records, waits, the summary and
/// violations to them, and `GET …/assert` checks them at once.
extension QueryService {
  /// The segment, and the stored positions a query reads: the segment's, or a scope's within it.
  func window(_ scope: Int?) -> (segment: Segment, range: Range<Int>) {
    lock.lock()
    defer { lock.unlock() }
    return (segment, windowLocked(scope))
  }

  /// ``window(_:)``'s range, under the lock.
  func windowLocked(_ scope: Int?) -> Range<Int> {
    guard let scope else { return segment.start..<max(segment.start, end) }
    return book.scope(scope).range(stored: end, floor: segment.start)
  }

  /// The scope the request's `scope` names (`nil` when absent), or a `400`/`404` saying why not.
  func scope(of request: APIRequest) -> Result<Int?, APIResponse> {
    guard let name = request.value("scope") else { return .success(nil) }
    if let refused = ScopeBook.check(name, parameter: "scope") { return .failure(refused) }
    lock.lock()
    defer { lock.unlock() }
    guard let (id, _) = book.scope(named: name) else {
      return .failure(.error(404, "no scope '\(name)' (POST \(APIRoute.scopeBegin.path)?name=… begins one)"))
    }
    return .success(id)
  }

  /// The request's filter (see ``filter(_:)``), narrowed to its scope's source, and the scope.
  func scopedFilter(_ request: APIRequest) -> Result<(Filter, Int?), APIResponse> {
    switch (Self.filter(request), scope(of: request)) {
    case (.failure(let refused), _), (_, .failure(let refused)): return .failure(refused)
    case (.success(var filter), .success(let id)):
      if let id, let source = source(of: id) { filter.timeline.sourceMatches.append(.exact(source)) }
      return .success((filter, id))
    }
  }

  private func source(of id: Int) -> String? {
    lock.lock()
    defer { lock.unlock() }
    return book.scope(id).source
  }

  /// The positions of the scope's records (or the segment's, without one), in order.
  func positions(in scope: Int?) -> [Int] {
    guard case .success(var filter) = Filter.parse("") else { return [] }
    if let scope, let source = source(of: scope) { filter.timeline.sourceMatches.append(.exact(source)) }
    return scan(filter, in: window(scope).range, limit: Int.max)
  }

  /// The plan's violations of the records at `positions`, with their positions.
  func violations(at positions: [Int]) -> [(position: Int, violation: PlanViolation)] {
    guard let monitor else { return [] }
    return positions.flatMap { position in monitor.violations(at: position).map { (position, $0) } }
  }

  // MARK: Begin and end

  func beginScope(_ request: APIRequest, reply: @escaping @Sendable (APIResponse) -> Void) {
    if let refused = request.unknownParameter(allowed: ["name", "source"]) { return reply(refused) }
    guard let name = request.value("name") else { return reply(.badRequest("parameter 'name' is required")) }
    let source = request.value("source")
    if source?.isEmpty == true { return reply(.badRequest("parameter 'source' is empty")) }
    lock.lock()
    let refused = book.reserveBegin(name)
    lock.unlock()
    if let refused { return reply(refused) }
    let started = Date()
    let marker = ScopeMarker(name: name, event: .begin, source: source, time: started)
    session.mark(marker.dropMarker) { [weak self] position in
      guard let self else { return }
      self.lock.lock()
      let id = self.book.begin(name, source: source, at: position, started: started)
      self.end = max(self.end, position)
      let scope = self.book.scope(id)
      self.lock.unlock()
      reply(APIResponse(status: 200, body: scope.jsonFields + "}"))
    }
  }

  func endScope(_ request: APIRequest, reply: @escaping @Sendable (APIResponse) -> Void) {
    if let refused = request.unknownParameter(allowed: ["name"]) { return reply(refused) }
    guard let name = request.value("name") else { return reply(.badRequest("parameter 'name' is required")) }
    lock.lock()
    let reserved = book.reserveEnd(name)
    lock.unlock()
    let scope: TestScope
    switch reserved {
    case .failure(let refused): return reply(refused)
    case .success(let open): scope = open
    }
    let marker = ScopeMarker(name: name, event: .end, source: scope.source)
    session.mark(marker.dropMarker) { [weak self] position in
      guard let self else { return }
      self.lock.lock()
      _ = self.book.end(name, at: position)
      self.end = max(self.end, position)
      let id = self.book.scope(named: name)?.id
      self.lock.unlock()
      guard let id else { return reply(.error(404, "no open scope '\(name)'")) }
      self.work.async { reply(self.verdict(id)) }
    }
  }

  /// An ended scope's reply: its fields, its record count and its violations (`null` without a
  /// plan).
  private func verdict(_ id: Int) -> APIResponse {
    let positions = self.positions(in: id)
    lock.lock()
    let scope = book.scope(id)
    lock.unlock()
    let violations = monitor == nil ? "null" : violationsArray(violations(at: positions))
    return APIResponse(
      status: 200,
      body: scope.jsonFields + ",\"records\":\(positions.count),\"violations\":" + violations + "}")
  }

  // MARK: Scoped answers

  /// The summary of the scope's records: the segment's fields (`started` the scope's), `scope`,
  /// and `coverage` `null` (coverage is the segment's).
  func scopedSummary(_ id: Int, statistics: ServerStatistics) -> APIResponse {
    var counts = Counts()
    for position in positions(in: id) {
      guard let summary = try? timeline.summary(at: position) else { continue }
      let violated = summary.hasRuleViolations || !(monitor?.violations(at: position).isEmpty ?? true)
      counts.add(
        kind: summary.kind.rawValue, source: summary.source, providers: summary.outputs.map(\.provider),
        violated: violated)
      if summary.hasRuleViolations, let record = try? timeline.record(at: position) {
        counts.addNotUnderstood(record)
      }
    }
    lock.lock()
    let (number, scope) = (segment.number, book.scope(id))
    lock.unlock()
    let started = ISO8601Timestamp.string(milliseconds: scope.started.recordMilliseconds)
    var out = "{\"segment\":\(number),\"started\":\"\(started)\",\"scope\":" + JSONText.quoted(scope.name)
    out += countFields(counts, statistics: statistics) + ",\"coverage\":null}"
    return APIResponse(status: 200, body: out)
  }

  /// The plan's violations of the scope's records.
  func scopedViolationsReply(_ id: Int) -> APIResponse {
    let found = violations(at: positions(in: id))
    lock.lock()
    let (number, name) = (segment.number, book.scope(id).name)
    lock.unlock()
    let body =
      "{\"segment\":\(number),\"scope\":" + JSONText.quoted(name) + ",\"violations\":"
      + violationsArray(found)
      + "}"
    return APIResponse(status: 200, body: body)
  }

  // MARK: Assertions

  /// `GET …/assert`: the checks answered at once from what is stored (wait first for what is
  /// still on its way; a scope's end is behind everything delivered before it).
  func assert(_ request: APIRequest, reply: @escaping @Sendable (APIResponse) -> Void) {
    if let refused = request.unknownParameter(allowed: ScopeChecks.parameters) { return reply(refused) }
    let checks: ScopeChecks
    let scope: Int?
    switch (ScopeChecks.parse(request), self.scope(of: request)) {
    case (.failure(let refused), _), (_, .failure(let refused)): return reply(refused)
    case (.success(let parsed), .success(let id)): (checks, scope) = (parsed, id)
    }
    if checks.needsPlan && monitor == nil {
      return reply(
        .error(404, "no tagging plan: start listen with --plan PLAN (unplanned and violations need one)"))
    }
    work.async { reply(self.answer(checks, scope: scope)) }
  }

  /// The most records a failed check lists.
  static let maximumListed = 20

  private func answer(_ checks: ScopeChecks, scope: Int?) -> APIResponse {
    var filter = checks.filter
    if let scope, let source = source(of: scope) { filter.timeline.sourceMatches.append(.exact(source)) }
    let positions = scan(filter, in: window(scope).range, limit: Int.max)
    let passing = checks.filterText.map { " passing '\($0)'" } ?? ""
    var failures: [ScopeCheckFailure] = []
    var checked = 0
    if let count = checks.exactly {
      checked += 1
      if positions.count != count {
        failures.append(
          ScopeCheckFailure(
            check: "exactly",
            message: "expected exactly \(count) record(s)\(passing), found \(positions.count)",
            positions: positions))
      }
    }
    let violations = checks.needsPlan ? violations(at: positions) : []
    if checks.noUnplanned {
      checked += 1
      let unplanned = violations.filter { $0.violation.rule == .unplannedTag }
      if !unplanned.isEmpty {
        let names = unplanned.map { "\($0.violation.tag) (#\($0.violation.seq))" }
        failures.append(
          ScopeCheckFailure(
            check: "unplanned",
            message: "\(unplanned.count) unplanned tag(s): "
              + names.prefix(Self.maximumListed).joined(separator: ", "),
            positions: unplanned.map(\.position)))
      }
    }
    if let order = checks.order {
      checked += 1
      let named = positions.compactMap { position in
        (try? timeline.summary(at: position)).map { (name: $0.name, position: position) }
      }
      let matched = matchOrder(order, in: named)
      if matched.count < order.count {
        var message = "expected " + order.map { "'\($0)'" }.joined(separator: ", ") + " in this order: "
        message +=
          matched.isEmpty
          ? "no '\(order[0])' among \(named.count) record(s)\(passing)"
          : "found the first \(matched.count), then no '\(order[matched.count])' after them"
        failures.append(ScopeCheckFailure(check: "order", message: message, positions: matched))
      }
    }
    if checks.noViolations {
      checked += 1
      if !violations.isEmpty {
        let messages = violations.prefix(Self.maximumListed).map {
          "#\($0.violation.seq) \($0.violation.message)"
        }
        var positions: [Int] = []
        for (position, _) in violations where positions.last != position { positions.append(position) }
        failures.append(
          ScopeCheckFailure(
            check: "violations",
            message: "\(violations.count) violation(s): " + messages.joined(separator: "; "),
            positions: positions))
      }
    }
    lock.lock()
    let number = segment.number
    let name = scope.map { book.scope($0).name }
    lock.unlock()
    var out = "{\"segment\":\(number),\"scope\":" + (name.map(JSONText.quoted) ?? "null")
    out += ",\"passed\":\(failures.isEmpty),\"checks\":\(checked),\"failures\":["
    out += failures.map { failure in
      "{\"check\":\"\(failure.check)\",\"message\":" + JSONText.quoted(failure.message) + ",\"records\":"
        + lines(Array(failure.positions.prefix(Self.maximumListed))) + "}"
    }.joined(separator: ",")
    return APIResponse(status: 200, body: out + "]}")
  }
}
