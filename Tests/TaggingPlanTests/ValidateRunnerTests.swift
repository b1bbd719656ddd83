import AnalyticsHub
import Foundation
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

final class ValidateRunnerTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "plan-runner-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private func write(_ name: String, _ text: String) throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  private func recording(_ records: [Record], trailer: String = "") -> String {
    let header = RecordingHeader(app: "Podcasts", device: "test")
    return ([RecordLineEncoder.line(header)] + records.map(RecordLineEncoder.line)).joined(separator: "\n")
      + "\n"
      + trailer
  }

  /// Identical records share their violations' detail, whose JSON the report writes once and
  /// copies: each violation still reads exactly as written on its own (its seq, line and time;
  /// line separators escaped).
  func testRepeatedViolationsReadAsEachWrittenOnItsOwn() throws {
    let plan = try write("plan.yaml", samplePlanYAML)
    var records: [Record] = []
    for seq in 1...6 {
      var wrong = goodPlay(UInt64(seq), screen: seq % 2 == 0 ? "favorites" : "podcasts\u{2028}x")
      wrong.outputs[0] = sent("firebase", "play_podcast_wrong", ["podcast_title": "T\u{2029}"])
      wrong.timeMilliseconds += Int64(seq) * 1000
      records.append(wrong)
    }
    let file = try write("repeated.jsonl", recording(records))
    let report = try ValidateRunner.validate(plan: try PlanLoader.load(contentsOf: plan), recordings: [file])
    XCTAssertEqual(report.violations.count, 6)
    XCTAssertTrue(report.violations[0].sharesDetail(with: report.violations[2]), "records 1 and 3 are alike")
    let text = JSONReport.render(report)
    XCTAssertFalse(text.contains("\u{2028}"), "line separators are escaped in copied parts too")
    let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let written = try XCTUnwrap(object["violations"] as? [[String: Any]])
    let places = report.violations.indices.map { index in
      report.site(ofViolationAt: index).map(JSONReport.Place.init)
    }
    let alone = try XCTUnwrap(
      JSONSerialization.jsonObject(
        with: Data(JSONReport.violationsArray(report.violations, places: places).utf8)) as? [[String: Any]])
    XCTAssertEqual(written.count, alone.count)
    for (index, (copied, single)) in zip(written, alone).enumerated() {
      XCTAssertEqual(copied as NSDictionary, single as NSDictionary, "violation \(index)")
    }
    XCTAssertEqual(Set(written.compactMap { $0["line"] as? Int }).count, 6, "each record's own line")
  }

  /// Names, sources and file names that try to drive the terminal (title, clear screen, C1 CSI,
  /// right-to-left override) reach the text report and standard error as visible escapes.
  func testHostileNamesReachTheTextReportAndDiagnosticsAsVisibleEscapes() throws {
    let plan = try write(
      "plan\u{1B}[2J.yaml", "plan: \"P\\e]0;title\\a\"\nunplanned: warning\nactions:\n  \"play\\u202E\": {}\n"
    )
    var evil = goodPlay(1)
    evil.name = "evil\u{1B}[2J\u{9B}31m"
    evil.source = "Podcasts@\u{1B}]0;owned\u{07}"
    let file = try write(
      "rec\u{1B}]0;x\u{07}.jsonl", recording([evil], trailer: "{\"seq\": \"\u{1B}[2J\u{202E}\n"))
    let outcome = ValidateRunner.run(
      planPath: plan, recordings: [file], format: .text, failOn: .error, bySource: true)
    XCTAssertNotNil(outcome.report, outcome.diagnostics)
    XCTAssertTrue(outcome.output.contains("evil\\e[2J<U+009B>31m"), outcome.output)
    XCTAssertTrue(outcome.output.hasPrefix("plan P\\e]0;title\\x07"), outcome.output)
    // The diagnostics go to standard error through the same sanitizer, line by line.
    let diagnostics = TerminalText.sanitizeLines(outcome.diagnostics)
    XCTAssertTrue(outcome.diagnostics.contains("\u{1B}"), "the hostile file name is in the diagnostics")
    XCTAssertEqual(
      diagnostics.split(separator: "\n", omittingEmptySubsequences: false).count,
      outcome.diagnostics.split(separator: "\n", omittingEmptySubsequences: false).count)
    for text in [outcome.output, diagnostics] {
      let unsafe: [UInt32] = text.unicodeScalars.map(\.value).filter(Self.isTerminalControl)
      XCTAssertEqual(unsafe, [], text)
    }
  }

  private static func isTerminalControl(_ value: UInt32) -> Bool {
    value == 0x1B || value == 0x07 || (0x80..<0xA0).contains(value) || value == 0x202E
  }

  func testCleanRecordingExitsZero() throws {
    let plan = try write("plan.yaml", samplePlanYAML)
    let file = try write("clean.jsonl", recording([goodPlay(1), goodPlay(2, screen: "podcasts")]))
    let outcome = ValidateRunner.run(planPath: plan, recordings: [file], format: .text, failOn: .error)
    XCTAssertEqual(outcome.exitCode, 0, outcome.diagnostics)
    XCTAssertEqual(outcome.diagnostics, "")
    XCTAssertTrue(outcome.output.hasPrefix("plan Podcasts v3 · 2 records · 0 errors, 0 warnings · "))
  }

  /// Issue 12: `--by-source` reports each device's own coverage, so QA sees which device has not
  /// yet covered what; records without a source count by their file.
  func testBySourceGivesEachDeviceItsOwnCoverage() throws {
    let plan = try write("plan.yaml", samplePlanYAML)
    var phoneA = goodPlay(1, screen: "podcasts")
    phoneA.source = "Podcasts@phone-a"
    var phoneB = goodPlay(1, screen: "favorites")
    phoneB.source = "Podcasts@phone-b"
    var brokenB = goodPlay(2, screen: "downloads")
    brokenB.source = "Podcasts@phone-b"
    let listen = try write("listen.jsonl", recording([phoneA, phoneB, brokenB]))
    let inApp = try write("in-app.jsonl", recording([goodPlay(7, screen: "podcasts")]))
    let outcome = ValidateRunner.run(
      planPath: plan, recordings: [listen, inApp], format: .text, failOn: .error, bySource: true)
    let bySource = try XCTUnwrap(outcome.report?.coverageBySource)
    XCTAssertEqual(bySource.map(\.source), ["Podcasts@phone-a", "Podcasts@phone-b", "(\(inApp))"])
    let podcastsItem = "action playPodcast on podcasts: firebase"
    let favoritesItem = "action playPodcast on favorites: firebase"
    func state(_ source: Int, _ id: String) -> CoverageState.Kind? {
      let own = bySource[source].coverage
      return own.items.firstIndex { $0.id == id }.map { own.state(at: $0).kind }
    }
    XCTAssertEqual(state(0, podcastsItem), .passed)
    XCTAssertEqual(state(0, favoritesItem), .notSeen, "phone-a never played from favorites")
    XCTAssertEqual(state(1, favoritesItem), .passed)
    XCTAssertEqual(state(1, podcastsItem), .notSeen)
    XCTAssertEqual(state(2, podcastsItem), .passed)
    XCTAssertTrue(outcome.output.contains("coverage by source"), outcome.output)
    XCTAssertTrue(outcome.output.contains("  Podcasts@phone-a: "), outcome.output)
    XCTAssertTrue(
      outcome.output.contains("    · not seen · \(favoritesItem)"),
      "what phone-a has not yet passed:\n\(outcome.output)")
    let json = ValidateRunner.run(
      planPath: plan, recordings: [listen, inApp], format: .json, failOn: .error, bySource: true)
    let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
    let sources = try XCTUnwrap(object["coverageBySource"] as? [[String: Any]])
    XCTAssertEqual(
      sources.map { $0["source"] as? String }, ["Podcasts@phone-a", "Podcasts@phone-b", "(\(inApp))"])
    XCTAssertEqual((sources[1]["states"] as? [String: String])?[favoritesItem], "passed")
    // A source's failing items say how many of its records broke them, as every report does.
    let phoneBFailures = try XCTUnwrap(sources[1]["failures"] as? [String: [String: Any]])
    XCTAssertEqual(
      phoneBFailures.mapValues { "\($0["label"] ?? "")" },
      ["action playPodcast": "failing · 1 of 2 broke it (wrong-screen)"], "\(phoneBFailures)")
    XCTAssertEqual((sources[0]["failures"] as? [String: Any])?.count, 0, "phone-a broke nothing")
    // Each violation names its source in the JSON report.
    let violations = try XCTUnwrap(object["violations"] as? [[String: Any]])
    XCTAssertEqual(
      violations.first { $0["rule"] as? String == "wrong-screen" }?["source"] as? String, "Podcasts@phone-b")
    // The text and JUnit reports name the device of each violation too.
    XCTAssertTrue(outcome.output.contains("listen.jsonl:4 from Podcasts@phone-b #2"), outcome.output)
    let junit = ValidateRunner.run(planPath: plan, recordings: [listen], format: .junit, failOn: .error)
    XCTAssertTrue(junit.output.contains("listen.jsonl:4 from Podcasts@phone-b"), junit.output)
    // Without the flag, no per-source coverage.
    let plain = ValidateRunner.run(planPath: plan, recordings: [listen], format: .json, failOn: .error)
    XCTAssertNil(plain.report?.coverageBySource)
    XCTAssertFalse(plain.output.contains("coverageBySource"))
  }

  func testViolationsExitOneAndWarningsOnlyWithFailOnWarning() throws {
    let plan = try write("plan.yaml", samplePlanYAML)
    let warning = record(3, .event, "playerDidFail", ["error": "timeout"], screen: "podcastPlayer")
    let warned = try write("warned.jsonl", recording([goodPlay(1), warning]))
    XCTAssertEqual(
      ValidateRunner.run(planPath: plan, recordings: [warned], format: .json, failOn: .error).exitCode, 0)
    XCTAssertEqual(
      ValidateRunner.run(planPath: plan, recordings: [warned], format: .json, failOn: .warning).exitCode, 1)
    let broken = try write("broken.jsonl", recording([goodPlay(4, screen: "downloads")]))
    let outcome = ValidateRunner.run(
      planPath: plan, recordings: [warned, broken], format: .json, failOn: .error)
    XCTAssertEqual(outcome.exitCode, 1)
    XCTAssertEqual(outcome.report?.records, 3)
    XCTAssertEqual(outcome.report?.violations.map(\.rule), [.invalidValue, .wrongScreen])
    XCTAssertTrue(outcome.output.contains("\"records\":3,\"files\":["), outcome.output)
    XCTAssertTrue(outcome.output.contains("\"problems\":[],\"sequence\":"))
  }

  func testMultiFileRunsNameTheFileAndLineOfEveryViolation() throws {
    let plan = try write("plan.yaml", samplePlanYAML)
    var wrong = goodPlay(2, screen: "favorites")
    wrong.outputs[0] = sent(
      "firebase", "play_podcast_from_podcasts", ["podcast_title": "T", "podcast_duration": 1])
    let first = try write("first.jsonl", recording([goodPlay(1), wrong, wrong]))
    var unplanned = record(5, .userAction, "nope")
    unplanned.source = "iPhone <1>"
    let second = try write("second.jsonl", recording([goodPlay(4), unplanned]))
    let outcome = ValidateRunner.run(
      planPath: plan, recordings: [first, second], format: .json, failOn: .error)
    XCTAssertEqual(outcome.exitCode, 1)
    let json = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
    let violations = try XCTUnwrap(json["violations"] as? [[String: Any]])
    XCTAssertEqual(violations.count, 3)
    XCTAssertEqual(violations.map { $0["file"] as? String }, [first, first, second])
    XCTAssertEqual(violations.map { $0["line"] as? Int }, [3, 4, 3])
    XCTAssertEqual(violations.map { $0["seq"] as? Int }, [2, 2, 5])
    XCTAssertEqual(violations[0]["time"] as? String, ISO8601Timestamp.string(milliseconds: 1_800_000_000_000))
    XCTAssertTrue(violations[0]["source"] is NSNull)
    XCTAssertEqual(violations[2]["source"] as? String, "iPhone <1>")
    XCTAssertEqual(violations[0]["planLine"] as? Int, 21)
    XCTAssertEqual(violations[0]["planFile"] as? String, plan)
    let expected = try XCTUnwrap(violations[0]["expected"] as? [String: Any])
    XCTAssertEqual(expected["provider"] as? String, "firebase")
    let call = try XCTUnwrap(expected["call"] as? [String: Any])
    XCTAssertEqual(call["name"] as? String, "play_podcast_from_favorites")
    XCTAssertEqual((call["params"] as? [String: Any])?.keys.sorted(), ["podcast_duration", "podcast_title"])
    let actual = try XCTUnwrap(violations[0]["actual"] as? [String: Any])
    XCTAssertEqual(actual["status"] as? String, "sent")
    let calls = try XCTUnwrap(actual["calls"] as? [[String: Any]])
    XCTAssertEqual(calls.first?["name"] as? String, "play_podcast_from_podcasts")
    XCTAssertEqual((calls.first?["parameters"] as? [String: Any])?["podcast_duration"] as? Int, 1)
    XCTAssertTrue(violations[2]["expected"] is NSNull)
    XCTAssertEqual((violations[2]["actual"] as? [String: Any])?["name"] as? String, "nope")
    XCTAssertEqual(json["files"] as? [String], [first, second])
    let sources = try XCTUnwrap(json["sources"] as? [[String: Any]])
    XCTAssertEqual(sources.count, 2)
    XCTAssertTrue(sources[0]["source"] is NSNull)
    XCTAssertEqual(sources[0]["records"] as? Int, 4)
    XCTAssertEqual(sources[0]["violations"] as? Int, 2)
    XCTAssertEqual(sources[1]["source"] as? String, "iPhone <1>")
    XCTAssertEqual(sources[1]["violations"] as? Int, 1)
    let coverage = try XCTUnwrap(json["coverage"] as? [String: Any])
    let items = try XCTUnwrap(coverage["items"] as? [[String: Any]])
    let favorites = try XCTUnwrap(
      items.first { $0["id"] as? String == "action playPodcast on favorites: firebase" })
    XCTAssertEqual(favorites["state"] as? String, "failing", "2 of its 4 records broke it")
    XCTAssertEqual(favorites["records"] as? Int, 4)
    XCTAssertEqual(favorites["failures"] as? Int, 2)
    XCTAssertEqual(favorites["label"] as? String, "failing · 2 of 4 broke it (wrong-name)")
    XCTAssertEqual(favorites["planLine"] as? Int, 21)
    XCTAssertEqual(items.first { $0["id"] as? String == "state autoPlay" }?["state"] as? String, "not-seen")
    XCTAssertEqual(coverage["notSeen"] as? Int, items.filter { $0["state"] as? String == "not-seen" }.count)

    let text = ValidateRunner.run(planPath: plan, recordings: [first, second], format: .text, failOn: .error)
    XCTAssertTrue(
      text.output.contains(
        "    \(first):3 #2 playPodcast on favorites: firebase got play_podcast_from_podcasts, plan line 21"),
      text.output)
    XCTAssertTrue(
      text.output.contains("    \(second):3 from iPhone <1> #5 nope: action nope is not in the plan"),
      text.output)
    let site = try XCTUnwrap(text.report?.site(ofViolationAt: 1))
    XCTAssertEqual(site.line, 4)
    XCTAssertNil(text.report?.site(ofViolationAt: -1))
  }

  func testBadLinesAreReportedWithLineNumbersAndSkipped() throws {
    let plan = try write("plan.yaml", samplePlanYAML)
    let text =
      recording([goodPlay(1)]) + "{not json\n" + RecordLineEncoder.line(goodPlay(2)) + "\n{\"seq\":3,\"ti"
    let file = try write("bad-lines.jsonl", text)
    let outcome = ValidateRunner.run(planPath: plan, recordings: [file], format: .text, failOn: .error)
    XCTAssertEqual(outcome.exitCode, 0)
    XCTAssertEqual(outcome.report?.records, 2)
    let lines = outcome.diagnostics.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 2)
    XCTAssertTrue(lines[0].hasPrefix("\(file):3: invalid JSON"), lines[0])
    XCTAssertTrue(lines[1].hasPrefix("\(file):5: truncated last line"), lines[1])
    XCTAssertTrue(outcome.output.contains("unreadable lines (2, skipped)"))
  }

  func testUnreadableLinesAreInEveryReportAndFailWhenAsked() throws {
    let plan = try write("plan.yaml", samplePlanYAML)
    let file = try write(
      "bad.jsonl", recording([goodPlay(1)]) + "{not json\n" + RecordLineEncoder.line(goodPlay(2)) + "\n")
    let json = ValidateRunner.run(planPath: plan, recordings: [file], format: .json, failOn: .error)
    XCTAssertEqual(json.exitCode, 0, "skipped lines alone do not fail by default")
    guard case .object(let object) = try JSONParser.parse(json.output),
      case .array(let problems)? = object["problems"], case .object(let problem)? = problems.first
    else { return XCTFail(json.output) }
    XCTAssertEqual(problems.count, 1)
    XCTAssertEqual(problem["file"], .string(file))
    XCTAssertEqual(problem["line"], .int(3))
    if case .string(let reason)? = problem["reason"] {
      XCTAssertTrue(reason.hasPrefix("invalid JSON"), reason)
    } else {
      XCTFail("\(problem)")
    }
    let junit = ValidateRunner.run(planPath: plan, recordings: [file], format: .junit, failOn: .error)
    XCTAssertTrue(junit.output.contains("errors=\"1\""), junit.output)
    XCTAssertTrue(
      junit.output.contains("name=\"\(file):3\" file=\"\(file)\" line=\"3\"><error type=\"unreadableLine\""),
      junit.output)
    let strict = ValidateRunner.run(
      planPath: plan, recordings: [file], format: .text, failOn: .error, failOnUnreadable: true)
    XCTAssertEqual(strict.exitCode, 1)
    let clean = try write("clean.jsonl", recording([goodPlay(1)]))
    XCTAssertEqual(
      ValidateRunner.run(
        planPath: plan, recordings: [clean], format: .text, failOn: .error, failOnUnreadable: true
      )
      .exitCode, 0)
  }

  func testANewerVersionIsReadWithAWarningAndVersionZeroIsRefused() throws {
    let plan = try write("plan.yaml", samplePlanYAML)
    let current = recording([goodPlay(1)])
    let newer = try write(
      "v999.jsonl", current.replacingOccurrences(of: "\"version\":1", with: "\"version\":999"))
    let read = ValidateRunner.run(planPath: plan, recordings: [newer], format: .text, failOn: .error)
    XCTAssertEqual(read.exitCode, 0)
    XCTAssertEqual(read.report?.records, 1)
    XCTAssertTrue(
      read.diagnostics.contains(
        "\(newer): warning: format version 999 is newer than this tagscope reads (1)"),
      read.diagnostics)
    let clean = ValidateRunner.run(
      planPath: plan, recordings: [try write("v1.jsonl", current)], format: .text, failOn: .error)
    XCTAssertFalse(clean.diagnostics.contains("warning"), clean.diagnostics)
    let zero = try write("v0.jsonl", current.replacingOccurrences(of: "\"version\":1", with: "\"version\":0"))
    let refused = ValidateRunner.run(planPath: plan, recordings: [zero], format: .text, failOn: .error)
    XCTAssertEqual(refused.exitCode, 2)
    XCTAssertTrue(refused.diagnostics.contains("version 0 is not a recording version"), refused.diagnostics)
  }

  func testSeqGoingBackwardsOrRepeatingIsReportedAndEveryRecordIsValidatedInFileOrder() throws {
    let plan = try write("plan.yaml", samplePlanYAML)
    // Lines 2-6: seq 1…5; lines 7 and 8 repeat 5 and 3; then 20 descending from 100 (line 9 jumps
    // forward, lines 10-28 go backwards); then a repeat from another source.
    var seqs: [UInt64] = [1, 2, 3, 4, 5, 5, 3]
    seqs += (81...100).reversed()
    var records = seqs.map { goodPlay($0) }
    var sourced = goodPlay(1)
    sourced.source = "phone\u{1B}]0;x"
    records += [sourced, sourced]
    let file = try write("spliced.jsonl", recording(records))
    let text = ValidateRunner.run(planPath: plan, recordings: [file], format: .text, failOn: .error)
    XCTAssertEqual(text.exitCode, 0, "an out-of-order seq is reported, not a failure")
    XCTAssertEqual(text.report?.records, records.count, "every record is validated")
    XCTAssertEqual(text.report?.sequence.repeated, 3)
    XCTAssertEqual(text.report?.sequence.backwards, 19)
    let diagnostics = text.diagnostics.split(separator: "\n")
    XCTAssertEqual(diagnostics.first, "\(file):7: seq 5 repeats an earlier record's (kept in file order)")
    XCTAssertEqual(diagnostics[1], "\(file):8: seq 3 repeats an earlier record's (kept in file order)")
    XCTAssertEqual(diagnostics.count, 11, text.diagnostics)
    XCTAssertEqual(
      diagnostics.last,
      "\(file): warning: 12 more records whose seq repeats, goes backwards or starts again (3 repeated, 19 backwards, "
        + "0 restarts in all)"
    )
    XCTAssertTrue(
      text.output.contains(
        "seq out of order (3 repeated, 19 backwards, 0 restarts; records checked in file order)"),
      text.output)
    XCTAssertEqual(
      text.report?.sequenceAnomalies.last?.description,
      "\(file):30: seq 1 repeats an earlier record's (source phone\\e]0;x)",
      "untrusted source names are sanitized")
    let json = ValidateRunner.run(planPath: plan, recordings: [file], format: .json, failOn: .error)
    XCTAssertTrue(
      json.output.contains(
        "\"sequence\":{\"repeated\":3,\"backwards\":19,\"restarts\":0,\"jumped\":0,\"anomalies\":[{\"file\":\"\(file)\",\"line\":7,"
      ),
      json.output)
    let parsed = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
    let sequence = parsed?["sequence"] as? [String: Any]
    XCTAssertEqual((sequence?["anomalies"] as? [Any])?.count, 22)
    let clean = ValidateRunner.run(
      planPath: plan, recordings: [try write("clean.jsonl", recording([goodPlay(1), goodPlay(2)]))],
      format: .json, failOn: .error)
    XCTAssertTrue(
      clean.output.contains(
        "\"sequence\":{\"repeated\":0,\"backwards\":0,\"restarts\":0,\"jumped\":0,\"anomalies\":[]}"))
    XCTAssertFalse(TextReport.render(clean.report!).contains("seq out of order"))
  }

  func testEndlessInputWithoutNewlinesEndsWithAClearError() throws {
    let plan = try write("plan.yaml", samplePlanYAML)
    let start = Date()
    let zero = ValidateRunner.run(planPath: plan, recordings: ["/dev/zero"], format: .text, failOn: .error)
    XCTAssertEqual(zero.exitCode, 2)
    XCTAssertTrue(
      zero.diagnostics.contains("the first line is not a header (over 64 MiB long)"), zero.diagnostics)
    XCTAssertLessThan(Date().timeIntervalSince(start), 60, "it used to spin forever")
  }

  func testDeeplyNestedLineIsAClearErrorAndTheRestIsValidated() throws {
    let plan = try write("plan.yaml", samplePlanYAML)
    let deep = String(repeating: "[", count: 100_000)
    let text = recording([goodPlay(1)]) + deep + "\n" + RecordLineEncoder.line(goodPlay(2)) + "\n"
    let file = try write("deep.jsonl", text)
    let outcome = ValidateRunner.run(planPath: plan, recordings: [file], format: .text, failOn: .error)
    XCTAssertEqual(outcome.exitCode, 0)
    XCTAssertEqual(outcome.report?.records, 2)
    XCTAssertTrue(
      outcome.diagnostics.hasPrefix("\(file):3: invalid JSON: nesting deeper than 256 levels"),
      outcome.diagnostics)
  }

  func testOverlongLineIsReportedAndSkippedInBoundedMemory() throws {
    let plan = try write("plan.yaml", samplePlanYAML)
    let overlong = "{\"seq\":9,\"x\":\"" + String(repeating: "x", count: 65 << 20) + "\"}"
    let text = recording([goodPlay(1)]) + overlong + "\n" + RecordLineEncoder.line(goodPlay(2)) + "\n"
    let file = try write("overlong.jsonl", text)
    let outcome = ValidateRunner.run(planPath: plan, recordings: [file], format: .text, failOn: .error)
    XCTAssertEqual(outcome.exitCode, 0)
    XCTAssertEqual(outcome.report?.records, 2)
    XCTAssertTrue(outcome.diagnostics.hasPrefix("\(file):3: line of "), outcome.diagnostics)
    XCTAssertTrue(outcome.diagnostics.contains("longer than the 64 MiB limit"), outcome.diagnostics)
  }

  func testBadInputExitsTwo() throws {
    let plan = try write("plan.yaml", samplePlanYAML)
    let good = try write("good.jsonl", recording([goodPlay(1)]))
    let missing = ValidateRunner.run(
      planPath: plan, recordings: [good, directory.path + "/nope.jsonl"], format: .text, failOn: .error)
    XCTAssertEqual(missing.exitCode, 2)
    XCTAssertTrue(missing.diagnostics.contains("nope.jsonl"), missing.diagnostics)
    let garbage = try write("garbage.jsonl", "hello\nworld\n")
    let notRecording = ValidateRunner.run(
      planPath: plan, recordings: [garbage], format: .text, failOn: .error)
    XCTAssertEqual(notRecording.exitCode, 2)
    XCTAssertTrue(
      notRecording.diagnostics.contains("garbage.jsonl: not a tagscope recording"), notRecording.diagnostics)
    let empty = try write("empty.jsonl", "")
    XCTAssertEqual(
      ValidateRunner.run(planPath: plan, recordings: [empty], format: .text, failOn: .error).exitCode, 2)
    let badPlan = try write("bad.yaml", "plan: P\nactions:\n  play: {severity: fatal}\n")
    let planOutcome = ValidateRunner.run(planPath: badPlan, recordings: [good], format: .text, failOn: .error)
    XCTAssertEqual(planOutcome.exitCode, 2)
    XCTAssertEqual(planOutcome.output, "")
    XCTAssertTrue(
      planOutcome.diagnostics.hasPrefix("\(badPlan):3:20: severity of action play must be error or warning"))
    XCTAssertEqual(
      ValidateRunner.run(
        planPath: directory.path + "/none.yaml", recordings: [good], format: .text, failOn: .error
      ).exitCode,
      2)
  }

  func testHeaderOnlyRecordingIsCleanWithNothingCovered() throws {
    let plan = try write("plan.yaml", samplePlanYAML)
    let empty = try write("empty.jsonl", recording([]))
    let outcome = ValidateRunner.run(planPath: plan, recordings: [empty], format: .junit, failOn: .error)
    XCTAssertEqual(outcome.exitCode, 0)
    XCTAssertEqual(outcome.report?.coverage.seenCount, 0)
    XCTAssertTrue(outcome.output.contains("skipped=\"16\""))
  }

  func testRepeatedRecordsTakeTheFastPathWithTheSameResults() throws {
    let plan = try samplePlan()
    var records: [Record] = []
    for seq in 1...3_000 {
      switch seq % 4 {
      case 0: records.append(goodPlay(UInt64(seq), screen: "podcasts"))
      case 1: records.append(goodPlay(UInt64(seq), screen: "downloads"))
      case 2: records.append(record(UInt64(seq), .userAction, "unknown\(seq % 3)"))
      default: records.append(record(UInt64(seq), .event, "playerDidFail", ["error": "x"]))
      }
    }
    let first = try write("part1.jsonl", recording(Array(records[..<1_700])))
    let second = try write("part2.jsonl", recording(Array(records[1_700...])))
    let report = try ValidateRunner.validate(plan: plan, recordings: [first, second])
    let (expected, validator) = validate(records, plan: plan)
    XCTAssertEqual(report.records, 3_000)
    XCTAssertEqual(report.violations, expected)
    XCTAssertEqual(report.coverage, validator.coverage)
  }
}
