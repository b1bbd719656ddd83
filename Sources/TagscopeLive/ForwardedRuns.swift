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

  /// Feeds the batch's `records`, the first at session position `firstPosition`, to `ledger`:
  /// each forwarded run unanswered, answered when its exchange is.
  func observe(_ records: [Record], firstPosition: Int, in ledger: DeliveryLedger) {
    var next = 0
    for run in runs {
      if next < run.records.lowerBound {
        ledger.enqueue(Array(records[next..<run.records.lowerBound]), firstPosition: firstPosition + next)
      }
      ledger.enqueue(
        Array(records[run.records]), firstPosition: firstPosition + run.records.lowerBound,
        wireAnswered: false)
      let positions = (firstPosition + run.records.lowerBound)..<(firstPosition + run.records.upperBound)
      run.exchange.whenAnswered { status, time in
        for position in positions { ledger.answered(wirePosition: position, status: status, at: time) }
      }
      next = run.records.upperBound
    }
    if next < records.count || runs.isEmpty {
      ledger.enqueue(next == 0 ? records : Array(records[next...]), firstPosition: firstPosition + next)
    }
  }
}
