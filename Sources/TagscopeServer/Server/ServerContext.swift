import AnalyticsProviders
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import TagscopeRecording
import TagscopeTimeline

/// What every connection of one server shares: configuration, counters, the consumer, the record
/// numbering for SDK payloads and the open channels (closed on shutdown).
final class ServerContext: Sendable {
  let configuration: ListenConfiguration
  let statistics = StatisticsCounter()
  let ingest: any ListenIngest
  private let sequence = NIOLockedValueBox<UInt64>(0)
  private let channels = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])
  private let sources = NIOLockedValueBox<Set<String>>([])
  private let httpSources = NIOLockedValueBox<Set<String>>([])
  /// One rule stream per source: the provider's documented rules, counted per app instance.
  private let ruleStreams = NIOLockedValueBox<[String: ProviderRuleStream]>([:])

  init(configuration: ListenConfiguration, ingest: any ListenIngest) {
    self.configuration = configuration
    self.ingest = ingest
  }

  /// Enqueues `event`, counting delivered records.
  func deliver(_ event: ListenEvent) {
    if case .records(let records) = event {
      guard !records.isEmpty else { return }
      statistics.update { $0.accepted += records.count }
    }
    ingest.deliver(event)
  }

  /// Numbers and delivers the events one SDK request carried; the first request from a source
  /// (`provider@address`) announces it.
  func deliver(_ events: [IngestedEvent], source: String, provider: String, address: String) {
    guard !events.isEmpty else { return }
    let isNew = httpSources.withLockedValue { $0.insert(source).inserted }
    if isNew {
      deliver(.sourceConnected(source: source, header: RecordingHeader(app: provider, device: address)))
    }
    let first = sequence.withLockedValue { value -> UInt64 in
      let start = value + 1
      value += UInt64(events.count)
      return start
    }
    let now = Date()
    var records = events.enumerated().map { index, event in
      RecordMaker.record(event, seq: first + UInt64(index), source: source, received: now)
    }
    ruleStreams.withLockedValue { streams in
      var stream = streams[source] ?? ProviderRuleStream()
      for index in records.indices { Self.addProviderRules(to: &records[index], stream: &stream) }
      streams[source] = stream
    }
    deliver(.records(records))
  }

  /// Adds the violations of the provider's documented rules (from `AnalyticsProviders`) that the
  /// endpoint did not already report, as the hub does for in-process records.
  /// GA4 Measurement Protocol payloads are left to ``GA4Validator``, which reports what Google's
  /// validation server reports (the Firebase SDK's rules would say the same twice).
  static func addProviderRules(to record: inout Record, stream: inout ProviderRuleStream) {
    for index in record.outputs.indices where record.outputs[index].provider != "ga4" {
      let output = record.outputs[index]
      let known = Set(output.violations.map(\.rule))
      let found = stream.check(provider: output.provider, calls: output.calls)
      record.outputs[index].violations += found.filter { !known.contains($0.rule) }.map(RecordViolation.init)
    }
  }

  /// A source name for a new native connection: `base`, or `base #2`, `base #3`… while a
  /// connection with the same name is open, so identical simulators stay apart.
  func claimSource(_ base: String) -> String {
    sources.withLockedValue { open in
      var name = base
      var number = 1
      while open.contains(name) {
        number += 1
        name = "\(base) #\(number)"
      }
      open.insert(name)
      return name
    }
  }

  /// Frees a source name when its connection closes.
  func releaseSource(_ name: String) {
    _ = sources.withLockedValue { $0.remove(name) }
  }

  func register(_ channel: any Channel) {
    channels.withLockedValue { $0[ObjectIdentifier(channel)] = channel }
  }

  func unregister(_ channel: any Channel) {
    _ = channels.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(channel)) }
  }

  /// Every channel open now.
  var openChannels: [any Channel] { channels.withLockedValue { Array($0.values) } }
}
