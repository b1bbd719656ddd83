import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import TagscopeTestSupport
import XCTest

@testable import TagscopeInspector
@testable import TagscopeRecording
@testable import TagscopeTimeline

final class TimelineTests: XCTestCase {
  /// A live timeline fed by an inspector on a real hub, and the dispatches it saw.
  func liveTour(steps: Int, url: URL? = nil) throws -> (Timeline, [Record]) {
    let clock = ManualClock()
    let hub = try makePodcastHub(clock: clock)
    let memory = DispatchRecorder()
    hub.addObserver(memory)
    let timeline = try Timeline.live(recordingTo: url, header: RecordingHeader(app: "Podcasts"))
    let inspector = Inspector(sinks: [timeline])
    hub.addObserver(inspector)
    drivePodcastTour(hub, clock: clock, steps: steps)
    try hub.setEnabled(false, for: "piano")
    hub.send(screen: .settings)
    hub.flush()
    inspector.close()
    return (timeline, memory.dispatches.map(Record.init(dispatch:)))
  }

  /// The state as of record `index`, folded from the first record with no index or keyframe.
  func referenceState(_ records: [Record], upTo index: Int) -> TimelineState {
    var state = TimelineState(index: index)
    for (position, record) in records[0...index].enumerated() {
      if record.context != RecordContext() {
        state.screen = record.context.screen
        state.history = record.context.history
        state.session = record.context.session
        state.timedEvents = record.context.timedEvents
      }
      if record.kind == .consent, let scope = record.properties["scope"]?.stringValue,
        let granted = record.properties["granted"]?.boolValue
      {
        let decision = ConsentDecision(scope: scope, granted: granted, index: position)
        if let existing = state.consent.firstIndex(where: { $0.scope == scope }) {
          state.consent[existing] = decision
        } else {
          state.consent.append(decision)
        }
      }
      for output in record.outputs {
        var provider = state.provider(output.provider) ?? ProviderState(provider: output.provider)
        let disabled = output.status == .blocked && output.reason == "disabled"
        provider.enabled = !disabled
        if !disabled {
          if output.status == .blocked {
            provider.consented = false
          } else if record.kind != .consent {
            provider.consented = true
          }
        }
        provider.lastStatus = output.status
        provider.lastIndex = position
        if let existing = state.providers.firstIndex(where: { $0.provider == output.provider }) {
          state.providers[existing] = provider
        } else {
          state.providers.append(provider)
        }
      }
    }
    return state
  }

  func testLiveTimelineIndexesWhatTheHubDispatched() throws {
    let (timeline, records) = try liveTour(steps: 1200)
    defer { timeline.release() }
    XCTAssertTrue(timeline.isLive)
    XCTAssertTrue(timeline.isTemporary)
    XCTAssertEqual(timeline.count, records.count)
    XCTAssertEqual(timeline.providers, ["firebase", "piano", "braze"])
    for position in [0, 1, 17, 600, records.count - 1] {
      XCTAssertEqual(try timeline.record(at: position), records[position])
      let summary = try timeline.summary(at: position)
      XCTAssertEqual(summary.seq, records[position].seq)
      XCTAssertEqual(summary.name, records[position].name)
      XCTAssertEqual(summary.kind, records[position].kind)
      XCTAssertEqual(summary.time, records[position].time)
      XCTAssertEqual(summary.outputs.map(\.provider), records[position].outputs.map(\.provider))
      XCTAssertEqual(summary.outputs.map(\.status), records[position].outputs.map(\.status))
      XCTAssertEqual(
        try RecordLineDecoder.decodeRecord(timeline.line(at: position)), records[position])
    }
    XCTAssertThrowsError(try timeline.record(at: records.count)) { error in
      XCTAssertEqual("\(error)", "no record at index \(records.count) (the timeline has \(records.count))")
    }
    // The live recording is a recording: replaying it gives the same records.
    let replay = try Timeline.open(url: timeline.url)
    replay.waitUntilIndexed()
    XCTAssertEqual(replay.count, records.count)
    XCTAssertEqual(replay.problems, [])
    XCTAssertEqual(try replay.record(at: 999), records[999])
    XCTAssertEqual(replay.summaries(in: 0..<records.count), timeline.summaries(in: 0..<records.count))
  }

  func testStateAsOfAnyRecordMatchesAFoldFromTheStart() throws {
    let (timeline, records) = try liveTour(steps: 1500)
    defer { timeline.release() }
    var random = SeededGenerator(seed: 3)
    var positions = [0, 255, 256, 257, 511, 512, records.count - 1]
    positions += (0..<60).map { _ in Int.random(in: 0..<records.count, using: &random) }
    for position in positions {
      XCTAssertEqual(
        try timeline.state(at: position), referenceState(records, upTo: position), "at \(position)")
    }
    // The tour really exercises the state: consent revoked, a provider disabled, sessions, timers.
    let last = try timeline.state(at: records.count - 1)
    XCTAssertEqual(last.provider("piano")?.enabled, false)
    XCTAssertEqual(last.screen, "settings")
    XCTAssertFalse(last.consent.isEmpty)
    XCTAssertTrue(
      (0..<records.count).contains { (try? timeline.state(at: $0).provider("braze")?.consented) == false })
    XCTAssertTrue((0..<records.count).contains { (try? timeline.state(at: $0).timedEvents.isEmpty) == false })
    XCTAssertNotNil(last.session?.user)
  }

  func testFilters() throws {
    let (timeline, records) = try liveTour(steps: 800)
    defer { timeline.release() }
    func expect(
      _ filter: TimelineFilter, _ predicate: (Record) -> Bool, file: StaticString = #filePath,
      line: UInt = #line
    ) throws {
      let expected = records.indices.filter { predicate(records[$0]) }
      XCTAssertEqual(try timeline.filter(filter), expected, file: file, line: line)
      XCTAssertFalse(expected.isEmpty, "the filter selects something", file: file, line: line)
      XCTAssertLessThan(
        expected.count, records.count, "the filter leaves something out", file: file, line: line)
    }
    try expect(TimelineFilter(kinds: [.screen, .userAction])) { $0.kind == .screen || $0.kind == .userAction }
    try expect(TimelineFilter(name: .substring("PODCAST"))) { $0.name.lowercased().contains("podcast") }
    try expect(TimelineFilter(name: .regex("^player.*(Play|Fail)$"))) {
      $0.name == "playerDidPlay" || $0.name == "playerDidFail"
    }
    try expect(TimelineFilter(provider: "piano", status: .sent)) { $0.output(for: "piano")?.status == .sent }
    try expect(TimelineFilter(status: .blocked)) { $0.outputs.contains { $0.status == .blocked } }
    try expect(TimelineFilter(kinds: [.userAction], provider: "braze", status: .blocked)) {
      $0.kind == .userAction && $0.output(for: "braze")?.status == .blocked
    }
    var both = TimelineFilter(name: .substring("player"))
    both.names.append(.substring("PLAY"))
    both.names.append(.regex("Fail$"))
    try expect(both) { $0.name.hasPrefix("player") && $0.name.hasSuffix("Fail") }
    try expect(TimelineFilter(provider: "PIANO", status: .sent)) { $0.output(for: "piano")?.status == .sent }
    try expect(TimelineFilter(issues: true)) { !$0.issues.isEmpty }
    XCTAssertEqual(try timeline.filter(TimelineFilter(provider: "nobody")), [])
    XCTAssertEqual(try timeline.filter(TimelineFilter(source: "device-1")), [])
    XCTAssertEqual(try timeline.filter(TimelineFilter()), Array(records.indices))
    XCTAssertThrowsError(try timeline.filter(TimelineFilter(name: .regex("play(")))) { error in
      XCTAssertTrue("\(error)".hasPrefix("invalid regular expression 'play('"), "\(error)")
    }
    XCTAssertThrowsError(try TimelineFilter(name: .regex("[")).validate())
    XCTAssertNoThrow(try TimelineFilter(name: .regex("ok")).validate())
    XCTAssertThrowsError(try timeline.filter(TimelineFilter(status: "queued")))

    // Violations: none from the rules here; the plan validator attaches some.
    XCTAssertEqual(try timeline.filter(TimelineFilter(violations: true)), [])
    timeline.setPlanViolations(2, at: 10)
    timeline.setPlanViolations(1, at: 400)
    XCTAssertEqual(try timeline.filter(TimelineFilter(violations: true)), [10, 400])
    XCTAssertEqual(try timeline.summary(at: 10).planViolations, 2)
    XCTAssertTrue(try timeline.summary(at: 400).hasViolations)
    XCTAssertEqual(timeline.nextViolation(after: 10), 400)
    XCTAssertEqual(timeline.nextViolation(after: 400), nil)
    XCTAssertEqual(timeline.previousViolation(before: 400), 10)
    XCTAssertEqual(timeline.previousViolation(before: 10), nil)
    // Incremental: filtering a range gives the slice of the full result.
    let full = try timeline.filter(TimelineFilter(kinds: [.event]))
    let halves =
      try timeline.filter(TimelineFilter(kinds: [.event]), in: 0..<300)
      + timeline.filter(TimelineFilter(kinds: [.event]), in: 300..<records.count)
    XCTAssertEqual(full, halves)
  }

  func testSourcesAndRuleViolationsFromListenRecords() throws {
    let timeline = try Timeline.live()
    defer { timeline.release() }
    let violation = RecordViolation(
      rule: "firebase.event-name-length", message: "long", consequence: "dropped")
    for seq in 1...30 {
      var record = Record(seq: UInt64(seq), time: Date(), kind: .event, name: "e\(seq)")
      record.source = seq % 3 == 0 ? "device-b" : "device-a"
      record.outputs = [
        ProviderOutput(provider: "firebase", status: .sent, violations: seq == 7 ? [violation] : [])
      ]
      try timeline.append(record)
    }
    XCTAssertEqual(timeline.sources, ["device-a", "device-b"])
    XCTAssertEqual(
      try timeline.filter(TimelineFilter(source: "device-b")), [2, 5, 8, 11, 14, 17, 20, 23, 26, 29])
    XCTAssertEqual(try timeline.filter(TimelineFilter(source: "DEVICE-")).count, 30, "any case, substring")
    XCTAssertEqual(try timeline.filter(TimelineFilter(violations: true)), [6])
    XCTAssertEqual(try timeline.summary(at: 5).source, "device-b")
    XCTAssertEqual(timeline.firstIndex(seq: 9), 8)
    XCTAssertEqual(timeline.firstIndex(seq: 9, source: "device-b"), 8)
    XCTAssertNil(timeline.firstIndex(seq: 9, source: "device-a"))
    XCTAssertNil(timeline.firstIndex(seq: 99))
    XCTAssertTrue(try timeline.summary(at: 6).hasRuleViolations)
  }

  func testSeqGoingBackwardsOrRepeatingIsCountedPerSourceAndKeptInFileOrder() throws {
    let timeline = try Timeline.live()
    defer { timeline.release() }
    // device-a: 1 2 3 3 (repeat) 2 (repeat) 1 (a restart) 2; device-b interleaved: 10 11 5 (backwards).
    let lines: [(UInt64, String)] = [
      (1, "a"), (10, "b"), (2, "a"), (3, "a"), (11, "b"), (3, "a"), (2, "a"), (5, "b"), (1, "a"), (2, "a"),
    ]
    for (seq, device) in lines {
      var record = Record(seq: seq, time: Date(), kind: .event, name: "e")
      record.source = "device-" + device
      try timeline.append(record)
    }
    XCTAssertEqual(timeline.sequence.repeated, 2)
    XCTAssertEqual(timeline.sequence.backwards, 1)
    XCTAssertEqual(timeline.sequence.restarts, 1)
    XCTAssertEqual(
      try (0..<lines.count).map { try timeline.summary(at: $0).seq }, lines.map(\.0), "file order")
    var check = SequenceCheck()
    XCTAssertNil(check.check(seq: 7, source: nil))
    XCTAssertEqual(check.check(seq: 7, source: nil), .repeated(7))
    XCTAssertEqual(check.check(seq: 4, source: nil), .backwards(from: 7, to: 4))
    XCTAssertNil(check.check(seq: 4, source: "other"), "another source has its own sequence")
    XCTAssertEqual(check.check(seq: 1, source: "other"), .restarted(after: 4))
    XCTAssertEqual(check.counts.anomalies, 2)
    XCTAssertEqual(check.counts.reported, 3)
    XCTAssertEqual(
      "\(SequenceCheck.Anomaly.backwards(from: 186, to: 150))", "seq goes backwards, from 186 to 150")
  }

  func testReplayReportsProblemsAndGapsAndKeepsGoing() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("mixed.jsonl")
    var text = RecordLineEncoder.line(RecordingHeader(app: "A")) + "\n"
    for seq in 1...1000 {
      if seq == 500 { text += "{broken\n" }
      if seq == 700 {
        text +=
          RecordLineEncoder.line(DropMarker(count: 12, time: Date(), afterSeq: 699, origin: "recorder"))
          + "\n"
      }
      text +=
        RecordLineEncoder.line(Record(seq: UInt64(seq), time: Date(), kind: .screen, name: "s\(seq % 7)"))
        + "\n"
    }
    text += "{\"seq\":1001"
    try Data(text.utf8).write(to: url)
    let timeline = try Timeline.open(url: url)
    timeline.waitUntilIndexed()
    XCTAssertFalse(timeline.isIndexing)
    XCTAssertEqual(timeline.count, 1000)
    XCTAssertEqual(timeline.problems.map(\.line), [501, 1004])
    XCTAssertEqual(timeline.problems.last?.isTruncatedLastLine, true)
    XCTAssertEqual(timeline.gaps, [TimelineGap(beforeIndex: 699, marker: timeline.gaps[0].marker)])
    XCTAssertEqual(timeline.gaps.first?.marker.count, 12)
    XCTAssertEqual(try timeline.record(at: 999).seq, 1000)
    XCTAssertEqual(try timeline.record(at: 499).seq, 500)
    XCTAssertFalse(timeline.isTemporary)
    timeline.release()
    XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), "closing a replay keeps the file")
  }

  func testReplayReportsADeeplyNestedLineAndLoadsTheRest() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("deep.jsonl")
    var text = RecordLineEncoder.line(RecordingHeader(app: "A")) + "\n"
    text += RecordLineEncoder.line(Record(seq: 1, time: Date(), kind: .screen, name: "one")) + "\n"
    text += String(repeating: "[", count: 100_000) + "\n"
    text += RecordLineEncoder.line(Record(seq: 2, time: Date(), kind: .screen, name: "two")) + "\n"
    try Data(text.utf8).write(to: url)
    let timeline = try Timeline.open(url: url)
    timeline.waitUntilIndexed()
    XCTAssertEqual(timeline.count, 2)
    XCTAssertEqual(timeline.problems.map(\.line), [3])
    XCTAssertTrue(
      "\(timeline.problems[0])".contains("nesting deeper than 256 levels"), "\(timeline.problems)")
    timeline.release()
  }

  func testTemporaryLiveRecordingIsDeletedOnCloseUnlessKept() throws {
    let first = try Timeline.live()
    XCTAssertTrue(FileManager.default.fileExists(atPath: first.url.path))
    first.close()
    XCTAssertTrue(first.isEnded)
    XCTAssertThrowsError(try first.append(Record(seq: 1, time: Date(), kind: .screen, name: "late")))
    XCTAssertTrue(FileManager.default.fileExists(atPath: first.url.path), "ending input keeps the recording")
    first.release()
    XCTAssertFalse(FileManager.default.fileExists(atPath: first.url.path))
    let second = try Timeline.live()
    second.release(keepTemporary: true)
    XCTAssertTrue(FileManager.default.fileExists(atPath: second.url.path))
    try FileManager.default.removeItem(at: second.url)
    let directory = try TemporaryDirectory()
    let named = try Timeline.live(recordingTo: directory.file("named.jsonl"))
    XCTAssertFalse(named.isTemporary)
    named.release()
    XCTAssertTrue(FileManager.default.fileExists(atPath: directory.file("named.jsonl").path))
  }

  func testReplayFromStandardInput() throws {
    var descriptors: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&descriptors), 0)
    let savedInput = dup(0)
    dup2(descriptors[0], 0)
    close(descriptors[0])
    defer {
      dup2(savedInput, 0)
      close(savedInput)
    }
    let records = (1...500).map { Record(seq: UInt64($0), time: Date(), kind: .event, name: "e\($0)") }
    let writer = descriptors[1]
    Thread {
      var bytes: [UInt8] = []
      RecordLineEncoder.appendLine(RecordingHeader(app: "stdin"), to: &bytes)
      for record in records { RecordLineEncoder.appendLine(record, to: &bytes) }
      _ = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
      close(writer)
    }.start()
    let timeline = try Timeline.open(path: "-")
    defer { timeline.release() }
    timeline.waitUntilIndexed()
    XCTAssertEqual(timeline.header.app, "stdin")
    XCTAssertEqual(timeline.count, 500)
    XCTAssertEqual(try timeline.record(at: 321), records[321])
    XCTAssertTrue(timeline.isTemporary)
  }

  /// A FIFO (`replay <(zcat r.jsonl.gz)`) gives its bytes once: copied as it arrives, like standard
  /// input, instead of opened a second time for random reads (which started mid-stream).
  func testReplayFromAFIFO() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("r.jsonl").path
    XCTAssertEqual(mkfifo(path, 0o600), 0)
    let records = (1...500).map { Record(seq: UInt64($0), time: Date(), kind: .event, name: "e\($0)") }
    Thread {
      var bytes: [UInt8] = []
      RecordLineEncoder.appendLine(RecordingHeader(app: "fifo"), to: &bytes)
      for record in records { RecordLineEncoder.appendLine(record, to: &bytes) }
      let writer = open(path, O_WRONLY)
      _ = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
      close(writer)
      // A second reader (opening the path again) gets an empty input rather than a wait.
      close(open(path, O_WRONLY))
    }.start()
    defer { close(open(path, O_RDONLY | O_NONBLOCK)) }
    let timeline = try Timeline.open(path: path)
    defer { timeline.release() }
    timeline.waitUntilIndexed()
    XCTAssertEqual(timeline.header.app, "fifo")
    XCTAssertEqual(timeline.count, 500)
    XCTAssertEqual(try timeline.record(at: 321), records[321])
  }

  /// A live session hands the timeline everything queued at once (up to 20,000 records): it is
  /// written and indexed a slice at a time, so readers never wait for the whole batch, and the
  /// result is the same as one write — every record at its line, a gap where its marker was.
  func testALargeBatchIsWrittenAndIndexedInSlicesWithTheSameResult() throws {
    let timeline = try Timeline.live()
    defer { timeline.release() }
    let count = Timeline.receiveSlice * 3 + 7
    var items = (1...count).map { seq in
      SinkItem(
        Record(seq: UInt64(seq), time: Date(), kind: .event, name: "e\(seq % 5)", source: "p\(seq % 3)"))
    }
    let marker = DropMarker(count: 4, time: Date(), afterSeq: 600, origin: "inspector")
    items.insert(SinkItem(marker), at: 600)
    timeline.receive(items)
    XCTAssertEqual(timeline.count, count)
    XCTAssertEqual(timeline.gaps, [TimelineGap(beforeIndex: 600, marker: marker)])
    for position in [0, 599, 600, Timeline.receiveSlice, Timeline.receiveSlice * 2 + 1, count - 1] {
      let record = try timeline.record(at: position)
      XCTAssertEqual(record.seq, UInt64(position + 1))
      XCTAssertEqual(record.name, "e\((position + 1) % 5)")
    }
    let reread = try Timeline.open(url: timeline.url)
    reread.waitUntilIndexed()
    defer { reread.release() }
    XCTAssertEqual(reread.count, count, "the file holds every line, once")
  }
}
