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

  /// Names that share a slot of the recent names (600 names, 128 slots) are told apart by their
  /// text: each keeps its own number, however they alternate.
  func testNamesSharingARecentSlotKeepTheirOwnNumbers() {
    var names = DeliveryNames()
    let provider = names.provider("segment")
    let texts = (0..<600).map { "Event \($0)" }
    let labels = texts.map { names.label(provider: provider, method: "track", name: $0) }
    let sources = texts.indices.map { names.source("device-\($0)") }
    XCTAssertEqual(Set(labels).count, texts.count)
    XCTAssertEqual(Set(sources).count, texts.count)
    for index in texts.indices.reversed() + Array(texts.indices) {
      XCTAssertEqual(names.label(provider: provider, method: "track", name: texts[index]), labels[index])
      XCTAssertEqual(names.source("device-\(index)"), sources[index])
    }
    // The same name of another provider or method is another label.
    let other = names.provider("mixpanel")
    XCTAssertNotEqual(names.label(provider: other, method: "track", name: texts[0]), labels[0])
    XCTAssertNotEqual(names.label(provider: provider, method: "screen", name: texts[0]), labels[0])
  }
}
