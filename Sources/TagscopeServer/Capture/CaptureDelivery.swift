import NIOConcurrencyHelpers
import TagscopeRecording

/// The calling thread's half of ``CaptureImport``: takes the entries' steps in the capture's
/// order, counts them into the import's summary and delivers the decoded events as `listen`
/// does (numbered, placed on devices, checked against the providers' rules) into records.
struct CaptureDelivery {
  /// What the import did so far.
  var summary = CaptureImport.Summary()
  private let address: String
  private let server: ServerContext
  private let collected: NIOLockedValueBox<[ListenEvent]>
  /// The place in ``CaptureImport/Summary/unread`` of each host, path and reason.
  private var unread: [String: Int] = [:]

  /// A delivery placing devices by `address`.
  init(address: String) {
    let collected = NIOLockedValueBox<[ListenEvent]>([])
    self.address = address
    self.collected = collected
    server = ServerContext(
      configuration: ListenConfiguration(),
      ingest: ImmediateIngest { event in collected.withLockedValue { $0.append(event) } })
  }

  /// Counts `step`, the next entry's, and hands the records it gives to `emit`.
  mutating func take(_ step: CaptureStep, emit: ([Record]) throws -> Void) throws {
    summary.entries += 1
    switch step {
    case .problem(let problem): summary.problems.append(problem)
    case .unread(let entry, let host, let path, let reason):
      let key = "\(host)\u{0}\(path)\u{0}\(reason)"
      if let place = unread[key] {
        summary.unread[place].count += 1
      } else {
        unread[key] = summary.unread.count
        summary.unread.append(
          CaptureImport.Unread(host: host, path: path, reason: reason, firstEntry: entry, count: 1))
      }
    case .decoded(let events, let problems):
      summary.decoded += 1
      summary.problems += problems
      server.deliver(events, address: address)
      for event in collected.withLockedValue({ events in
        defer { events = [] }
        return events
      }) {
        if case .records(let records) = event {
          summary.records += records.count
          try emit(records)
        }
      }
    }
  }
}
