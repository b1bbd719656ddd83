import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import TaggingPlan
import TaggingPlanReports
import TagscopeRecording
import XCTest

/// `validate`'s line cache passes a repeated record's journey and consent checks with its
/// content's digest when its device's state allows, and runs them on the record otherwise: the
/// findings and coverage are those of validating every record on its own.
final class SequenceDigestTests: XCTestCase {
  /// The demo's opening tour (a double-fire, a broken funnel) then its simulator (sessions, logins,
  /// consent records), against the demo plan and against it with `default: denied` (every call
  /// before a grant flagged: the digest does not pass them).
  func testTheLineCacheFindsWhatValidatingEachRecordFinds() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sequence-digest-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let records = try Self.tourThenSimulator(steps: 3_000)
    XCTAssertGreaterThan(records.count { $0.kind == .consent }, 10)
    let path = try writeRecording(records, named: "demo.jsonl", in: directory)
    let denied = DemoPlan.yaml.replacingOccurrences(of: "consent:\n", with: "consent:\n  default: denied\n")
    for yaml in [DemoPlan.yaml, denied] {
      let plan = try PlanLoader.load(yaml: yaml, file: "demo-plan.yaml")
      let report = try ValidateRunner.validate(plan: plan, recordings: [path])
      let (expected, validator) = validate(records, plan: plan)
      XCTAssertEqual(report.records, records.count)
      XCTAssertEqual(report.violations.count, expected.count)
      XCTAssertEqual(report.violations, expected)
      XCTAssertEqual(report.coverage.states, validator.coverage.states)
      let rules = Set(report.violations.map(\.rule))
      XCTAssertTrue(rules.isSuperset(of: [.duplicate, .funnelOrder]), "\(rules)")
      if yaml == denied { XCTAssertTrue(rules.contains(.consentWithdrawn), "\(rules)") }
    }
  }

  /// A repeated record that starts another session passes with its digest only when no funnel is
  /// under way on its device: else closing the old session drops the funnel, a finding on this
  /// record, which the line cache must run on the record (here the second `home` screen).
  func testARepeatedRecordStartingASessionDropsTheFunnelUnderWay() throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: S
        screens:
          home:
        actions:
          load:
          play:
        funnels:
          playback:
            steps: [load, play]
        """, file: "s.yaml")
    func record(_ seq: UInt64, _ kind: RecordKind, _ name: String, session: String, user: String? = nil)
      -> Record
    {
      Record(
        seq: seq, time: Date(timeIntervalSince1970: 1_800_000_000 + Double(seq)), kind: kind, name: name,
        properties: [:],
        context: RecordContext(
          screen: "home", history: ["home"],
          session: RecordSession(id: session, state: "unauthenticated", user: user, properties: [:])))
    }
    let records = [
      record(1, .screen, "home", session: "s-1"), record(2, .userAction, "load", session: "s-1"),
      record(3, .screen, "home", session: "s-2"), record(4, .screen, "home", session: "s-3"),
      record(5, .userAction, "load", session: "s-3"), record(6, .userAction, "play", session: "s-3"),
      record(7, .screen, "home", session: "s-3", user: "u-1"), record(8, .screen, "home", session: "s-4"),
    ]
    let expected = try findingsBothWays(records, plan: plan)
    XCTAssertEqual(expected.map(\.rule), [.funnelDropped])
    XCTAssertEqual(expected.map(\.seq), [3])
  }

  /// A repeated session end passes with its digest only when no funnel is under way on its device
  /// (#5, #12, #16: its session's rules start afresh, so `share` again at #13 is no repeat); else
  /// it drops the funnel, a finding the line cache runs on the record (#8; #15 ends another session
  /// than the device's, whose funnel it drops).
  func testARepeatedSessionEndDropsTheFunnelUnderWayAndRestartsTheSession() throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: S
        screens:
          home:
        actions:
          load:
          play:
          share:
            once: session
        funnels:
          playback:
            steps: [load, play]
        """, file: "s.yaml")
    func record(_ seq: UInt64, _ kind: RecordKind, _ name: String, session: String) -> Record {
      Record(
        seq: seq, time: Date(timeIntervalSince1970: 1_800_000_000 + Double(seq)), kind: kind, name: name,
        properties: [:],
        context: RecordContext(
          screen: "home", history: ["home"],
          session: RecordSession(id: session, state: "unauthenticated", properties: [:])))
    }
    func end(_ seq: UInt64, session: String) -> Record {
      record(seq, .sessionEnd, "session_end", session: session)
    }
    let records = [
      record(1, .screen, "home", session: "s-1"), record(2, .userAction, "load", session: "s-1"),
      end(3, session: "s-1"), record(4, .screen, "home", session: "s-2"), end(5, session: "s-2"),
      record(6, .screen, "home", session: "s-3"), record(7, .userAction, "load", session: "s-3"),
      end(8, session: "s-3"), record(9, .userAction, "load", session: "s-4"),
      record(10, .userAction, "play", session: "s-4"), record(11, .userAction, "share", session: "s-4"),
      end(12, session: "s-4"), record(13, .userAction, "share", session: "s-4"),
      record(14, .userAction, "load", session: "s-5"), end(15, session: "s-6"), end(16, session: "s-7"),
    ]
    let expected = try findingsBothWays(records, plan: plan)
    XCTAssertEqual(expected.map(\.rule), [.funnelDropped, .funnelDropped, .funnelDropped])
    XCTAssertEqual(expected.map(\.seq), [3, 8, 15])
  }

  /// A repeated record of a tag whose only journey rule is `duplicateWithin` passes with its digest
  /// when its device has no record of the same properties within the window, and runs on the
  /// record when it has: #2 and #5 duplicate #1 and #4, #7 duplicates #5 in another session; #4 is
  /// past #2's window; the nine distinct `c` sets (#8–#16) are all remembered (up to 1,024 are),
  /// so #17 duplicates #8.
  func testRepeatedRecordsOfADuplicateWindowFindWhatEachRecordFinds() throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: S
        actions:
          fav:
            duplicateWithin: 500ms
        """, file: "s.yaml")
    func record(_ seq: UInt64, _ value: String, at seconds: Double, session: String = "s-1") -> Record {
      Record(
        seq: seq, time: Date(timeIntervalSince1970: 1_800_000_000 + seconds), kind: .userAction, name: "fav",
        properties: ["p": .string(value)],
        context: RecordContext(
          screen: "home", history: ["home"],
          session: RecordSession(id: session, state: "unauthenticated", properties: [:])))
    }
    var records = [
      record(1, "a", at: 0), record(2, "a", at: 0.2), record(3, "b", at: 0.3), record(4, "a", at: 1),
      record(5, "a", at: 1.4), record(6, "b", at: 1.45), record(7, "a", at: 1.8, session: "s-2"),
    ]
    for index in 0..<9 {
      records.append(record(UInt64(8 + index), "c\(index)", at: 2 + 0.01 * Double(index)))
    }
    records.append(record(17, "c0", at: 2.2))
    let expected = try findingsBothWays(records, plan: plan)
    XCTAssertEqual(expected.map(\.rule), [.duplicate, .duplicate, .duplicate, .duplicate])
    XCTAssertEqual(expected.map(\.seq), [2, 5, 7, 17])
  }

  /// Repeated funnel steps in one session move their funnel on from the digest, and run on the
  /// record when they find something: a step over `maxGap` (#6, dropping the attempt), a later
  /// step of the dropped attempt (#7, no finding), step 1 again (#8, another attempt), an earlier
  /// step again (#9, no finding), a step after a gap within `maxGap` (#10, reached), a later step
  /// after it was reached (#11, no finding), and a later step first in another session (#12).
  func testRepeatedFunnelStepsFindWhatEachRecordFinds() throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: S
        actions:
          load:
          play:
        funnels:
          playback:
            steps: [load, play]
            maxGap: 2s
        """, file: "s.yaml")
    func record(_ seq: UInt64, _ name: String, at seconds: Double, session: String = "s-1") -> Record {
      journeyAction(seq, name, at: seconds, session: session)
    }
    let records = [
      record(1, "load", at: 0), record(2, "play", at: 1), record(3, "load", at: 2), record(4, "play", at: 3),
      record(5, "load", at: 4), record(6, "play", at: 9), record(7, "play", at: 10),
      record(8, "load", at: 11),
      record(9, "load", at: 12), record(10, "play", at: 13), record(11, "play", at: 14),
      record(12, "play", at: 15, session: "s-2"),
    ]
    let expected = try findingsBothWays(records, plan: plan)
    XCTAssertEqual(expected.map(\.rule), [.funnelDropped, .funnelOrder])
    XCTAssertEqual(expected.map(\.seq), [6, 12])
  }

  /// A record of a tag without journey rules needs only its digest, and so does a step of funnels
  /// only (the record kept for when its funnels find something), of `duplicateWithin` alone and a
  /// session's end (kept too), and a known consent decision; one of a tag with another rule of its
  /// own needs the record.
  func testTheDigestNeedsTheRecordOnlyForRecordsItCannotJudge() throws {
    let plan = try PlanLoader.load(yaml: DemoPlan.yaml, file: "demo-plan.yaml")
    let records = try Self.tourThenSimulator(steps: 300)
    func digest(_ kind: RecordKind, _ name: String? = nil) throws -> SequenceDigest {
      let record = try XCTUnwrap(records.first { $0.kind == kind && (name == nil || $0.name == name) })
      return SequenceDigest(record, plan: plan)
    }
    func needs(_ kind: RecordKind, _ name: String? = nil) throws -> Bool {
      try digest(kind, name).needsRecord
    }
    XCTAssertFalse(try needs(.userAction, "playPodcast"))
    XCTAssertFalse(try digest(.userAction, "playPodcast").keepsRecord)
    XCTAssertFalse(try needs(.screen))
    XCTAssertFalse(try needs(.event, "playerDidLoad"))
    XCTAssertTrue(try digest(.event, "playerDidLoad").keepsRecord)
    XCTAssertFalse(try needs(.userAction, "addPodcastToFavorite"))
    XCTAssertTrue(try digest(.userAction, "addPodcastToFavorite").keepsRecord)
    XCTAssertFalse(try needs(.sessionEnd))
    XCTAssertTrue(try digest(.sessionEnd).keepsRecord)
    XCTAssertFalse(try needs(.consent))
  }

  /// The demo's opening tour, then `steps` of its simulator, through its real hub and mappings.
  static func tourThenSimulator(steps: Int) throws -> [Record] {
    let clock = ManualClock(start: DemoHub.seededEpoch)
    let hub = try DemoHub.make(providers: PodcastMappings.providers(), clock: clock, seed: 11)
    let recorder = DispatchRecorder()
    hub.addObserver(recorder)
    let simulator = PodcastSimulator(hub: hub, seed: 11, tour: true)
    for _ in 0..<steps { clock.advance(by: simulator.step()) }
    hub.flush()
    return recorder.dispatches.map { Record(dispatch: $0) }
  }
}
