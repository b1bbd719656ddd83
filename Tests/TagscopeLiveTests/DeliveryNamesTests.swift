import XCTest

@testable import TagscopeLive

/// The delivery ledger's label numbering: one number per provider, method and name, whichever
/// labels share a name.
final class DeliveryNamesTests: XCTestCase {
  func testLabelsSharingANameAreNumberedApartAndFoundAgain() {
    var names = DeliveryNames()
    let (first, second) = (names.provider("first"), names.provider("second"))
    let labels = [
      names.label(provider: first, method: "track", name: "Played"),
      names.label(provider: first, method: "screen", name: "Played"),
      names.label(provider: second, method: "track", name: "Played"),
      names.label(provider: first, method: "Played", name: nil),
      names.label(provider: first, method: "track", name: nil),
    ]
    XCTAssertEqual(labels, [0, 1, 2, 3, 4])
    XCTAssertEqual(names.label(provider: second, method: "track", name: "Played"), 2)
    XCTAssertEqual(names.label(provider: first, method: "Played", name: nil), 3)
    XCTAssertEqual(names.label(provider: first, method: "screen", name: "Played"), 1)
    XCTAssertEqual(names.label(provider: first, method: "track", name: "Played"), 0)
    XCTAssertEqual(names.labels.count, 5)
    // A name and a method alike are one matching kind (of one provider).
    XCTAssertEqual(names.labels[3].kind, names.labels[0].kind)
    XCTAssertNotEqual(names.labels[2].kind, names.labels[0].kind)
  }
}
