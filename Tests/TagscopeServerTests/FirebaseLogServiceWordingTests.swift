import AnalyticsHub
import Foundation
import XCTest

@testable import TagscopeServer

/// Android's Firebase Analytics lines beyond the ones the reader knows. The SDK's own strings
/// (decompiled `measurement` classes in public repositories) say `Logging event (FE)` and `Setting
/// user property (FE)` in the app and, in the service, `Logging event` (the parcel printed as
/// `origin=…,name=…,params=…`), `Setting user property` and `Event recorded`; no `(BE)` wording
/// was found in them nor in any public logcat paste, and an app with an event interceptor (Google
/// Tag Manager) prints `Passing event to registered event handler (FE)` instead of logging the
/// event. Such a line is counted as not understood under its wording, never read as a call nor
/// skipped in silence.
final class FirebaseLogServiceWordingTests: XCTestCase {
  func testAWordingTheReaderDoesNotKnowIsCountedWithItsPlace() {
    let lines = [
      "11-25 20:15:34.000  4120  4120 V FA      : Logging event (FE): add_to_cart, Bundle[{ga_event_origin(_o)=app, value=9.99}]",
      "11-25 20:15:34.100  4120  4188 V FA-SVC  : Logging event (BE): name=add_to_cart, params=Bundle[{value=9.99}]",
      "11-25 20:15:34.200  4120  4120 V FA      : Passing event to registered event handler (FE): purchase, Bundle[{value=5}]",
      "V/FA-SVC  ( 4120): Logging event (BE): name=purchase, params=Bundle[{value=5}]",
    ].map { $0[...] }
    let (entries, problems) = FirebaseLogWordingsTests.read(lines)
    XCTAssertEqual(FirebaseLogParserTests.events(entries).map(\.name), ["add_to_cart"], "the (FE) line only")
    XCTAssertEqual(
      problems.map(\.wording),
      ["FA Logging event", "FA Passing event to registered event handler", "FA Logging event"])
    XCTAssertEqual(problems.map(\.line), [2, 3, 4])
    XCTAssertTrue(
      problems.first?.message.hasPrefix("a Firebase Analytics line not understood (FA Logging event)")
        == true,
      problems.first?.message ?? "no problem")

    var tally = FirebaseLogUnreadLines()
    for problem in problems { tally.count(problem.wording ?? "", at: "logcat line \(problem.line)") }
    XCTAssertEqual(
      tally.summary,
      "firebase log lines not understood 3 (FA Logging event ×2 first at logcat line 2; "
        + "FA Passing event to registered event handler ×1 first at logcat line 3)")
  }
}
