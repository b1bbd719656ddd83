import AnalyticsHub
import Foundation
import TagscopeInspector
import TagscopeRecording
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

/// `validate --format html` tallies the violations as they are found (``HTMLTally``), keeping the
/// groups it shows and only a count of the others: the bytes must be those of the report rendered
/// from a run that kept them all.
final class StreamedHTMLReportTests: StreamedReportTestCase {
  /// The tallied report's bytes and outcome beside the report rendered whole.
  @discardableResult
  private func compare(
    _ recordings: [String], bySource: Bool = false, failOn: Severity = .error,
    failOnUnreadable: Bool = false, file: StaticString = #filePath, line: UInt = #line
  ) throws -> ValidateRunner.Outcome {
    let (whole, _) = try compareTallied(
      recordings, format: .html, bySource: bySource, failOn: failOn, failOnUnreadable: failOnUnreadable,
      file: file, line: line
    ) {
      ValidateRunner.runHTML(
        plan: $0, recordings: $1, failOn: $2, failOnUnreadable: $3, bySource: $4, generated: $5)
    }
    XCTAssertTrue(whole.output.hasPrefix("<!DOCTYPE html>"), file: file, line: line)
    if let report = whole.report {
      XCTAssertEqual(
        whole.output, LegacyHTMLReport.render(report, failOn: failOn), "today's page", file: file, line: line)
    }
    return whole
  }

  /// playPodcast on podcasts whose `podcast_duration` is below the plan's minimum, its title
  /// `title`, and its firebase call named `call`.
  private func brokenPlay(_ seq: UInt64, title: String = "T", call: String = "play_podcast_from_podcasts")
    -> Record
  {
    var play = goodPlay(seq, screen: "podcasts")
    play.properties["podcast_duration"] = -1
    play.properties["podcast_title"] = .string(title)
    play.outputs[0] = sent("firebase", call, ["podcast_title": .string(title), "podcast_duration": -1])
    return play
  }

  /// The demo's journeys in three recordings (an unreadable line, a hostile source, `seq`
  /// restarting and going backwards), with and without sources, failing on error and on warning.
  func testTheTalliedPageIsTheWholePageOnAVariedRun() throws {
    let (first, second) = try variedRecordings(
      hostileTag: "\u{1B}[31mred\u{2028}\u{202E}\"<b>", hostileSource: "phone <script>")
    let backwards = try writeRecording(
      [3, 3, 1, 2].map { brokenPlay($0, title: "title \($0)") }, named: "backwards.jsonl", in: directory)
    for bySource in [false, true] {
      for failOn in [Severity.error, .warning] {
        let whole = try compare(
          [first, second, backwards], bySource: bySource, failOn: failOn, failOnUnreadable: bySource)
        XCTAssertGreaterThan(whole.report?.violations.count ?? 0, 100, "a run with many violations")
        XCTAssertTrue(whole.output.contains("<table class=\"comparison\">"), "expected vs got")
      }
    }
    let clean = try writeRecording([goodPlay(1), goodPlay(2)], named: "clean.jsonl", in: directory)
    XCTAssertTrue(try compare([clean]).output.contains("<p>None.</p>"))
  }

  /// Hundreds of groups per rule, most seen once, some many times: the groups past the shown ones
  /// are only counted.
  func testGroupsPastTheShownOnesAreCounted() throws {
    var records: [Record] = []
    for seq in 1...3_000 {
      switch seq % 3 {
      case 0:
        let name = seq % 6 == 0 ? "unplanned_\(seq % 40)" : "unplanned_once_\(seq)"
        records.append(record(UInt64(seq), .userAction, name, screen: "podcasts"))
      case 1: records.append(brokenPlay(UInt64(seq), call: "wrong_\(seq % 300)"))
      default:
        records.append(record(UInt64(seq), .event, "playerDidFail", ["error": .string("e\(seq % 90)")]))
      }
    }
    let file = try writeRecording(records, named: "many.jsonl", in: directory)
    for failOn in [Severity.error, .warning] {
      let whole = try compare([file], failOn: failOn)
      XCTAssertTrue(whole.output.contains("more groups</p>"), "groups past the shown ones")
    }
  }

  /// Two recordings that both have a `seq` 5, about the same call with other values: each
  /// record's comparison is its own (before, tables were merged by `seq`, so the second record's
  /// showed the first's rows too, headed by the first's plan line); standard input is read once
  /// and gives the same page.
  func testRecordsOfTwoRecordingsSharingASeqKeepTheirOwnComparisons() throws {
    let first = try writeRecording([brokenPlay(2), brokenPlay(5)], named: "a.jsonl", in: directory)
    let title = String(repeating: "long title ", count: 4)
    var late = brokenPlay(5, title: title)
    late.properties["podcast_duration"] = -7
    late.outputs[0] = sent(
      "firebase", "play_podcast_from_podcasts", ["podcast_title": .string(title), "podcast_duration": -7])
    let second = try writeRecording([brokenPlay(9), late], named: "b.jsonl", in: directory)
    let whole = try compare([first, second])
    let report = try XCTUnwrap(whole.report)
    let tally = HTMLTally(report)
    let groups = tally.shown.values.flatMap { $0 }
    let fromLate = groups.filter {
      $0.occurrences[0].site?.file == second && $0.occurrences[0].violation.seq == 5
    }
    XCTAssertFalse(fromLate.isEmpty, "a group first seen in the second recording's seq 5")
    for group in fromLate {
      XCTAssertFalse(
        group.comparison.rows.contains { $0.actual == "-1" },
        "the first recording's seq 5 in \(group.comparison.rows)")
      XCTAssertTrue(group.comparison.rows.contains { $0.actual == "-7" }, "\(group.comparison.rows)")
    }
    let tables = Set(groups.compactMap(\.table))
    XCTAssertEqual(Set(tables.map(\.record)).count, 2, "seq 2 of a.jsonl and seq 5 of b.jsonl: \(tables)")
    // Standard input: read once, the same page but for its name.
    let plan = try samplePlan()
    let input = Glibc.open(second, O_RDONLY)
    XCTAssertGreaterThanOrEqual(input, 0)
    let saved = dup(0)
    XCTAssertEqual(dup2(input, 0), 0)
    close(input)
    let piped = ValidateRunner.runHTML(
      plan: plan, recordings: [first, "-"], failOn: .error, failOnUnreadable: false, bySource: false,
      generated: generated)
    dup2(saved, 0)
    close(saved)
    // A where cell names the file folder by folder (`/<wbr>`), then `name:line` in one span.
    func place(_ file: String) -> String {
      let site = RecordSite(file: file, line: 0, seq: 0, timeMilliseconds: 0, source: nil, firstViolation: 0)
      return String(HTMLReport.place(site).dropLast("0</span>".count))
    }
    XCTAssertEqual(
      piped.output,
      whole.output.replacingOccurrences(of: place(second), with: place("-")).replacingOccurrences(
        of: second, with: "-"))
    XCTAssertEqual(piped.exitCode, whole.exitCode)
  }

  /// However many violations are added, the tally keeps at most ``HTMLReport/groupsPerRule``
  /// groups per rule and ``HTMLReport/occurrencesPerGroup`` violations per group.
  func testTheTallyKeepsTheShownGroupsOnly() throws {
    let plan = try samplePlan()
    var records: [Record] = []
    for seq in 1...2_000 {
      records.append(brokenPlay(UInt64(seq), call: "wrong_\(seq % 100)"))
      records.append(record(UInt64(seq), .userAction, "unplanned_\(seq)", screen: "podcasts"))
    }
    let (violations, _) = validate(records, plan: plan)
    var tally = HTMLTally()
    for violation in violations { tally.add(violation, at: nil) }
    XCTAssertEqual(tally.total, violations.count)
    XCTAssertEqual(tally.totals.values.reduce(0, +), violations.count)
    XCTAssertEqual(tally.hidden[.unplannedTag], 2_000 - HTMLReport.groupsPerRule)
    for (_, groups) in tally.shown {
      XCTAssertLessThanOrEqual(groups.count, HTMLReport.groupsPerRule)
      for group in groups {
        XCTAssertEqual(group.occurrences.count, min(group.count, HTMLReport.occurrencesPerGroup))
      }
    }
  }

  /// The hidden groups' keys: exact, however many and however alike.
  func testTheCompactKeySetCountsDistinctKeysExactly() {
    var set = CompactKeySet()
    var reference = Set<[UInt8]>()
    for index in 0..<20_000 {
      let key = Array("tag_\(index % 7_000)".utf8) + (index % 3 == 0 ? [0xFF] : [])
      XCTAssertEqual(set.insertKey { $0.append(contentsOf: key) }, reference.insert(key).inserted)
    }
    XCTAssertTrue(set.insertKey { _ in })
    XCTAssertFalse(set.insertKey { _ in }, "the empty key once")
    XCTAssertEqual(set.count, reference.count + 1)
  }
}
