import XCTest

@testable import TagscopeServer

/// ``MallocArenas``: glibc takes the bound (its `mallopt` found and given the right option).
final class MallocArenasTests: XCTestCase {
  func testGlibcTakesTheBoundAndRefusesNone() {
    #if canImport(Glibc)
      // This test process already has its arenas (eight a core at most): a bound of that many
      // changes nothing here, but glibc must say it took it.
      XCTAssertTrue(MallocArenas.bound(to: Int32(8 * ProcessInfo.processInfo.activeProcessorCount)))
      XCTAssertFalse(MallocArenas.bound(to: 0), "no bound of 0: glibc would read it as none")
    #else
      XCTAssertFalse(MallocArenas.bound(), "without glibc there is nothing to bound")
    #endif
  }
}
