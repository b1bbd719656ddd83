import Foundation
import TagscopeRecording
import TagscopeTimeline

@testable import TagscopeServer

/// An ingest that keeps every record a server takes with the recording line it is stored as (a
/// native client's line; an SDK record's encoded line), so a test can read each one back.
final class CapturingIngest: ListenIngest, @unchecked Sendable {
  private let lock = NSLock()
  private var taken: [(record: Record, line: [UInt8])] = []
  private var reported: [String] = []

  func deliver(_ event: ListenEvent) {
    if case .problem(_, let message) = event { lock.withLock { reported.append(message) } }
    guard case .records(let records) = event else { return }
    let lines = records.map { Array((RecordLineEncoder.line($0) + "\n").utf8) }
    lock.withLock { taken += zip(records, lines).map { ($0, $1) } }
  }

  func deliver(_ records: [Record], lines: [[UInt8]]) {
    lock.withLock { taken += zip(records, lines).map { ($0, $1) } }
  }

  var hasRoom: Bool { true }

  func whenRoom(_ resume: @escaping @Sendable () -> Void) { resume() }

  /// The problems reported, in order.
  var problems: [String] { lock.withLock { reported } }

  /// How many records were taken.
  var count: Int { lock.withLock { taken.count } }

  /// The records taken, from the `start`th on.
  func records(from start: Int = 0) -> [Record] {
    lock.withLock { taken[min(start, taken.count)...].map(\.record) }
  }

  /// Why a record taken from the `start`th on does not read back from its line as it was taken.
  func unreadable(from start: Int) -> String? {
    let slice = lock.withLock { Array(taken[min(start, taken.count)...]) }
    for (record, line) in slice {
      guard line.last == UInt8(ascii: "\n"), !line.dropLast().contains(UInt8(ascii: "\n")) else {
        return "record \(record.seq) is stored as more or less than one line"
      }
      guard case .record(let read)? = try? RecordLineDecoder.decode(Array(line.dropLast())) else {
        return
          "record \(record.seq) is stored as a line that does not read: \(String(decoding: line.prefix(300), as: UTF8.self))"
      }
      guard read == record else {
        return
          "record \(record.seq) reads back differently: \(String(decoding: line.prefix(300), as: UTF8.self))"
      }
    }
    return nil
  }
}
