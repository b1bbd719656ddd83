import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports
@testable import TagscopeDiff

/// Issue 31: `diff` and `plan infer` on a recording of many distinct tags hold what each tag must
/// hold, no more: a few fixed-size cells per tag, names, types and sets shared, repeats adding
/// no cell, and a property's values dropped once it cannot be an `enum`. Counted, not timed (the
/// bytes are measured by the `growth` bench).
final class PerTagFootprintTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "footprint-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private static let tags = 2_000

  /// The bench's shape: a tag of its own per record, on one of 50 screens, a title, a position,
  /// an id-shaped reference, one Firebase call named as the tag; every record written `copies`
  /// times.
  private func recording(copies: Int) throws -> String {
    var records: [Record] = []
    for index in 0..<Self.tags {
      let name = "tag_\(index)"
      let properties: Properties = [
        "title": .string("Episode \(index % 7)"), "position": .int(index),
        "ref": .string("\(100_000 + index)"),
      ]
      let output = sent("firebase", name, ["position": 1])
      for copy in 0..<copies {
        records.append(
          record(
            UInt64(copy * Self.tags + index + 1), .userAction, name, properties,
            screen: "screen_\(index % 50)",
            outputs: [output]))
      }
    }
    return try writeRecording(records, named: "tags-\(copies).jsonl", in: directory)
  }

  func testADiffProfileHoldsTwoCellsPerTagAndSharesTheRest() throws {
    for copies in [1, 3] {
      let (profile, _) = try ProfileReader.read(path: try recording(copies: copies))
      let held = profile.footprint
      XCTAssertEqual(held.tags, Self.tags)
      // One status and one call per tag, whatever the repeats.
      XCTAssertEqual(held.cells, 2 * Self.tags)
      // A kind, 50 screens, a provider; no types or method set per tag.
      XCTAssertEqual(held.strings, 52)
      XCTAssertEqual(held.types, 3)
      XCTAssertEqual(held.methods, 2)
      let tag = try XCTUnwrap(
        profile.tag(TagSignature(kind: "userAction", name: "tag_7", screen: "screen_7")))
      XCTAssertEqual(tag.count, copies)
      XCTAssertEqual(tag.providers["firebase"]?.count, copies)
      XCTAssertEqual(tag.providers["firebase"]?.statuses, ["sent": copies])
      XCTAssertEqual(tag.providers["firebase"]?.calls["tag_7"]?.count, copies)
      XCTAssertEqual(tag.providers["firebase"]?.calls["tag_7"]?.methods, ["logEvent"])
      XCTAssertEqual(tag.properties.types.keys.sorted(), ["position", "ref", "title"])
    }
  }

  func testADraftHoldsACellPerPropertyAndOnlyValuesThatCanMakeAnEnum() throws {
    for copies in [1, 3] {
      var inference = PlanInference()
      try inference.read(path: try recording(copies: copies))
      let held = inference.footprint
      XCTAssertEqual(held.tags, Self.tags)
      XCTAssertEqual(held.properties, 3 * Self.tags)
      // The title's one value per tag; the id-shaped reference and the number keep none.
      XCTAssertEqual(held.values, Self.tags)
      XCTAssertEqual(held.providers, Self.tags)
      XCTAssertEqual(held.calls, Self.tags)
      // Three property names, a provider, a method; screen, place and parameter sets shared.
      XCTAssertEqual(held.strings, 5)
      XCTAssertEqual(held.sets, 2 + 50 + 50 + 1)
    }
  }

  /// A property past ten distinct values cannot be an `enum`: its values are freed and reused.
  func testValuesOfAPropertyThatCannotBeAnEnumAreFreed() throws {
    let records = (0..<36).map { index in
      record(UInt64(index + 1), .userAction, "tag_\(index % 3)", ["choice": .string("option \(index / 3)")])
    }
    var inference = PlanInference()
    try inference.read(path: try writeRecording(records, named: "choices.jsonl", in: directory))
    XCTAssertEqual(inference.footprint.values, 0)
    let yaml = inference.yaml(name: "Choices")
    XCTAssertFalse(yaml.contains("enum"), yaml)
    XCTAssertTrue(yaml.contains("choice: {type: string, required: true}"), yaml)
  }
}
