import Foundation
import TagscopeRecording
import TagscopeServer

/// The runs of records, within one batch the live session stores, that came from requests the
/// proxy forwards to their vendor: the delivery ledger has their wire calls in flight until the
/// vendor's answer (``WireExchange``), and every other wire record answered by `listen` itself.
struct ForwardedRuns {
  /// The batch's records counted so far.
  private var count = 0
  private var runs: [(records: Range<Int>, exchange: WireExchange)] = []

  /// Records (and markers) not forwarded.
  mutating func skip(_ items: [SinkItem]) {
    count += items.count { if case .record = $0 { true } else { false } }
  }

  /// `records` records of one forwarded request.
  mutating func add(_ records: Int, _ exchange: WireExchange) {
    runs.append((count..<count + records, exchange))
    count += records
  }

  /// The batch's records counted so far.
  var records: Int { count }

  /// Hands the batch's records, held in `segments` (from session position `firstPosition` on), to
  /// `ledger`: each forwarded run unanswered, answered when its exchange is, and then told to
  /// `answered` (its positions, the status, when).
  func observe(
    _ segments: [[Record]], firstPosition: Int, in ledger: DeliveryLedger,
    answered: @escaping @Sendable (Range<Int>, Int, Date) -> Void = { _, _, _ in }
  ) {
    ledger.enqueue(segments, firstPosition: firstPosition, unanswered: runs.map(\.records))
    for run in runs {
      let positions = (firstPosition + run.records.lowerBound)..<(firstPosition + run.records.upperBound)
      run.exchange.whenAnswered { status, time in
        for position in positions { ledger.answered(wirePosition: position, status: status, at: time) }
        answered(positions, status, time)
      }
    }
  }
}
