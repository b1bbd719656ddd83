import Foundation
import TagscopeRecording
import TagscopeServer

/// The query API's `GET /tagscope/v1/delivery`: the delivery ledger's counts per state, its
/// entries (filtered by `state`, `provider`, `device`, the last `limit`) and the wire calls no
/// in-app call explains (those kept, `unexplainedCount`: all of them, and `letGoUnexplained`: by
/// wire source, those let go of, which an in-app call arriving later cannot match); with
/// `wait=settled`, once every call made before the request is settled
/// (delivered, refused, dropped, lost, ambiguous, or without a wire source), `408` at `timeout`.
enum DeliveryQuery {
  /// The most entries a reply gives.
  static let maximumLimit = 1000

  static func answer(
    _ request: APIRequest, ledger: DeliveryLedger?, reply: @escaping @Sendable (APIResponse) -> Void
  ) {
    if let refused = request.unknownParameter(
      allowed: ["state", "provider", "device", "limit", "wait", "timeout"])
    {
      return reply(refused)
    }
    guard let ledger else { return reply(.error(404, "this session keeps no delivery ledger")) }
    var filter = DeliveryFilter(provider: request.value("provider"), device: request.value("device"))
    if let word = request.value("state") {
      guard let state = DeliveryState(rawValue: word) else {
        let known = DeliveryState.allCases.map(\.rawValue).joined(separator: ", ")
        return reply(.badRequest("parameter 'state' must be one of \(known), not '\(word)'"))
      }
      filter.state = state
    }
    switch (request.integer("limit", in: 1...maximumLimit), request.seconds("timeout", in: 0...300)) {
    case (.failure(let refused), _), (_, .failure(let refused)): return reply(refused)
    case (.success(let limit), .success(let timeout)):
      filter.limit = limit ?? 100
      let filter = filter
      let wait = request.value("wait")
      if let wait, wait != "settled" {
        return reply(.badRequest("parameter 'wait' must be 'settled', not '\(wait)'"))
      }
      // The ledger's worker first applies every record stored before the request (this event
      // loop does not wait for it): the answer counts them all.
      ledger.whenCaughtUp {
        guard wait != nil else { return reply(body(ledger, filter, status: 200)) }
        let token = ledger.whenSettled(upTo: ledger.appliedCallCount) {
          reply(body(ledger, filter, status: 200))
        }
        guard token >= 0 else { return }
        _ = request.schedule(after: timeout ?? 10) {
          if ledger.cancelWait(token) { reply(body(ledger, filter, status: 408)) }
        }
        request.onCancel { ledger.cancelWait(token) }
      }
    }
  }

  /// `{"counts":{state:n,…},"entries":[…],"unexplained":[…],"unexplainedCount":n,
  /// "letGoUnexplained":{source:n,…}}`: of what the ledger's worker has
  /// applied (the caller caught up first).
  static func body(_ ledger: DeliveryLedger, _ filter: DeliveryFilter, status: Int) -> APIResponse {
    let snapshot = ledger.currentSnapshot(filter)
    let counts = DeliveryState.allCases.map { "\"\($0.rawValue)\":\(snapshot.count($0))" }
    var out = "{\"counts\":{" + counts.joined(separator: ",") + "}"
    out += ",\"entries\":[" + snapshot.entries.map(json).joined(separator: ",") + "]"
    out += ",\"unexplained\":[" + snapshot.unexplained.map(json).joined(separator: ",") + "]"
    out += ",\"unexplainedCount\":\(snapshot.unexplainedCount)"
    let letGo = snapshot.letGoUnexplained.sorted { $0.key < $1.key }.map {
      JSONText.quoted($0.key) + ":\($0.value)"
    }
    out += ",\"letGoUnexplained\":{" + letGo.joined(separator: ",") + "}}"
    return APIResponse(status: status, body: out)
  }

  private static func json(_ entry: DeliveryEntry) -> String {
    var fields = [
      "\"number\":\(entry.number)", "\"position\":\(entry.position)", "\"callIndex\":\(entry.callIndex)",
      "\"provider\":" + JSONText.quoted(entry.provider), "\"method\":" + JSONText.quoted(entry.method),
      "\"name\":" + (entry.name.map(JSONText.quoted) ?? "null"),
      "\"device\":" + JSONText.quoted(entry.device),
      "\"called\":\"" + ISO8601Timestamp.string(from: entry.called) + "\"",
      "\"state\":\"\(entry.state.rawValue)\"",
    ]
    if let position = entry.wirePosition { fields.append("\"wirePosition\":\(position)") }
    if let source = entry.wireSource { fields.append("\"wireSource\":" + JSONText.quoted(source)) }
    if let status = entry.answerStatus { fields.append("\"answerStatus\":\(status)") }
    if let latency = entry.latencyMilliseconds { fields.append("\"latencyMs\":\(latency)") }
    if let age = entry.ageMilliseconds { fields.append("\"ageMs\":\(age)") }
    if let reason = entry.reason { fields.append("\"reason\":" + JSONText.quoted(reason)) }
    if !entry.candidates.isEmpty {
      fields.append("\"candidates\":[" + entry.candidates.map(String.init).joined(separator: ",") + "]")
    }
    return "{" + fields.joined(separator: ",") + "}"
  }

  private static func json(_ call: UnexplainedWireCall) -> String {
    "{\"position\":\(call.position),\"provider\":" + JSONText.quoted(call.provider) + ",\"method\":"
      + JSONText.quoted(call.method) + ",\"name\":" + (call.name.map(JSONText.quoted) ?? "null")
      + ",\"source\":" + JSONText.quoted(call.source) + ",\"time\":\""
      + ISO8601Timestamp.string(from: call.time) + "\"}"
  }
}
