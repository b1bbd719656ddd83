import TagscopeTimeline
import XCTest

@testable import TagscopeUI

/// The event loop submits an effect once while it is in flight; a read asked for again meanwhile
/// runs once more when it comes back, so a header read just before a plan check ended is redrawn
/// with the check's result (the e2e race where `listen`'s header stayed at `0 errors` while the row
/// showed the unplanned-call warning).
final class EffectLedgerTests: XCTestCase {
  func testAReadAskedForWhileInFlightRunsOnceMoreWhenItComesBack() {
    var ledger = EffectLedger()
    XCTAssertTrue(ledger.ask(.loadInfo), "the first ask submits")
    XCTAssertFalse(ledger.ask(.loadInfo), "in flight: not submitted twice")
    XCTAssertFalse(ledger.ask(.loadInfo), "asked a third time: still one more run, not two")
    XCTAssertTrue(ledger.finished(.loadInfo), "back: run again for the newer answer")
    XCTAssertFalse(ledger.ask(.loadInfo), "the second run is in flight")
    XCTAssertTrue(ledger.finished(.loadInfo), "asked during the second run: a third")
    XCTAssertFalse(ledger.finished(.loadInfo), "nothing asked during the third: done")
    XCTAssertTrue(ledger.ask(.loadInfo), "no longer in flight: submitted at once")
  }

  func testAReadNotAskedAgainIsNotRepeated() {
    var ledger = EffectLedger()
    XCTAssertTrue(ledger.ask(.loadRows([1, 2, 3])))
    XCTAssertTrue(ledger.ask(.loadRows([4])), "another read is its own effect")
    XCTAssertFalse(ledger.finished(.loadRows([1, 2, 3])))
    XCTAssertFalse(ledger.ask(.loadRows([4])))
    XCTAssertTrue(ledger.finished(.loadRows([4])))
    XCTAssertFalse(ledger.finished(.loadRows([4])))
  }

  func testActionsAskedForWhileInFlightAreNotRepeated() throws {
    let actions: [Effect] = [
      .export(.all(count: 5), path: "/tmp/never-written.jsonl"), .copyRecord(3),
      .findTime(2, roundingUp: true, within: nil),
      .findViolation(from: 0, forward: true, within: nil), .draftPlanEntry(1),
      .filter(text: "screen", try Filter.parse("screen").get(), range: 0..<10),
    ]
    for action in actions {
      var ledger = EffectLedger()
      XCTAssertTrue(ledger.ask(action))
      XCTAssertFalse(ledger.ask(action), "\(action): a second press while it runs is not queued")
      XCTAssertFalse(ledger.finished(action), "\(action): done once")
      XCTAssertTrue(ledger.ask(action), "\(action): asked after it ended, it runs again")
    }
  }
}
