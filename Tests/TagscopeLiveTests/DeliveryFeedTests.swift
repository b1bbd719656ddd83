import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeLive

/// The delivery feed's reading of a batch's arrays where they lie (reading ahead of the record it
/// is at, a few records at once): the same facts as each record read alone, whatever the arrays'
/// sizes and the records' shapes.
final class DeliveryFeedTests: XCTestCase {
  /// Records without outputs, with an output without calls, with a call without parameters, with
  /// two outputs, an unsent output and wire records, in arrays of 0, 17, 1, 40 and 33 records
  /// (around and across the feed's reading ahead), some wire records in flight.
  func testABatchsArraysGiveTheFactsOfEachRecordReadAlone() {
    let sizes = [0, 17, 1, 40, 33]
    var segments: [[Record]] = []
    var index = 0
    for size in sizes {
      segments.append((index..<index + size).map(Self.record))
      index += size
    }
    let unanswered = [3..<9, 47..<56]
    let items = DeliveryItems(
      segments: segments, records: index, firstPosition: 100, unanswered: unanswered, received: 5_000)

    var whole = DeliveryFeed()
    let read = whole.read(items)

    var alone = DeliveryFeed()
    let records = segments.flatMap { $0 }
    for offset in records.indices {
      let answered = !unanswered.contains { $0.contains(offset) }
      [records[offset]].withUnsafeBufferPointer {
        alone.add($0.baseAddress!, at: 100 + offset, answered: answered)
      }
    }
    let expected = alone.take(received: 5_000)

    XCTAssertEqual(read.records, records.count)
    XCTAssertEqual(read.facts.count, expected.facts.count)
    XCTAssertEqual(read.facts.map(Self.summary), expected.facts.map(Self.summary))
    XCTAssertEqual(read.ids, expected.ids)
    XCTAssertEqual(read.wireProviders, expected.wireProviders)
    XCTAssertEqual(read.names.labels.map(\.name), expected.names.labels.map(\.name))
    // Every record has a fact: calls, wire calls or its clock.
    XCTAssertEqual(read.facts.filter(\.startsRecord).count, records.count)
    XCTAssertEqual(read.facts.filter { $0.kind == .wire && !$0.answered }.count, 6)
  }

  /// Record `index` of the test's batch: one of seven shapes.
  private static func record(_ index: Int) -> Record {
    let time = Date(recordMilliseconds: 1_800_000_000_000 + Int64(index) * 10)
    let params: Properties = ["episode": .int(index), "screen": "home", "title": .string("Episode \(index)")]
    let track = CallDescription(method: "track", name: "Played \(index % 3)", parameters: params)
    let outputs: [ProviderOutput]
    switch index % 7 {
    case 0: outputs = []
    case 1: outputs = [ProviderOutput(provider: "segment", status: .sent)]
    case 2:
      outputs = [
        ProviderOutput(provider: "segment", status: .sent, calls: [CallDescription(method: "flush")])
      ]
    case 3:
      outputs = [
        ProviderOutput(provider: "segment", status: .sent, calls: [track, track]),
        ProviderOutput(provider: "mixpanel", status: .sent, calls: [track]),
      ]
    case 4: outputs = [ProviderOutput(provider: "segment", status: .dropped, calls: [track])]
    default:
      let message: Properties = [
        "type": "track", "event": .string("Played \(index % 3)"), "properties": .object(params),
        "messageId": .string("m-\(index)"),
      ]
      return Record(
        seq: UInt64(index), time: time, kind: .event, name: "Played",
        outputs: [
          ProviderOutput(
            provider: "segment", status: .sent,
            calls: [CallDescription(method: "track", name: "Played \(index % 3)", parameters: message)])
        ],
        source: "segment@10.0.0.1", raw: "")
    }
    return Record(
      seq: UInt64(index), time: time, kind: .event, name: "Played", outputs: outputs,
      source: "device-\(index % 2)")
  }

  /// What a fact says, comparable.
  private static func summary(_ fact: DeliveryFact) -> [Int] {
    [
      Int(fact.kind.rawValue), fact.startsRecord ? 1 : 0, fact.restarts ? 1 : 0, fact.printed ? 1 : 0,
      fact.answered ? 1 : 0, Int(fact.source), Int(fact.label), Int(fact.user), Int(fact.callIndex),
      Int(fact.extra), fact.position, Int(fact.time), fact.print,
    ]
  }
}
