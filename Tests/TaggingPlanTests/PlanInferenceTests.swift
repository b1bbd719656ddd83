import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import TagscopeRecording
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

/// Issue 15: `tagscope plan infer` drafts a plan from recordings; the draft loads, is
/// deterministic, and checks the traffic it came from without a violation of its own.
final class PlanInferenceTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("infer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private func write(_ name: String, _ records: [Record]) throws -> String {
    try writeRecording(records, named: name, in: directory)
  }

  private func infer(_ paths: String...) throws -> String {
    var inference = PlanInference()
    for path in paths { try inference.read(path: path) }
    return inference.yaml(name: "Drafted")
  }

  /// The demo's traffic through the real hub and mappings: the draft loads, and validating the
  /// same recording against it finds nothing but the providers' own rules (checked whatever the
  /// plan says); a longer run of other journeys mostly still conforms.
  func testADraftFromTheDemoLoadsAndItsTrafficConformsToIt() throws {
    let path = try write("demo.jsonl", try demoRecords(seed: 5, count: 3_000))
    let yaml = try infer(path)
    let plan = try PlanLoader.load(yaml: yaml, file: "drafted.yaml")
    XCTAssertEqual(plan.name, "Drafted")
    let report = try ValidateRunner.validate(plan: plan, recordings: [path])
    let own = report.violations.filter { $0.rule != .providerRule }
    XCTAssertEqual(own.count, 0, own.prefix(5).map(\.message).joined(separator: "\n") + "\n" + yaml)
    XCTAssertTrue(yaml.contains("actions:\n"), yaml)
    XCTAssertTrue(
      yaml.contains("when: {screen: favorites}, method: logEvent, name: play_podcast_from_favorites"), yaml)
  }

  /// The same records in another order, with other times and seqs, draft the same plan.
  func testTheDraftIsDeterministic() throws {
    let records = try demoRecords(seed: 8, count: 600)
    let first = try infer(try write("a.jsonl", records))
    let shuffled = records.reversed().enumerated().map { index, record in
      var copy = record
      copy.seq = UInt64(index + 1)
      copy.time = Date(timeIntervalSince1970: 1_900_000_000 + Double(index))
      return copy
    }
    // All but the first line, which names the file.
    let second = try infer(try write("b.jsonl", shuffled))
    XCTAssertEqual(second.split(separator: "\n").dropFirst(), first.split(separator: "\n").dropFirst())
    XCTAssertGreaterThan(first.split(separator: "\n").count, 40)
  }

  /// What is inferred from hand-built records: types, required, enum, screens, calls by screen,
  /// none where a provider only dropped the tag, blocked providers left out, timed phases.
  func testWhatIsInferred() throws {
    var records: [Record] = []
    for index in 0..<12 {
      let screen = index % 2 == 0 ? "favorites" : "podcasts"
      var properties: Properties = [
        "quality": .string(index % 3 == 0 ? "high" : "low"), "position": .int(index),
      ]
      if index % 4 == 0 { properties["note"] = .string("n\(index)") }
      records.append(
        record(
          UInt64(index + 1), .userAction, "playPodcast", properties, screen: screen,
          outputs: [
            sent(
              "firebase", screen == "favorites" ? "play_from_favorites" : "play",
              ["title": "t", "n": .int(index)]),
            index % 2 == 0
              ? sent("braze", "played", method: "logCustomEvent")
              : ProviderOutput(provider: "braze", status: .dropped),
            ProviderOutput(provider: "piano", status: .dropped),
            ProviderOutput(provider: "batch", status: .blocked, reason: "consent"),
          ]))
    }
    records.append(
      record(
        20, .timedStart, "listening", ["episode": "e1"], screen: "podcasts",
        outputs: [sent("firebase", "listen_start")]))
    records.append(
      record(
        21, .timedStop, "listening", ["episode": "e1", "duration": 12.5, "cancelled": false],
        screen: "podcasts",
        outputs: [sent("firebase", "listen_stop", ["seconds": 12])]))
    let yaml = try infer(try write("hand.jsonl", records))
    let expected = """
      actions:
        playPodcast:  # 12 records
          properties:
            note: {type: string}
            position: {type: integer, required: true}
            quality: {type: string, required: true, enum: [high, low]}  # enum inferred from 12 records
          screens: [favorites, podcasts]
          providers:
            # batch: blocked every time (12×): not planned
            braze:
              - {when: {screen: favorites}, method: logCustomEvent, name: played}  # 6 calls
              - {when: {screen: podcasts}, none: true}  # dropped there
            firebase:
              - {when: {screen: podcasts}, method: logEvent, name: play, params: ["n", title]}  # 6 calls
              - {when: {screen: favorites}, method: logEvent, name: play_from_favorites, params: ["n", title]}  # 6 calls
            piano: none  # no call in 12 outputs
      timed:
        listening:  # 2 records
          properties:
            episode: {type: string, required: true}
          providers:
            firebase:
              - {when: {phase: start}, method: logEvent, name: listen_start}  # 1 call
              - {when: {phase: stop}, method: logEvent, name: listen_stop, params: [seconds]}  # 1 call

      """
    XCTAssertTrue(yaml.contains(expected), yaml)
    XCTAssertTrue(
      yaml.contains("screens:\n  favorites:  # seen only as the current screen of other tags\n"), yaml)
    let plan = try PlanLoader.load(yaml: yaml, file: "hand.yaml")
    let path = try write("check.jsonl", records)
    XCTAssertEqual(try ValidateRunner.validate(plan: plan, recordings: [path]).violations.count, 0)
    // A build that renames firebase's call and stops sending quality breaks the draft.
    var broken = records[0]
    broken.outputs[0] = sent("firebase", "play_podcast", ["title": "t", "n": 1])
    broken.properties["quality"] = nil
    let report = try ValidateRunner.validate(plan: plan, recordings: [try write("broken.jsonl", [broken])])
    XCTAssertEqual(Set(report.violations.map(\.rule)), [.wrongName, .missingProperty])
  }

  /// The case: a draft from one demo run pinned podcast ids and titles into enums, and the
  /// next run (another seed) broke them. Now ids, titles and values seen once or twice are not
  /// enums: a draft from seed 1 finds no invalid value in seed 2, short or long.
  func testADraftFromOneSeedHasNoEnumFalseErrorsOnAnother() throws {
    for count in [200, 1_500] {
      let first = try write("first-\(count).jsonl", try demoRecords(seed: 1, count: count))
      let second = try write("second-\(count).jsonl", try demoRecords(seed: 2, count: count))
      let yaml = try infer(first)
      XCTAssertFalse(yaml.contains("podcast_id: {type: string, required: true, enum"), yaml)
      XCTAssertFalse(yaml.contains("podcast_title: {type: string, required: true, enum"), yaml)
      let plan = try PlanLoader.load(yaml: yaml, file: "drafted.yaml")
      let report = try ValidateRunner.validate(plan: plan, recordings: [second])
      let invalid = report.violations.filter { $0.rule == .invalidValue }
      XCTAssertEqual(
        invalid.count, 0, "\(count): " + invalid.prefix(5).map(\.message).joined(separator: "\n"))
    }
  }

  /// An enum only of few values that repeat, none an id or free text, with its comment.
  func testWhichValuesMakeAnEnum() throws {
    var records: [Record] = []
    for index in 0..<24 {
      let properties: Properties = [
        "format": .string(["hd", "sd", "auto"][index % 3]),
        "rare": .string(index == 0 ? "once" : ["a", "b"][index % 2]),
        "status_id": .string(["open", "closed"][index % 2]),
        "user": .string("user-\(1_000 + index % 2)"),
        "title": .string(
          ["The Daily Show", "Hard Fork", "Radio Lab", "Search Engine", "Acquired"][index % 5]),
        "long": .string(index % 2 == 0 ? String(repeating: "x", count: 41) : "short"),
        "many": .string("v\(index % 11)x"),
        "mixed": index % 2 == 0 ? .string("a") : .int(1),
      ]
      records.append(
        record(UInt64(index + 1), .event, "played", properties, outputs: [sent("firebase", "played")]))
    }
    let yaml = try infer(try write("values.jsonl", records))
    XCTAssertTrue(
      yaml.contains(
        "format: {type: string, required: true, enum: [auto, hd, sd]}  # enum inferred from 24 records\n"),
      yaml)
    for name in ["rare", "status_id", "user", "title", "long", "many", "mixed"] {
      let line = try XCTUnwrap(yaml.split(separator: "\n").first { $0.hasPrefix("      \(name): ") }, name)
      XCTAssertFalse(line.contains("enum"), String(line))
    }
    XCTAssertEqual(yaml.components(separatedBy: "# enum inferred").count, 2, yaml)
    _ = try PlanLoader.load(yaml: yaml, file: "values.yaml")
  }

  /// Names YAML would misread (keywords, numbers, quotes, colons, control characters) are quoted,
  /// and the draft still loads with the same names.
  func testHostileNamesAreQuotedAndTheDraftLoads() throws {
    let names = ["true", "123", "a: b", "say \"hi\"", "line\nbreak", "#hash", "null", "ünïcode"]
    let records = names.enumerated().map { index, name in
      record(
        UInt64(index + 1), .event, name, [name: .string("v")], outputs: [sent("firebase", name, [name: 1])])
    }
    let yaml = try infer(try write("hostile.jsonl", records))
    let plan = try PlanLoader.load(yaml: yaml, file: "hostile.yaml")
    let report = try ValidateRunner.validate(plan: plan, recordings: [try write("again.jsonl", records)])
    XCTAssertEqual(report.violations.filter { $0.rule != .providerRule }.count, 0, yaml)
    XCTAssertEqual(report.coverage.items.filter { $0.provider == nil }.count, names.count, yaml)
  }
}
