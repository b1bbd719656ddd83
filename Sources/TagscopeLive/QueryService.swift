import Foundation
import TaggingPlan
import TaggingPlanReports
import TagscopeRecording
import TagscopeServer
import TagscopeTimeline

/// Answers `listen`'s query API (`/tagscope/v1/…`) from the live session: counts, filtered records,
/// the plan's violations and coverage, waits and resets.
///
/// ```swift
/// let query = QueryService(session: session, timeline: timeline)
/// let server = try await ListenServer.start(configuration: configuration, ingest: session, query: query)
/// ```
///
/// Everything counts from the start of the current *segment*: ``reset`` (`POST …/reset`) starts a
/// new one behind what was delivered so far, and writes a marker line to the recording, a drop
/// marker of nothing, `{"dropped":0,"time":…,"by":"reset","segment":N}`, which every reader
/// already takes (replay lists it among the gaps, validate counts no lost record).
///
/// The plan's verdicts are the session's own (its ``PlanChecker``, the one the debugger reads):
/// the service keeps no check of its own, so a plan reloaded in the debugger is the plan the API
/// judges with. The session's worker calls it after storing each batch: it counts the records and
/// hands them to the waits' queue, which runs the waits' filters (never on the worker nor under the
/// service's lock, so a slow filter holds back neither ingestion nor other requests) and completes
/// the satisfied ones. Reading the timeline (records, the first scan of a wait) runs on its own
/// queue, never on an event loop; a wait's timeout is a task on its request's event loop.
public final class QueryService: QueryAPI, @unchecked Sendable {
  /// The most waits pending at once; beyond it a wait gets `503`.
  public static let maximumWaits = 256
  /// The most records a page or a wait returns.
  public static let maximumLimit = 1000
  /// The longest wait, in seconds.
  public static let maximumTimeout = 300.0

  let timeline: Timeline
  let session: LiveSession
  let monitor: PlanMonitor?
  let recordingPath: String?
  let work = DispatchQueue(label: "tagscope.api", qos: .userInitiated, attributes: .concurrent)
  let lock = NSLock()
  // Guarded by `lock`.
  var segment = Segment(number: 1, start: 0, started: Date())
  private var requestedSegments = 1
  var end = 0
  /// The UI test scopes (``ScopeBook``).
  var book = ScopeBook()
  private var counts = Counts()
  private var waiters: [Int: Waiter] = [:]
  private var nextWaiter = 0
  /// Where the waits' filters have run to (``evaluateWaits()``), and whether it is running.
  private var evaluated = 0
  private var evaluating = false
  /// The delivery ledger changed since the `delivery:` waits last ran (``ledgerChanged()``).
  private var deliveryChanged = false
  private let waits = DispatchQueue(label: "tagscope.api.waits", qos: .userInitiated)

  /// A service reading `timeline` (the session's store) with the plan results of the session's
  /// checker, if any; violations name `recordingPath` as their file when the session is recorded.
  public init(session: LiveSession, timeline: Timeline, recordingPath: String? = nil) {
    self.session = session
    self.timeline = timeline
    self.monitor = session.checker?.monitor
    self.recordingPath = recordingPath ?? (timeline.isTemporary ? nil : timeline.url.path)
    session.addObserver { [weak self] update in self?.observe(update) }
    session.delivery?.onChange { [weak self] in self?.ledgerChanged() }
  }

  // MARK: QueryAPI

  public func answer(_ request: APIRequest, reply: @escaping @Sendable (APIResponse) -> Void) {
    switch request.route {
    case .summary:
      if let refused = request.unknownParameter(allowed: ["scope"]) { return reply(refused) }
      let statistics = request.statistics
      switch scope(of: request) {
      case .failure(let refused): reply(refused)
      case .success(nil): work.async { reply(self.summary(statistics: statistics)) }
      case .success(let id?): work.async { reply(self.scopedSummary(id, statistics: statistics)) }
      }
    case .records:
      if let refused = request.unknownParameter(allowed: ["filter", "source", "since", "limit", "scope"]) {
        return reply(refused)
      }
      switch (
        scopedFilter(request), request.integer("since", in: 0...Int.max),
        request.integer("limit", in: 1...Self.maximumLimit)
      )
      {
      case (.failure(let refused), _, _), (_, .failure(let refused), _), (_, _, .failure(let refused)):
        reply(refused)
      case (.success(let (filter, scope)), .success(let since), .success(let limit)):
        if let refused = withoutLedger(filter) { return reply(refused) }
        work.async { reply(self.records(filter, scope: scope, since: since ?? 0, limit: limit ?? 100)) }
      }
    case .violations, .coverage:
      let allowed: Set<String> = request.route == .violations ? ["scope"] : []
      if let refused = request.unknownParameter(allowed: allowed) { return reply(refused) }
      guard monitor != nil else {
        return reply(.error(404, "no tagging plan: start listen with --plan PLAN"))
      }
      let route = request.route
      switch scope(of: request) {
      case .failure(let refused): reply(refused)
      case .success(let id?): work.async { reply(self.scopedViolationsReply(id)) }
      case .success(nil):
        work.async { reply(route == .violations ? self.violationsReply() : self.coverageReply()) }
      }
    case .wait:
      if let refused = request.unknownParameter(allowed: ["filter", "count", "timeout", "scope"]) {
        return reply(refused)
      }
      switch (
        scopedFilter(request), request.integer("count", in: 1...Self.maximumLimit),
        request.seconds("timeout", in: 0...Self.maximumTimeout)
      )
      {
      case (.failure(let refused), _, _), (_, .failure(let refused), _), (_, _, .failure(let refused)):
        reply(refused)
      case (.success(let (filter, scope)), .success(let count), .success(let timeout)):
        if let refused = withoutLedger(filter) { return reply(refused) }
        if timeout == 0 { return answerNow(filter, scope: scope, count: count ?? 1, reply: reply) }
        wait(filter, scope: scope, count: count ?? 1, timeout: timeout ?? 10, request: request, reply: reply)
      }
    case .scopeBegin: beginScope(request, reply: reply)
    case .scopeEnd: endScope(request, reply: reply)
    case .assert: assert(request, reply: reply)
    case .delivery: DeliveryQuery.answer(request, ledger: session.delivery, reply: reply)
    case .reset:
      if let refused = request.unknownParameter(allowed: []) { return reply(refused) }
      reset(reply: reply)
    case .openapi:
      reply(APIResponse(status: 200, body: OpenAPIDocument.json))
    }
  }

  /// The request's `filter` (the debugger's language) and `source` as one filter, or a `400`
  /// with the parser's message.
  static func filter(_ request: APIRequest) -> Result<Filter, APIResponse> {
    var filter: Filter
    switch Filter.parse(request.value("filter") ?? "") {
    case .success(let parsed): filter = parsed
    case .failure(let error): return .failure(.badRequest("parameter 'filter': \(error.message)"))
    }
    if let source = request.value("source") {
      guard !source.isEmpty else { return .failure(.badRequest("parameter 'source' is empty")) }
      filter.timeline.sourceMatches.append(.exact(source))
    }
    return .success(filter)
  }

  /// A `404` when `filter` has `delivery:` terms and the session keeps no delivery ledger.
  private func withoutLedger(_ filter: Filter) -> APIResponse? {
    guard !filter.deliveryStates.isEmpty, session.delivery == nil else { return nil }
    return .error(404, "parameter 'filter': delivery: needs a delivery ledger, and this session keeps none")
  }

  /// The delivery states of the calls of each record in `range`, as `filter`'s `delivery:` terms
  /// read them (none without such terms).
  private func deliveryStates(_ filter: Filter, in range: Range<Int>) -> [Int: [String]] {
    guard !filter.deliveryStates.isEmpty, let ledger = session.delivery else { return [:] }
    return ledger.states(in: range).mapValues { $0.map(\.rawValue) }
  }

  // MARK: Live updates (the session's worker)

  private func observe(_ update: LiveUpdate) {
    var batch: [Record] = []
    for case .records(let records) in update.events { batch += records }
    guard !batch.isEmpty else { return }
    lock.lock()
    for (offset, record) in batch.enumerated() {
      let violations = offset < update.violations.count ? update.violations[offset] : []
      count(record, violations: violations)
    }
    end = update.firstPosition + batch.count
    counts.seqAnomalies = timeline.sequence.anomalies - segment.seqAnomaliesBefore
    // The waits' filters run on their own queue, outside the lock: however slow a filter, the
    // worker (and so ingestion and its acks) and the other requests go on.
    let start = !waiters.isEmpty && !evaluating
    if start { evaluating = true }
    lock.unlock()
    if start { waits.async { self.evaluateWaits() } }
  }

  /// The delivery ledger applied records or answers: the `delivery:` waits run again.
  private func ledgerChanged() {
    lock.lock()
    guard waiters.values.contains(where: \.tracksDelivery) else { return lock.unlock() }
    deliveryChanged = true
    let start = !evaluating
    evaluating = true
    lock.unlock()
    if start { waits.async { self.evaluateWaits() } }
  }

  /// Runs the waits' filters over the records stored since they last ran, until they have seen
  /// them all, and a `delivery:` wait's over its whole window whenever the ledger changed (a
  /// record's calls change state); completes the satisfied waits. On ``waits``, one run at a time.
  private func evaluateWaits() {
    while true {
      lock.lock()
      let range = max(evaluated, segment.start)..<max(evaluated, segment.start, end)
      let recheck = deliveryChanged
      deliveryChanged = false
      guard !range.isEmpty || recheck, !waiters.isEmpty else {
        evaluated = end
        evaluating = false
        return lock.unlock()
      }
      // A scoped wait reads up to its scope's end (if it ended since it began).
      let windowStart = segment.start
      let pending = waiters.map { id, waiter in
        let ceiling = waiter.scope.flatMap { book.scope($0).end } ?? range.upperBound
        return (id: id, waiter: waiter, ceiling: ceiling)
      }
      lock.unlock()
      var found: [Int: [Int]] = [:]
      for (id, waiter, ceiling) in pending {
        if waiter.tracksDelivery {
          let lower = max(waiter.start, windowStart)
          found[id] = scan(waiter.filter, in: lower..<max(lower, ceiling), limit: waiter.count)
          continue
        }
        let lower = max(range.lowerBound, waiter.from)
        found[id] = matches(waiter.filter, in: lower..<max(lower, min(range.upperBound, ceiling)))
      }
      var done: [(Waiter, [Int])] = []
      lock.lock()
      evaluated = range.upperBound
      // A reset since: what was found before the new segment's start is the old segment's.
      let segmentStart = segment.start
      for (id, positions) in found {
        guard var waiter = waiters[id] else { continue }
        let kept = positions.filter { $0 >= segmentStart }
        // A `delivery:` wait's whole window, as the ledger knows it now.
        waiter.matches = waiter.tracksDelivery ? kept : waiter.matches + kept
        if waiter.isSatisfied {
          waiters[id] = nil
          done.append((waiter, waiter.matches))
        } else {
          waiters[id] = waiter
        }
      }
      let current = segment.number
      lock.unlock()
      for (waiter, matches) in done { complete(waiter, matches: matches, segment: current, status: 200) }
    }
  }

  /// Counts one record of the segment, with the plan violations the session found. Under the lock.
  private func count(_ record: Record, violations: [PlanViolation]) {
    let providerViolated = record.outputs.contains(where: { !$0.violations.isEmpty })
    counts.add(
      kind: record.kind.rawValue, source: record.source, providers: record.outputs.map(\.provider),
      violated: !violations.isEmpty || providerViolated)
    if providerViolated { counts.addNotUnderstood(record) }
  }

  /// The plan's findings on the record at `position`, as the filter reads them.
  func planFindings(at position: Int) -> [(rule: String, provider: String?)] {
    monitor?.violations(at: position).map { ($0.rule.rawValue, $0.provider) } ?? []
  }

  /// The positions in `range` (stored and counted) passing `filter`.
  private func matches(_ filter: Filter, in range: Range<Int>) -> [Int] {
    let candidates = (try? timeline.filter(filter.timeline, in: range)) ?? []
    guard filter.checksRecords else { return candidates }
    let deliveries = deliveryStates(filter, in: range)
    return candidates.filter { position in
      guard filter.acceptsDeliveries(deliveries[position] ?? []) else { return false }
      guard let record = try? timeline.record(at: position) else { return false }
      return filter.acceptsRecord(record, planFindings: planFindings(at: position))
    }
  }

  // MARK: Answers (the service's queue)

  /// The segment's counts; `seqAnomalies` is the timeline's `SequenceCheck` count (the one
  /// `validate` makes offline) since the segment started; `retriesSkipped` and
  /// `logLinesNotUnderstood` the server's counts since listen started (`statistics`); `recording`
  /// the file the session writes (`null` when it is not recorded).
  private func summary(statistics: ServerStatistics) -> APIResponse {
    lock.lock()
    let (segment, counts) = (self.segment, self.counts)
    lock.unlock()
    let coverage = monitor.map { ($0.plan.title, $0.segmentCoverage) }
    var out = "{\"segment\":\(segment.number),\"started\":\"\(segment.startedText)\""
    out += countFields(counts, statistics: statistics) + ",\"seqAnomalies\":\(counts.seqAnomalies)"
    out += ",\"coverage\":"
    if let (title, coverage) = coverage {
      let (planned, states) = (coverage.planned, coverage.stateCounts)
      out +=
        "{\"plan\":" + JSONText.quoted(title) + ",\"planned\":\(planned),\"passed\":\(states.passed)"
      out += ",\"failing\":\(states.failing),\"blocked\":\(states.blocked),\"notSeen\":\(states.notSeen)}"
    } else {
      out += "null"
    }
    return APIResponse(status: 200, body: out + "}")
  }

  /// The summary's counts: `,"records":…,"withViolations":…,"byKind":…,"bySource":…,"byProvider":…`,
  /// then the server's `retriesSkipped`, `fieldsNotUnderstood`, the server's
  /// `logLinesNotUnderstood` (Firebase log lines, `--log firebase`: count and the first wording's
  /// first place) and `recording`.
  func countFields(_ counts: Counts, statistics: ServerStatistics) -> String {
    var out = ",\"records\":\(counts.records),\"withViolations\":\(counts.withViolations)"
    out += ",\"byKind\":" + Self.object(counts.byKind) + ",\"bySource\":" + Self.object(counts.bySource)
    out += ",\"byProvider\":" + Self.object(counts.byProvider)
    out += ",\"retriesSkipped\":\(statistics.retriesSkipped)"
    out += ",\"fieldsNotUnderstood\":{\"count\":\(counts.notUnderstood),\"first\":"
    out += (counts.firstNotUnderstood.map(JSONText.quoted) ?? "null") + "}"
    let lines = statistics.unreadLogLines
    out += ",\"logLinesNotUnderstood\":{\"count\":\(lines.total),\"first\":"
    out += (lines.wordings.first.map { JSONText.quoted("\($0.wording) at \($0.first)") } ?? "null") + "}"
    return out + ",\"recording\":" + (recordingPath.map(JSONText.quoted) ?? "null")
  }

  private func records(_ filter: Filter, scope: Int?, since: Int, limit: Int) -> APIResponse {
    let (segment, window) = self.window(scope)
    let range = max(since, window.lowerBound)..<max(since, window.lowerBound, window.upperBound)
    let found = scan(filter, in: range, limit: limit + 1)
    let more = found.count > limit
    let page = found.prefix(limit)
    let next = more ? page.last! + 1 : range.upperBound
    var out = "{\"segment\":\(segment.number),\"records\":" + lines(Array(page))
    out += ",\"next\":\(next),\"more\":\(more)}"
    return APIResponse(status: 200, body: out)
  }

  private func violationsReply() -> APIResponse {
    lock.lock()
    let number = segment.number
    lock.unlock()
    let array = violationsArray(monitor?.segmentViolations ?? [])
    return APIResponse(status: 200, body: "{\"segment\":\(number),\"violations\":" + array + "}")
  }

  /// `found` as the validate JSON report's violations array, each placed in the recording.
  func violationsArray(_ found: [(position: Int, violation: PlanViolation)]) -> String {
    let places = found.map { position, _ in
      let summary = try? timeline.summary(at: position)
      return JSONReport.Place(
        file: recordingPath, timeMilliseconds: summary?.timeMilliseconds, source: summary?.source)
    }
    return JSONReport.violationsArray(found.map(\.violation), places: places)
  }

  private func coverageReply() -> APIResponse {
    lock.lock()
    let number = segment.number
    lock.unlock()
    let object = monitor.map { JSONReport.coverageObject($0.segmentCoverage) } ?? "null"
    return APIResponse(status: 200, body: "{\"segment\":\(number),\"coverage\":" + object + "}")
  }

  /// The first `limit` positions in `range` (already stored and counted) passing `filter`: the
  /// index a chunk at a time (each twice the last), so a page near the start does not scan the
  /// whole segment and a full scan takes a few calls.
  func scan(_ filter: Filter, in range: Range<Int>, limit: Int) -> [Int] {
    var found: [Int] = []
    var chunkStart = range.lowerBound
    var chunkSize = Self.firstScanChunk
    while chunkStart < range.upperBound && found.count < limit {
      let chunk = chunkStart..<min(range.upperBound, chunkStart + chunkSize)
      chunkStart = chunk.upperBound
      chunkSize *= 2
      let deliveries = deliveryStates(filter, in: chunk)
      for position in (try? timeline.filter(filter.timeline, in: chunk)) ?? [] {
        if filter.checksRecords {
          guard filter.acceptsDeliveries(deliveries[position] ?? []) else { continue }
          guard let record = try? timeline.record(at: position) else { continue }
          guard filter.acceptsRecord(record, planFindings: planFindings(at: position)) else { continue }
        }
        found.append(position)
        if found.count == limit { break }
      }
    }
    return found
  }

  /// Index entries scanned first for a page.
  private static let firstScanChunk = 65_536

  /// The recording lines of `positions` as a JSON array.
  func lines(_ positions: [Int]) -> String {
    "[" + positions.compactMap { try? timeline.line(at: $0) }.joined(separator: ",") + "]"
  }

  // MARK: Waits

  private struct Waiter {
    var filter: Filter
    var count: Int
    var reply: @Sendable (APIResponse) -> Void
    /// The first position the wait's own scan does not cover: later ones are ``evaluateWaits()``'s.
    var from: Int
    /// The scope it reads (its id in ``book``), if any.
    var scope: Int?
    /// The first position of its window (its segment's or scope's).
    var start = 0
    var matches: [Int] = []
    /// Whether the records stored before the wait began were scanned.
    var scanned = false
    var timer: APITimer?

    var isSatisfied: Bool { scanned && matches.count >= count }

    /// Whether its filter reads the delivery ledger (`delivery:`): a record may pass it later
    /// without a new record, and stop passing it.
    var tracksDelivery: Bool { !filter.deliveryStates.isEmpty }
  }

  private func wait(
    _ filter: Filter, scope: Int?, count: Int, timeout: Double, request: APIRequest,
    reply: @escaping @Sendable (APIResponse) -> Void
  ) {
    lock.lock()
    guard waiters.count < Self.maximumWaits else {
      lock.unlock()
      return reply(.error(503, "\(Self.maximumWaits) waits pending; try again when one ends"))
    }
    let id = nextWaiter
    nextWaiter += 1
    let (number, scanEnd) = (segment.number, end)
    let window = windowLocked(scope)
    var waiter = Waiter(filter: filter, count: count, reply: reply, from: scanEnd, scope: scope)
    waiter.start = window.lowerBound
    waiter.timer = request.schedule(after: timeout) { [weak self] in self?.expire(id) }
    waiters[id] = waiter
    if waiter.tracksDelivery {
      // Its whole window is read by the waits' queue, now and whenever the ledger changes.
      waiters[id]?.scanned = true
      deliveryChanged = true
      let start = !evaluating
      evaluating = true
      lock.unlock()
      request.onCancel { [weak self] in self?.abandon(id) }
      if start { waits.async { self.evaluateWaits() } }
      return
    }
    lock.unlock()
    request.onCancel { [weak self] in self?.abandon(id) }
    // What the segment already holds, off the event loop; later records are the worker's.
    work.async {
      let earlier = self.scan(filter, in: window, limit: count)
      self.lock.lock()
      guard var waiter = self.waiters[id] else { return self.lock.unlock() }
      if self.segment.number == number { waiter.matches = earlier + waiter.matches }
      waiter.scanned = true
      let current = self.segment.number
      if waiter.isSatisfied {
        self.waiters[id] = nil
        self.lock.unlock()
        self.complete(waiter, matches: waiter.matches, segment: current, status: 200)
      } else {
        self.waiters[id] = waiter
        self.lock.unlock()
      }
    }
  }

  /// `timeout=0`: what the segment holds now, `200` when `count` records match, else `408` with
  /// those that do.
  private func answerNow(
    _ filter: Filter, scope: Int?, count: Int, reply: @escaping @Sendable (APIResponse) -> Void
  ) {
    work.async {
      let (segment, window) = self.window(scope)
      let number = segment.number
      let found = self.scan(filter, in: window, limit: count)
      let body =
        "{\"segment\":\(number),\"count\":\(found.count),\"records\":" + self.lines(found) + "}"
      reply(APIResponse(status: found.count >= count ? 200 : 408, body: body))
    }
  }

  /// The wait's timeout: `408` with what arrived, unless it completed first.
  private func expire(_ id: Int) {
    lock.lock()
    let waiter = waiters.removeValue(forKey: id)
    let current = segment.number
    lock.unlock()
    guard let waiter else { return }
    complete(waiter, matches: waiter.matches, segment: current, status: 408)
  }

  /// The wait's client went away: it ends without a reply.
  private func abandon(_ id: Int) {
    lock.lock()
    let waiter = waiters.removeValue(forKey: id)
    lock.unlock()
    waiter?.timer?.cancel()
  }

  /// Holds the waits' filters (their queue) until the returned closure is called: tests show with
  /// it that nothing else waits for them.
  func holdWaits() -> @Sendable () -> Void {
    let gate = DispatchSemaphore(value: 0)
    waits.async { gate.wait() }
    return { gate.signal() }
  }

  /// The number of waits pending.
  public var pendingWaits: Int {
    lock.lock()
    defer { lock.unlock() }
    return waiters.count
  }

  private func complete(_ waiter: Waiter, matches: [Int], segment: Int, status: Int) {
    waiter.timer?.cancel()
    let positions = Array(matches.prefix(waiter.count))
    work.async {
      let body =
        "{\"segment\":\(segment),\"count\":\(positions.count),\"records\":" + self.lines(positions) + "}"
      waiter.reply(APIResponse(status: status, body: body))
    }
  }

  // MARK: Reset

  private func reset(reply: @escaping @Sendable (APIResponse) -> Void) {
    lock.lock()
    requestedSegments += 1
    let number = requestedSegments
    let started = Date()
    let marker = DropMarker(count: 0, time: started, origin: "reset", extra: ["segment": .int(number)])
    session.mark(marker) { [weak self] position in
      guard let self else { return }
      self.lock.lock()
      self.segment = Segment(
        number: number, start: position, started: started,
        seqAnomaliesBefore: self.timeline.sequence.anomalies)
      self.end = max(self.end, position)
      self.counts = Counts()
      self.monitor?.startSegment(at: position)
      for id in self.waiters.keys { self.waiters[id]?.matches = [] }
      let text = self.segment.startedText
      self.lock.unlock()
      reply(APIResponse(status: 200, body: "{\"segment\":\(number),\"started\":\"\(text)\"}"))
    }
    lock.unlock()
  }

  // MARK: Values

  struct Segment {
    var number: Int
    /// The session position of its first record.
    var start: Int
    var started: Date
    /// The timeline's `seq` anomalies before its first record.
    var seqAnomaliesBefore = 0

    var startedText: String { ISO8601Timestamp.string(milliseconds: started.recordMilliseconds) }
  }

  struct Counts {
    var records = 0
    var withViolations = 0
    var byKind: [String: Int] = [:]
    var bySource: [String: Int] = [:]
    var byProvider: [String: Int] = [:]
    var seqAnomalies = 0
    /// SDK payload fields not understood (each output's `unread`), and the first one's place.
    var notUnderstood = 0
    var firstNotUnderstood: String?

    /// Counts the fields `record`'s outputs did not understand (`sdk.field-not-understood`).
    mutating func addNotUnderstood(_ record: Record) {
      for output in record.outputs
      where output.violations.contains(where: { $0.rule == FieldsNotUnderstood.rule }) {
        guard case .object(let unread)? = output.extra["unread"], let first = unread.first else { continue }
        notUnderstood += unread.count
        if firstNotUnderstood == nil {
          firstNotUnderstood = "record \(record.seq) \(output.provider) \(first.key)"
        }
      }
    }

    /// Counts one record.
    mutating func add(kind: String, source: String?, providers: [String], violated: Bool) {
      records += 1
      byKind[kind, default: 0] += 1
      if let source { bySource[source, default: 0] += 1 }
      for provider in providers { byProvider[provider, default: 0] += 1 }
      if violated { withViolations += 1 }
    }
  }

  /// `{"key":count,…}` in key order.
  private static func object(_ counts: [String: Int]) -> String {
    "{"
      + counts.sorted { $0.key < $1.key }.map { JSONText.quoted($0.key) + ":\($0.value)" }.joined(
        separator: ",")
      + "}"
  }
}
