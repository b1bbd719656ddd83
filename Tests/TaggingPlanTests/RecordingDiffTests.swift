import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import TaggingPlan
import TaggingPlanReports
import TagscopeDiff
import TagscopeRecording
import XCTest

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Issue 15: `tagscope diff BASE NEW` — what a build changed in the tags, whatever the timing.
final class RecordingDiffTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("diff-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private func write(_ name: String, _ records: [Record], trailer: String = "") throws -> String {
    try writeRecording(records, named: name, in: directory, trailer: trailer)
  }

  private func screen(_ seq: UInt64, _ name: String) -> Record {
    record(
      seq, .screen, name, screen: name,
      outputs: [sent("firebase", "screen_view", ["screen_name": .string(name)])])
  }

  /// The last release's journey: two screens, a play on favorites, a settings tap.
  private func baseJourney() -> [Record] {
    var records: [Record] = []
    for round in 0..<3 {
      let seq = UInt64(round * 10)
      records.append(screen(seq + 1, "podcasts"))
      records.append(screen(seq + 2, "favorites"))
      records.append(goodPlay(seq + 3))
      records.append(
        record(
          seq + 4, .userAction, "openSettings", ["origin": "menu"], screen: "favorites",
          outputs: [sent("firebase", "open_settings"), sent("amplitude", "Open Settings", method: "track")]))
    }
    return records
  }

  /// The same journey shuffled, with other `seq`s and times: nothing changed.
  func testSameJourneyInAnotherOrderAndTimingDiffsClean() throws {
    let base = try write("base.jsonl", baseJourney())
    var shuffled = baseJourney().reversed().enumerated().map { index, record in
      var copy = record
      copy.seq = UInt64(100 + index)
      copy.time = Date(timeIntervalSince1970: 1_900_000_000 + Double(index) * 7.5)
      copy.context.history = ["somewhere", copy.context.screen ?? ""]
      return copy
    }
    shuffled.removeLast(4)  // one round fewer: counts differ, signatures do not
    let new = try write("new.jsonl", shuffled)
    let outcome = DiffRunner.run(base: base, new: new, format: .text, failOn: DiffChange.regressions)
    XCTAssertEqual(outcome.exitCode, 0, outcome.output)
    XCTAssertEqual(outcome.report?.diff.findings, [])
    XCTAssertTrue(outcome.output.hasSuffix("no change · no regression\n"), outcome.output)
  }

  /// Every kind of change, each found once, with what it was and what it is.
  func testEveryKindOfChangeIsFound() throws {
    let base = try write("base.jsonl", baseJourney() + [screen(50, "downloads")])
    var new: [Record] = []
    for round in 0..<2 {
      let seq = UInt64(round * 10)
      new.append(screen(seq + 1, "podcasts"))
      new.append(screen(seq + 2, "favorites"))
      // playPodcast: firebase renamed its call and dropped podcast_title; amplitude gets
      // podcast_duration as a string and a new parameter; piano is now blocked; the tag's
      // podcast_duration became a string.
      new.append(
        record(
          seq + 3, .userAction, "playPodcast",
          ["podcast_title": "Swift by Sundell", "podcast_duration": "1830", "podcast_id": "p1"],
          screen: "favorites",
          outputs: [
            sent("firebase", "play_podcast", ["podcast_duration": 1830]),
            sent(
              "amplitude", "Play Podcast",
              [
                "podcast_title": "Swift by Sundell", "podcast_duration": "1830", "podcast_id": "p1",
                "autoplay": false,
              ], method: "track"),
            ProviderOutput(provider: "piano", status: .blocked, reason: "consent"),
          ]))
      // openSettings: amplitude no longer receives it; its origin property is gone; firebase gets
      // it through another SDK method.
      new.append(
        record(
          seq + 4, .userAction, "openSettings", screen: "favorites",
          outputs: [sent("firebase", "open_settings", method: "setUserProperty")]))
      new.append(record(seq + 5, .event, "appRated", ["stars": 5]))
    }
    let outcome = DiffRunner.run(
      base: base, new: try write("new.jsonl", new), format: .json, failOn: DiffChange.regressions)
    XCTAssertEqual(outcome.exitCode, 1)
    let findings = try XCTUnwrap(outcome.report?.diff.findings)
    let described = findings.map { finding in
      [
        finding.change.rawValue, finding.tag.description, finding.provider ?? "-", finding.call ?? "-",
        finding.path ?? "-", finding.base ?? "-", finding.new ?? "-",
      ].joined(separator: " | ")
    }
    XCTAssertEqual(
      described.sorted(),
      [
        "removed | screen downloads | - | - | - | - | -",
        "added | event appRated | - | - | - | - | -",
        "property-type | userAction playPodcast on favorites | - | - | podcast_duration | number | string",
        "param-added | userAction playPodcast on favorites | amplitude | Play Podcast | autoplay | - | bool",
        "param-type | userAction playPodcast on favorites | amplitude | Play Podcast | podcast_duration | number | string",
        "renamed | userAction playPodcast on favorites | firebase | play_podcast | - | play_podcast_from_favorites | play_podcast",
        "param-removed | userAction playPodcast on favorites | firebase | play_podcast | podcast_title | string | -",
        "status | userAction playPodcast on favorites | piano | - | - | dropped 3 | blocked 2",
        "property-removed | userAction openSettings on favorites | - | - | origin | string | -",
        "provider-removed | userAction openSettings on favorites | amplitude | - | - | sent 3 | -",
        "method | userAction openSettings on favorites | firebase | open_settings | - | logEvent | setUserProperty",
      ].sorted(), described.joined(separator: "\n"))
    XCTAssertEqual(described.count, 11)
    let json = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
    XCTAssertEqual(json["regressed"] as? Bool, true)
    XCTAssertEqual((json["changes"] as? [[String: Any]])?.count, 11)
    XCTAssertEqual((json["counts"] as? [String: Int])?["renamed"], 1)
    XCTAssertEqual((json["base"] as? [String: Any])?["records"] as? Int, 13)
    let added = try XCTUnwrap(
      (json["changes"] as? [[String: Any]])?.first { $0["change"] as? String == "added" })
    XCTAssertEqual(added["regression"] as? Bool, false)
    XCTAssertEqual((added["tag"] as? [String: Any])?["screen"] as? NSNull, NSNull())
  }

  /// Additions alone do not fail by default; `--fail-on` decides.
  func testFailOnDecidesTheExitCode() throws {
    let base = try write("base.jsonl", baseJourney())
    let new = try write("new.jsonl", baseJourney() + [record(90, .event, "appRated", ["stars": 5])])
    XCTAssertEqual(
      DiffRunner.run(base: base, new: new, format: .text, failOn: DiffChange.regressions).exitCode, 0)
    let strict = try DiffChange.parseList("added,removed").get()
    XCTAssertEqual(DiffRunner.run(base: base, new: new, format: .text, failOn: strict).exitCode, 1)
    XCTAssertEqual(DiffRunner.run(base: new, new: base, format: .text, failOn: []).exitCode, 0)
    XCTAssertEqual(try DiffChange.parseList("all").get(), Set(DiffChange.allCases))
    guard case .failure(let error) = DiffChange.parseList("removed,renamd") else {
      return XCTFail("an unknown change id is refused")
    }
    XCTAssertTrue(error.description.contains("unknown change 'renamd'"), error.description)
  }

  /// Bad input: a missing file or a non-recording is exit 2 naming it; an unreadable line is
  /// reported with its file and line and the rest is compared.
  func testBadInput() throws {
    let base = try write("base.jsonl", baseJourney())
    let missing = directory.appendingPathComponent("missing.jsonl").path
    let gone = DiffRunner.run(base: base, new: missing, format: .text, failOn: DiffChange.regressions)
    XCTAssertEqual(gone.exitCode, 2)
    XCTAssertTrue(gone.diagnostics.contains("missing.jsonl"), gone.diagnostics)
    let text = directory.appendingPathComponent("notes.txt")
    try Data("hello\n".utf8).write(to: text)
    XCTAssertEqual(DiffRunner.run(base: text.path, new: base, format: .text, failOn: []).exitCode, 2)
    let broken = try write("broken.jsonl", baseJourney(), trailer: "{\"seq\": \"x\"}\n")
    let outcome = DiffRunner.run(base: base, new: broken, format: .text, failOn: DiffChange.regressions)
    XCTAssertEqual(outcome.exitCode, 0, outcome.output)
    XCTAssertTrue(outcome.diagnostics.contains("broken.jsonl:14:"), outcome.diagnostics)
    XCTAssertEqual(outcome.report?.problems.count, 1)
  }

  /// Text, Markdown and JUnit: readable, and untrusted names cannot act on a terminal, break a
  /// Markdown table or the XML.
  func testFormatsStayIntactWithHostileNames() throws {
    let base = try write("base.jsonl", baseJourney())
    let hostile = "evil|name`\u{1B}]0;pwned\u{07}<b>"
    let new = try write("new.jsonl", baseJourney() + [record(90, .userAction, hostile, screen: "a|b")])
    let changes = try DiffChange.parseList("all").get()
    let text = DiffRunner.run(base: base, new: new, format: .text, failOn: changes).output
    XCTAssertFalse(text.contains("\u{1B}"), text)
    XCTAssertTrue(text.contains("✗ added"), text)
    let markdown = DiffRunner.run(base: base, new: new, format: .markdown, failOn: changes).output
    let row = try XCTUnwrap(markdown.split(separator: "\n").first { $0.contains("`added`") })
    XCTAssertEqual(
      row.filter { $0 == "|" }.count - row.components(separatedBy: "\\|").count + 1, 5, String(row))
    XCTAssertTrue(markdown.hasPrefix("### tagscope diff: ❌ REGRESSED: 1 change at --fail-on"), markdown)
    let junit = DiffRunner.run(base: base, new: new, format: .junit, failOn: changes).output
    let parser = XMLParser(data: Data(junit.utf8))
    XCTAssertTrue(parser.parse(), junit)
    XCTAssertTrue(junit.contains("tests=\"5\" failures=\"1\""), junit)
  }

  /// Two demo runs of the same journey (same seed) through the real hub and providers diff clean;
  /// a run of another journey shows what it did differently, every change explained.
  func testDemoRunsOfTheSameJourneyDiffClean() throws {
    let first = try demoRecording("first.jsonl", seed: 3)
    let second = try demoRecording("second.jsonl", seed: 3)
    let same = DiffRunner.run(base: first, new: second, format: .text, failOn: DiffChange.regressions)
    XCTAssertEqual(same.exitCode, 0, same.output)
    XCTAssertEqual(same.report?.diff.findings.count, 0)
    XCTAssertGreaterThan(same.report?.diff.baseTags ?? 0, 20)
  }

  /// The issue's case: two demo runs with other seeds identified other users; the diff reported
  /// each user id as a renamed, removed or added call. Calls named after the user are compared by
  /// method and traits, so no change names an id.
  func testDemoRunsWithOtherSeedsReportNoIdentityAsAChange() throws {
    let first = try demoRecording("first.jsonl", seed: 1, count: 2_000)
    let second = try demoRecording("second.jsonl", seed: 2, count: 2_000)
    let outcome = DiffRunner.run(base: first, new: second, format: .markdown, failOn: DiffChange.regressions)
    let findings = try XCTUnwrap(outcome.report?.diff.findings)
    let named = findings.filter { finding in
      [finding.call, finding.base, finding.new, finding.path].contains {
        $0.map { IdentityShape.isIdShaped($0) || $0.contains("user-") } ?? false
      }
    }
    XCTAssertEqual(named.map(\.message), [], outcome.output)
    XCTAssertFalse(findings.contains { $0.tag.kind == "identify" }, outcome.output)
    let (profile, _) = try ProfileReader.read(path: first)
    let identify = try XCTUnwrap(profile.tags.first { $0.key.kind == "identify" }?.value)
    XCTAssertEqual(identify.providers["piano"]?.calls.keys.sorted(), ["setUser(<id>)"])
    XCTAssertEqual(identify.providers["amplitude"]?.calls.keys.sorted(), ["identify", "setUserId(<id>)"])
    XCTAssertEqual(
      identify.providers["piano"]?.calls["setUser(<id>)"]?.count, identify.providers["piano"]?.count)
  }

  /// `identify` is compared by method and traits: another user is no change, another trait type,
  /// a trait gone or another SDK method is.
  func testIdentifyIsComparedByMethodAndTraits() throws {
    func identify(_ seq: UInt64, user: String, category: PropertyValue, method: String = "setUser") -> Record
    {
      record(
        seq, .identify, "identify", ["plan": "free"], screen: "login",
        outputs: [
          sent("piano", user, ["category": category], method: method),
          sent("segment", user, ["userId": .string(user), "traits": ["plan": "free"]], method: "identify"),
          sent("amplitude", "Logged In", method: "track"),
        ])
    }
    let base = try write(
      "base.jsonl",
      [identify(1, user: "user-1", category: "free"), identify(2, user: "alice", category: "free")])
    let same = try write(
      "same.jsonl",
      [identify(1, user: "user-2", category: "free"), identify(2, user: "bob", category: "premium")])
    XCTAssertEqual(DiffRunner.run(base: base, new: same, format: .text, failOn: []).report?.diff.findings, [])
    let changed = try write("changed.jsonl", [identify(1, user: "user-3", category: 1, method: "setUserID")])
    let findings = try XCTUnwrap(
      DiffRunner.run(base: base, new: changed, format: .text, failOn: []).report?.diff.findings)
    XCTAssertEqual(
      findings.map { "\($0.change.rawValue) \($0.provider ?? "-") \($0.call ?? "-") \($0.path ?? "-")" },
      [
        "renamed piano setUserID(<id>) -", "method piano setUserID(<id>) -",
        "param-type piano setUserID(<id>) category",
      ],
      findings.map(\.message).joined(separator: "\n"))
  }

  private func demoRecording(_ name: String, seed: UInt64, count: Int = 1_500) throws -> String {
    try write(name, try demoRecords(seed: seed, count: count))
  }
}
