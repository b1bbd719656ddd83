import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeTimeline

/// Issue 12: the state as of a record is its own device's — screens, session, timers, consent and
/// providers folded from that source's records only, with keyframes per source so a seek reads at
/// most a keyframe's worth of that source's records however many devices are interleaved.
final class PerSourceStateTests: XCTestCase {
  /// `count` records round-robin over `devices`; device `d`'s record `n` is on screen `d-s<n/5>`,
  /// and device 1 revokes braze consent at its record 10.
  private func interleaved(devices: Int, count: Int) throws -> Timeline {
    let timeline = try Timeline.live()
    for index in 0..<count {
      let device = index % devices
      let ordinal = index / devices
      let screen = "d\(device)-s\(ordinal / 5)"
      var record: Record
      if device == 1 && ordinal == 10 {
        record = Record(
          seq: UInt64(ordinal + 1), time: Date(timeIntervalSince1970: 1_000 + Double(index)), kind: .consent,
          name: "consent", properties: ["scope": "provider:braze", "granted": false])
      } else {
        record = Record(
          seq: UInt64(ordinal + 1), time: Date(timeIntervalSince1970: 1_000 + Double(index)),
          kind: ordinal % 5 == 0 ? .screen : .userAction, name: ordinal % 5 == 0 ? screen : "tap")
        let braze =
          device == 1 && ordinal > 10
          ? ProviderOutput(provider: "braze", status: .blocked, reason: "consent")
          : ProviderOutput(provider: "braze", status: .sent)
        record.outputs = [ProviderOutput(provider: "firebase-\(device)", status: .sent), braze]
      }
      record.context = RecordContext(
        screen: screen, history: ["d\(device)-home", screen],
        session: RecordSession(id: "session-\(device)", state: "authenticated", user: "user-\(device)"))
      record.source = "Podcasts@phone-\(device)"
      try timeline.append(record)
    }
    return timeline
  }

  func testEachRecordShowsItsOwnDevicesState() throws {
    let timeline = try interleaved(devices: 3, count: 3 * 600)
    defer { timeline.release() }
    for index in [0, 1, 2, 3, 4, 5, 298, 299, 300, 301, 767, 768, 769, 1_500, 1_797, 1_798, 1_799] {
      let device = index % 3
      let ordinal = index / 3
      let state = try timeline.state(at: index)
      XCTAssertEqual(state.source, "Podcasts@phone-\(device)", "record \(index)")
      XCTAssertEqual(state.screen, "d\(device)-s\(ordinal / 5)", "record \(index): its own device's screen")
      XCTAssertEqual(state.session?.user, "user-\(device)", "record \(index)")
      XCTAssertEqual(
        Set(state.providers.map(\.provider)), ["firebase-\(device)", "braze"],
        "record \(index): its providers")
      XCTAssertFalse(
        state.providers.contains { $0.provider.hasPrefix("firebase-") && $0.provider != "firebase-\(device)" }
      )
      let brazeBlocked = state.provider("braze")?.isBlocked ?? false
      XCTAssertEqual(brazeBlocked, device == 1 && ordinal > 10, "record \(index): consent is per device")
      XCTAssertEqual(
        state.consent.map(\.scope), device == 1 && ordinal >= 10 ? ["provider:braze"] : [], "record \(index)")
    }
  }

  func testAFoldFromAKeyframeEqualsAFoldFromTheStart() throws {
    // Uneven devices: one sends 1 record in 50, so its keyframes are far apart in the timeline.
    let timeline = try Timeline.live()
    defer { timeline.release() }
    var expected: [String: String] = [:]
    var screens: [Int: String] = [:]
    for index in 0..<20_000 {
      let source = index % 50 == 0 ? "rare" : "busy-\(index % 4)"
      var record = Record(
        seq: UInt64(index + 1), time: Date(timeIntervalSince1970: 1_000 + Double(index) / 100), kind: .screen,
        name: "\(source)-\(index)")
      record.context = RecordContext(screen: "\(source)-\(index)", history: [])
      record.source = source
      expected[source] = "\(source)-\(index)"
      screens[index] = expected[source]
      try timeline.append(record)
    }
    for index in stride(from: 0, to: 20_000, by: 97) {
      XCTAssertEqual(try timeline.state(at: index).screen, screens[index], "record \(index)")
    }
  }

  func testSourceStatisticsCountRecordsViolationsAndTheRecentRate() throws {
    let timeline = try interleaved(devices: 3, count: 30)
    defer { timeline.release() }
    timeline.setPlanViolations(2, at: 4)
    timeline.setPlanViolations(1, at: 7)
    timeline.setPlanViolations(0, at: 7)
    let statistics = timeline.sourceStatistics(window: 10)
    XCTAssertEqual(statistics.map(\.name), ["Podcasts@phone-0", "Podcasts@phone-1", "Podcasts@phone-2"])
    XCTAssertEqual(statistics.map(\.records), [10, 10, 10])
    XCTAssertEqual(
      statistics.map(\.withViolations), [0, 1, 0], "record 4 is phone-1's; record 7's was withdrawn")
    XCTAssertEqual(statistics.map(\.lastIndex), [27, 28, 29])
    XCTAssertEqual(statistics.map(\.firstIndex), [0, 1, 2])
    // One record a second, each device one in three: by its own clock, the 10 s up to its latest
    // record hold 4 of its records.
    XCTAssertEqual(statistics.map(\.recentRecords), [4, 4, 4])
  }

  /// A source younger than the window is measured over its own life, a second at least: a burst of
  /// 8 records within 2 ms is 8/s (not 0.8/s), 30 records over 3 s are 10/s.
  func testARateIsOverTheSourcesOwnLifeWhenItIsYoungerThanTheWindow() throws {
    let timeline = try Timeline.live()
    defer { timeline.release() }
    for index in 0..<8 {
      var record = Record(
        seq: UInt64(index + 1), time: Date(timeIntervalSince1970: 1_000 + Double(index) / 4000), kind: .event,
        name: "burst")
      record.source = "Shop@burst"
      try timeline.append(record)
    }
    for index in 0..<30 {
      var record = Record(
        seq: UInt64(index + 1), time: Date(timeIntervalSince1970: 2_000 + Double(index) * 0.1), kind: .event,
        name: "steady")
      record.source = "Shop@steady"
      try timeline.append(record)
    }
    let rates = timeline.sourceStatistics(window: 10).map(\.rate)
    XCTAssertEqual(rates[0], 8, accuracy: 0.001)
    XCTAssertEqual(rates[1], 30 / 2.9, accuracy: 0.001)
  }

  /// Day-long sessions: each provider's status is packed in bits (of the record's shape, kept once
  /// by the records that share it: ``IndexColumnsTests``) and reads back whole.
  func testAnIndexEntryKeepsEveryStatus() throws {
    let timeline = try Timeline.live()
    defer { timeline.release() }
    var record = Record(seq: 1, time: Date(), kind: .event, name: "e")
    let statuses: [OutputStatus] = [.sent, .dropped, .blocked, .failed, OutputStatus(rawValue: "queued")]
    for (number, status) in statuses.enumerated() {
      record.outputs.append(
        ProviderOutput(provider: "p\(number)", status: status, reason: status == .blocked ? "consent" : nil))
    }
    record.outputs.append(ProviderOutput(provider: "off", status: .blocked, reason: "disabled"))
    for number in 6..<40 { record.outputs.append(ProviderOutput(provider: "x\(number)", status: .sent)) }
    try timeline.append(record)
    let summary = try timeline.summary(at: 0)
    XCTAssertEqual(
      summary.outputs.prefix(6).map(\.status.rawValue),
      ["sent", "dropped", "blocked", "failed", "other", "blocked"])
    XCTAssertEqual(summary.outputs.count, 32, "the first 32 providers are tracked")
    XCTAssertEqual(try timeline.filter(TimelineFilter(provider: "off", status: .blocked)), [0])
    XCTAssertEqual(try timeline.filter(TimelineFilter(provider: "p2", status: .blocked)), [0])
    XCTAssertEqual(
      try timeline.filter(TimelineFilter(provider: "p4", status: .failed)), [], "other is not failed")
    XCTAssertEqual(try timeline.filter(TimelineFilter(provider: "p3", status: .failed)), [0])
    let state = try timeline.state(at: 0)
    XCTAssertEqual(state.provider("off")?.enabled, false)
    XCTAssertEqual(state.provider("p2")?.consented, false)
    XCTAssertEqual(state.provider("p0")?.isBlocked, false)
  }

  /// A `seq` past 32 bits (an app's own counter, or untrusted input) is kept whole beside the
  /// entry's 32 bits: summaries, "go to #seq" and the seq check see it as written.
  func testASeqPast32BitsIsKeptWhole() throws {
    let timeline = try Timeline.live()
    defer { timeline.release() }
    let wide: UInt64 = 1 << 40 | 7
    for seq in [UInt64(5), wide, 7, wide + 1, UInt64.max] {
      try timeline.append(Record(seq: seq, time: Date(), kind: .event, name: "e"))
    }
    XCTAssertEqual(try (0..<5).map { try timeline.summary(at: $0).seq }, [5, wide, 7, wide + 1, UInt64.max])
    XCTAssertEqual(timeline.firstIndex(seq: 7), 2, "7 is not taken for the wide seq whose low bits are 7")
    XCTAssertEqual(timeline.firstIndex(seq: wide), 1)
    XCTAssertEqual(timeline.firstIndex(seq: UInt64.max), 4)
    XCTAssertEqual(timeline.firstIndex(seq: 1 << 40), nil)
  }
}
