import Foundation

/// What one HAR entry comes to before delivery: read, routed and decoded — everything of an entry
/// that depends on that entry alone, so it is done on ``CaptureImport``'s reading thread while
/// the calling thread numbers, places and writes the records of the entries before it.
enum CaptureStep: Sendable {
  /// A malformed entry, or a request its decoder refused.
  case problem(HARProblem)
  /// A request no decoder reads.
  case unread(entry: Int, host: String, path: String, reason: String)
  /// A request a decoder took: its events (time and vendor answer filled in), and its problems:
  /// the vendor's error answer, if it gave one (the records are kept), and events accepted but not
  /// read again (``UnreadEvents``).
  case decoded(events: [IngestedEvent], problems: [HARProblem])

  /// The step of `result`, an entry read or the problem of one, decoded for `hosts` with devices
  /// placed by `address`.
  init(_ result: Result<HAREntry, HARProblem>, hosts: InterceptedHosts, address: String) {
    let entry: HAREntry
    switch result {
    case .failure(let problem):
      self = .problem(problem)
      return
    case .success(let read): entry = read
    }
    switch CaptureRequest.route(entry, hosts: hosts, address: address) {
    case .unread(let host, let path, let reason):
      self = .unread(entry: entry.index, host: host, path: path, reason: reason)
    case .refused(let reason):
      self = .problem(HARProblem(entry: entry.index, field: "request.postData", message: reason))
    case .endpoint(let endpoint, let request):
      let reply = RequestIntake.answer(request, endpoint: endpoint, tokenCheck: nil)
      if reply.rejection != nil {
        self = .problem(Self.refusal(reply, entry: entry, endpoint: endpoint))
        return
      }
      var problems: [HARProblem] = []
      if let status = entry.responseStatus, status >= 400 {
        problems.append(
          HARProblem(
            entry: entry.index, field: "response.status",
            message: "the vendor answered \(status) to \(entry.method) \(request.path) (its records are kept)"
          ))
      }
      var events = reply.events + (reply.batch.map { $0.events(0..<$0.count) } ?? [])
      for index in events.indices {
        events[index].time = events[index].time ?? entry.started
        if let status = entry.responseStatus { events[index].annotations["response_status"] = .int(status) }
      }
      for unread in reply.unreadProblems {
        problems.append(HARProblem(entry: entry.index, field: "request.postData", message: unread))
      }
      self = .decoded(events: events, problems: problems)
    }
  }

  private static func refusal(_ reply: SDKReply, entry: HAREntry, endpoint: any SDKEndpoint) -> HARProblem {
    HARProblem(
      entry: entry.index, field: "request.postData",
      message:
        "the \(endpoint.provider) decoder refused it as listen would, \(reply.status.code): \(reply.body.prefix(200))"
    )
  }
}
