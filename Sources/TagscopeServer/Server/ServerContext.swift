import AnalyticsProviders
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import TagscopeRecording

/// What every connection of one server shares: configuration, counters, the consumer, the record
/// numbering for SDK payloads and the open channels (closed on shutdown).
final class ServerContext: Sendable {
  let configuration: ListenConfiguration
  let statistics = StatisticsCounter()
  let ingest: any ListenIngest
  /// What answers the query API (`/tagscope/v1/…`), if anything.
  let query: (any QueryAPI)?
  private let sequence = NIOLockedValueBox<UInt64>(0)
  private let channels = NIOLockedValueBox<[ObjectIdentifier: OpenChannel]>([:])
  private let sources = NIOLockedValueBox<Set<String>>([])
  /// Each native source's `seq` check while none of its connections is open (a connection has its
  /// source's from ``claimSource(_:)`` to ``releaseSource(_:sequence:)``).
  private let sequences = NIOLockedValueBox<[String: SequenceCheck]>([:])
  private let evictions = NIOLockedValueBox<(last: NIODeadline?, unreported: Int)>((nil, 0))
  /// The SDK devices seen, their labels and states.
  private let devices: NIOLockedValueBox<DeviceRegistry>
  /// One rule stream per source: the provider's documented rules, counted per app instance.
  private let ruleStreams = NIOLockedValueBox<[String: ProviderRuleStream]>([:])

  /// The highest `seq` taken per native run, so a resent record is taken once.
  private let runs: NIOLockedValueBox<[String: UInt64]>
  /// The `seq`s per native run recorded far past its highest (never acknowledged, so resent).
  private let jumps: NIOLockedValueBox<[String: Set<UInt64>]>

  /// The `--token` check, when a token is required.
  let tokenCheck: TokenCheck?
  /// SDK messages answered `503` after they were taken, so their retries are recorded once.
  let retries = RetryMemory()
  /// The bytes of large bodies queued for parsing off the event loops.
  let offload = OffloadBudget(limit: ServerContext.offloadLimit)
  /// The most bytes of large bodies queued for parsing at once (16 Snowplow bodies of 1 MB fit).
  static let offloadLimit = 64 * 1024 * 1024

  init(configuration: ListenConfiguration, ingest: any ListenIngest, query: (any QueryAPI)? = nil) {
    self.configuration = configuration
    self.ingest = ingest
    self.query = query
    tokenCheck = TokenCheck(configuration.token)
    runs = NIOLockedValueBox(configuration.recordedRuns)
    jumps = NIOLockedValueBox(configuration.recordedJumps)
    devices = NIOLockedValueBox(
      DeviceRegistry(limit: configuration.deviceLimit, restoring: configuration.recordedDevices))
    retries.seed(configuration.recordedMessages)
  }

  /// Remembers the messages of a request answered `503` after they were taken (``RetryMemory``);
  /// those the memory's bound leaves unprotected are counted and reported.
  func remember(_ ledger: RetryLedger) {
    let unprotected = retries.remember(ledger)
    guard unprotected > 0 else { return }
    statistics.update { $0.retriesUnprotected += unprotected }
    deliver(
      .problem(
        source: "listen",
        message:
          "\(unprotected) SDK message\(unprotected == 1 ? "" : "s") answered 503 cannot be told from \(unprotected == 1 ? "its retry" : "their retries") "
          + "(at most \(RetryMemory.limit) remembered): \(unprotected == 1 ? "it is" : "they are") recorded again if resent"
      ))
  }

  /// The highest `seq` taken from native run `run` so far (by any connection, or already in the
  /// recording being continued).
  func highestSeq(run: String) -> UInt64? { runs.withLockedValue { $0[run] } }

  /// Notes that run `run`'s records up to `seq` were taken. At most ``runLimit`` runs are
  /// remembered (run ids are untrusted): later new ones are taken without deduplication.
  func took(run: String, upTo seq: UInt64) {
    runs.withLockedValue { runs in
      guard runs[run] != nil || runs.count < Self.runLimit else { return }
      runs[run] = max(runs[run] ?? 0, seq)
    }
  }

  /// The most native runs remembered for deduplication.
  static let runLimit = 65_536

  /// Notes that run `run`'s record `seq`, far past its highest, was taken: no acknowledgement
  /// covers it, so the client resends it after a reconnect, and that resend is a duplicate. At
  /// most ``jumpLimit`` such `seq`s are remembered per run (runs as many as ``runLimit``): past
  /// them a resend is recorded again, and counted as out of order.
  func noteJump(run: String, seq: UInt64) {
    jumps.withLockedValue { jumps in
      guard jumps[run] != nil || jumps.count < Self.runLimit else { return }
      if jumps[run, default: []].count < Self.jumpLimit { jumps[run, default: []].insert(seq) }
    }
  }

  /// Whether run `run`'s record `seq`, far past its highest, was taken already.
  func tookJump(run: String, seq: UInt64) -> Bool {
    jumps.withLockedValue { $0[run]?.contains(seq) == true }
  }

  /// The most far-ahead `seq`s remembered per native run.
  static let jumpLimit = 1_024

  /// Enqueues `event`, counting delivered records.
  func deliver(_ event: ListenEvent) {
    if case .records(let records) = event {
      guard !records.isEmpty else { return }
      statistics.update { $0.accepted += records.count }
    }
    ingest.deliver(event)
  }

  /// Enqueues native records with the lines they arrived as (see ``ListenIngest/deliver(_:lines:)``).
  func deliver(_ records: [Record], lines: [[UInt8]]) {
    guard !records.isEmpty else { return }
    statistics.update { $0.accepted += records.count }
    ingest.deliver(records, lines: lines)
  }

  /// Numbers and delivers the events one SDK request from `address` carried. Each record's source
  /// is the device its payload names (see ``DeviceRegistry``), its context that device's screens,
  /// session and user; the first record of a source announces it. With the request's `ledger`,
  /// retries of messages already taken (``RetryMemory``) are skipped and counted, and the records
  /// of a request the proxy forwards go with its ``RetryLedger/exchange``.
  func deliver(_ events: [IngestedEvent], address: String, ledger: RetryLedger? = nil) {
    let given = events.count
    let events = retries.admit(events, ledger: ledger)
    if events.count < given { statistics.update { $0.retriesSkipped += given - events.count } }
    guard !events.isEmpty else { return }
    let now = Date()
    var announcements: [ListenEvent] = []
    var records: [Record] = []
    records.reserveCapacity(events.count)
    devices.withLockedValue { registry in
      let forgotten = registry.forgotten
      // Numbered under the devices' lock, so each device's states follow its records' order.
      let first = sequence.withLockedValue { value -> UInt64 in
        let start = value + 1
        value += UInt64(events.count)
        return start
      }
      for (index, event) in events.enumerated() {
        let placement = registry.place(event, address: address)
        if let header = placement.announcement {
          announcements.append(.sourceConnected(source: placement.source, header: header))
        }
        records.append(
          RecordMaker.record(
            event, seq: first + UInt64(index), source: placement.source, context: placement.context,
            received: now))
      }
      if registry.forgotten > forgotten {
        statistics.update { $0.forgottenDevices = registry.forgotten }
        if forgotten == 0 {
          announcements.append(
            .problem(
              source: "listen",
              message:
                "\(registry.limit) SDK devices tracked: the longest idle ones are forgotten for new ones (their records keep their source; a forgotten device starts anew)"
            ))
        }
      }
    }
    for announcement in announcements { deliver(announcement) }
    if events.contains(where: { !$0.violations.isEmpty }) {
      statistics.update { statistics in
        for (event, record) in zip(events, records) {
          statistics.fieldsNotUnderstood.add(event, seq: record.seq)
        }
      }
    }
    ruleStreams.withLockedValue { streams in
      for index in records.indices {
        let source = records[index].source ?? ""
        // In place: a copy taken out would copy the source's counted names on every record.
        Self.addProviderRules(to: &records[index], stream: &streams[source, default: ProviderRuleStream()])
      }
    }
    guard let exchange = ledger?.exchange else { return deliver(.records(records)) }
    statistics.update { $0.accepted += records.count }
    ingest.deliver(records, forwardedIn: exchange)
  }

  /// The most SDK device, connection and alias ids remembered by default (see ``DeviceRegistry``).
  static let deviceLimit = ListenConfiguration.defaultDeviceLimit

  /// Adds the violations of the provider's documented rules (from `AnalyticsProviders`) that the
  /// endpoint did not already report, as the hub does for in-process records.
  /// GA4 Measurement Protocol payloads are left to ``GA4Validator``, which reports what Google's
  /// validation server reports (the Firebase SDK's rules would say the same twice).
  static func addProviderRules(to record: inout Record, stream: inout ProviderRuleStream) {
    for index in record.outputs.indices where record.outputs[index].provider != Vendors.ga4.rawValue {
      let output = record.outputs[index]
      let known = Set(output.violations.map(\.rule))
      let found = stream.check(provider: output.provider, calls: output.calls)
      record.outputs[index].violations += found.filter { !known.contains($0.rule) }.map(RecordViolation.init)
    }
  }

  /// A source name for a new native connection: `base`, or `base #2`, `base #3`… while a
  /// connection with the same name is open, so identical simulators stay apart; with the source's
  /// `seq` check as its earlier connections left it, so its records are checked in the order the
  /// recording holds them, as `validate` and the live timeline check them.
  func claimSource(_ base: String) -> (name: String, sequence: SequenceCheck) {
    let name = sources.withLockedValue { open in
      var name = base
      var number = 1
      while open.contains(name) {
        number += 1
        name = "\(base) #\(number)"
      }
      open.insert(name)
      return name
    }
    let sequence = sequences.withLockedValue { $0.removeValue(forKey: name) } ?? SequenceCheck()
    return (name, sequence)
  }

  /// Frees a source name when its connection closes, keeping its `seq` check for its next
  /// connection (for at most ``sequenceLimit`` sources: source names are untrusted).
  func releaseSource(_ name: String, sequence: SequenceCheck) {
    sequences.withLockedValue { kept in
      if kept.count < Self.sequenceLimit { kept[name] = sequence }
    }
    _ = sources.withLockedValue { $0.remove(name) }
  }

  /// The most native sources whose `seq` check is kept while they are not connected.
  static let sequenceLimit = 16_384

  /// Counts a native record's `seq` anomaly (``ServerStatistics/seqAnomalies``); a restart is not
  /// one.
  func count(_ anomaly: SequenceCheck.Anomaly) {
    if case .restarted = anomaly { return }
    statistics.update { $0.seqAnomalies += 1 }
  }

  func register(_ channel: any Channel) {
    let peer = channel.remoteAddress.map { "\($0.ipAddress ?? "unknown"):\($0.port ?? 0)" } ?? "unknown"
    channels.withLockedValue {
      $0[ObjectIdentifier(channel)] = OpenChannel(channel: channel, peer: peer, lastActive: .now())
    }
  }

  func unregister(_ channel: any Channel) {
    _ = channels.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(channel)) }
  }

  /// Notes that `channel` just sent something.
  func touch(_ channel: any Channel) {
    channels.withLockedValue { $0[ObjectIdentifier(channel)]?.lastActive = .now() }
  }

  /// The open channel other than `channel` that has been silent the longest, taken out of the
  /// registry (so two new connections never pick the same one), with how long it was silent.
  func takeLongestIdle(except channel: any Channel) -> (channel: any Channel, peer: String, idle: TimeAmount)?
  {
    channels.withLockedValue { open in
      let newest = ObjectIdentifier(channel)
      guard
        let (key, oldest) = open.filter({ $0.key != newest }).min(by: {
          $0.value.lastActive < $1.value.lastActive
        })
      else { return nil }
      open.removeValue(forKey: key)
      return (oldest.channel, oldest.peer, NIODeadline.now() - oldest.lastActive)
    }
  }

  /// Reports a connection closed to make room, at most once a second (the rest are counted into
  /// the next notice, and all of them into the statistics).
  func reportEviction(peer: String, idle: TimeAmount) {
    let now = NIODeadline.now()
    let earlier: Int? = evictions.withLockedValue { state in
      if let last = state.last, now - last < .seconds(1) {
        state.unreported += 1
        return nil
      }
      defer { state = (now, 0) }
      return state.unreported
    }
    guard let earlier else { return }
    let seconds = Double(idle.nanoseconds) / 1e9
    var message =
      "\(configuration.maximumConnections) connections open: closed the longest idle, \(peer) (silent \(String(format: "%.1f", seconds)) s), for a new one"
    if earlier > 0 { message += "; \(earlier) more since the last notice" }
    deliver(.problem(source: "listen", message: message))
  }

  /// Every channel open now.
  var openChannels: [any Channel] { channels.withLockedValue { $0.values.map(\.channel) } }
}

/// An open connection, its peer and when it last sent anything.
struct OpenChannel {
  let channel: any Channel
  let peer: String
  var lastActive: NIODeadline
}
