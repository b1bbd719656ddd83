import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeLive

/// The delivery ledger off the live session's worker: the session queues its records to the
/// ledger's own thread and stores on; the inbox between them is bounded (a full one holds ingest
/// back, nothing dropped); every reader counts every record stored before it asked.
final class DeliveryLedgerWorkerTests: XCTestCase {
  /// The ledger's thread held (a wait's completion runs on it and does not return): the session
  /// still stores, checks and notifies (it matched on the session's worker, which waited too).
  func testTheSessionStoresOnWhileTheLedgerMatches() {
    let ledger = DeliveryLedger(wireProviders: ["segment"])
    let session = LiveSession(store: nil, syncsBeforeAcknowledging: false, delivery: ledger)
    let gate = DispatchSemaphore(value: 0)
    hold(ledger, fedBy: { session.receive([.record($0, line: [])]) }, flush: session.flush, until: gate)

    let stored = expectation(description: "stored")
    Thread {
      session.receive((1...50).map { .record(SegmentStream.call("Later \($0)", at: Int64($0)), line: []) })
      session.flush()
      stored.fulfill()
    }.start()
    wait(for: [stored], timeout: 30)
    gate.signal()
    XCTAssertEqual(ledger.snapshot().total, 51, "every call stored is in the ledger once it is read")
    session.close()
  }

  /// A tiny inbox and a held worker: ingest waits once it is full, and once the worker goes on
  /// every call is there.
  func testAFullInboxHoldsIngestBackAndLosesNothing() {
    let ledger = DeliveryLedger(wireProviders: ["segment"], inboxCapacity: 4)
    let gate = DispatchSemaphore(value: 0)
    hold(ledger, fedBy: { ledger.enqueue([$0], firstPosition: 0) }, until: gate)

    let produced = LockedArray<Int>()
    let done = expectation(description: "all queued")
    Thread {
      for index in 0..<20 {
        ledger.enqueue([SegmentStream.call("Call \(index)", at: Int64(index))], firstPosition: 2 + index)
        produced.append(index)
      }
      done.fulfill()
    }.start()
    XCTAssertTrue(eventually { ledger.producersWaitingForRoom == 1 })
    // The wire record being matched counts until it is: three more records fill the inbox.
    XCTAssertEqual(produced.all.count, 3)
    XCTAssertEqual(ledger.peakInboxLoad, 4)
    gate.signal()
    wait(for: [done], timeout: 30)
    let snapshot = ledger.snapshot()
    XCTAssertEqual(snapshot.total, 21)
    XCTAssertEqual(snapshot.count(.queued), 20)
    XCTAssertLessThanOrEqual(ledger.peakInboxLoad, 4)
  }

  /// Records stored, then the ledger read at once: it counts them all, on every run.
  func testARecordStoredBeforeAReadIsCountedByIt() {
    for run in 0..<10 {
      let session = LiveSession(store: nil, syncsBeforeAcknowledging: false)
      let ledger = session.delivery!
      for batch in 0..<10 {
        session.receive(
          (0..<50).flatMap { offset -> [SinkItem] in
            let index = batch * 50 + offset
            let params: Properties = ["n": .int(index)]
            return [
              .record(SegmentStream.call("Play", params: params, at: Int64(index)), line: []),
              .record(SegmentStream.wire("Play", params: params, at: Int64(index)), line: []),
            ]
          })
      }
      session.flush()
      let snapshot = ledger.snapshot(DeliveryFilter(limit: 0))
      XCTAssertEqual(snapshot.total, 500, "run \(run)")
      XCTAssertEqual(snapshot.count(.delivered), 500, "run \(run)")
      session.close()
    }
  }

  /// A reader asking as soon as records are acknowledged (the query API's `delivery?wait=settled`
  /// catches up with the ledger, then waits for the calls it has) counts them: the session hands
  /// them to the ledger before it acknowledges them.
  func testARecordAcknowledgedIsCountedByAReaderAskingThen() {
    for run in 0..<10 {
      let session = LiveSession(store: nil, syncsBeforeAcknowledging: false)
      let ledger = session.delivery!
      let counted = LockedArray<Int>()
      let read = expectation(description: "read after the acknowledgement, run \(run)")
      let records = (0..<3).map { SegmentStream.call("Tap", params: ["n": .int($0)], at: Int64($0)) }
      session.deliver(records, lines: records.map { _ in [] })
      session.whenStored {
        ledger.whenCaughtUp {
          counted.append(ledger.appliedCallCount)
          read.fulfill()
        }
      }
      wait(for: [read], timeout: 30)
      XCTAssertEqual(counted.all, [3], "run \(run)")
      session.close()
    }
  }

  /// Ingest, vendor answers and every kind of read at once (run under the thread sanitizer too):
  /// the counts only grow, and the last read has every call.
  func testConcurrentIngestAnswersAndReads() {
    let ledger = DeliveryLedger(wireProviders: ["segment"], inboxCapacity: 64)
    let session = LiveSession(store: nil, syncsBeforeAcknowledging: false, delivery: ledger)
    let count = 2_000
    let ingested = expectation(description: "ingested")
    Thread {
      for index in stride(from: 0, to: count, by: 100) {
        session.receive(
          (index..<index + 100).map {
            .record(SegmentStream.call("Tap", params: ["n": .int($0)], at: Int64($0)), line: [])
          })
        // Then their wire records, as the proxy forwards them (behind the calls: the session's
        // worker queued those), answered from another thread while the reads go on.
        session.flush()
        let wires = (index..<index + 100).map {
          SegmentStream.wire("Tap", params: ["n": .int($0)], at: Int64($0))
        }
        ledger.enqueue(wires, firstPosition: count + index, wireAnswered: false)
        DispatchQueue.global().async {
          for offset in 0..<100 { ledger.answered(wirePosition: count + index + offset, status: 200) }
        }
      }
      session.flush()
      ingested.fulfill()
    }.start()
    let readers = (0..<2).map { reader in
      let finished = expectation(description: "reader \(reader)")
      Thread {
        var last = 0
        var going = true
        while going {
          going = ledger.callCount < count || !ledger.isSettled(upTo: count)
          let total = ledger.snapshot(DeliveryFilter(state: .refused, limit: 0)).total
          XCTAssertGreaterThanOrEqual(total, last)
          last = total
          _ = ledger.entries(atPosition: reader)
          ledger.whenCaughtUp {}
        }
        finished.fulfill()
      }.start()
      return finished
    }
    wait(for: [ingested] + readers, timeout: 60)
    let snapshot = ledger.snapshot(DeliveryFilter(limit: 0))
    XCTAssertEqual(snapshot.total, count)
    XCTAssertEqual(snapshot.count(.delivered), count)
    session.close()
  }

  // MARK: Helpers

  /// Feeds `ledger` a call (then `flush`es) and its wire record through `feed`, with a wait whose
  /// completion runs on the thread that settles the call and holds it until `gate` is signalled;
  /// returns once it is held.
  private func hold(
    _ ledger: DeliveryLedger, fedBy feed: (Record) -> Void, flush: () -> Void = {},
    until gate: DispatchSemaphore
  ) {
    feed(SegmentStream.call("Held", at: 0))
    flush()
    let held = expectation(description: "held")
    XCTAssertEqual(ledger.callCount, 1)
    ledger.whenSettled(upTo: 1) {
      held.fulfill()
      gate.wait()
    }
    feed(SegmentStream.wire("Held", at: 0))
    wait(for: [held], timeout: 30)
  }
}
