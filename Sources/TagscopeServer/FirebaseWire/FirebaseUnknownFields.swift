import AnalyticsHub
import Foundation
import NIOConcurrencyHelpers
import SwiftProtobuf

/// The fields of an upload the schema does not declare, each named with its place (`bundle 1
/// field 45`) and its value as read: kept beside the records, never dropped silently.
enum FirebaseUnknownFields {
  /// How many are listed with their value; the rest are counted.
  static let listed = 32

  /// What an upload whose fields the schema lacks are `found` carries: the note on each record
  /// (``FirebaseUploadRecords/note(_:)``) and the report on its first (``account(_:)``).
  struct Summary: Sendable {
    let note: PropertyValue?
    let report: FieldAccount.Report?
  }

  /// The ``Summary`` of `found`, `nil` when it is empty; made once for each list and kept for the
  /// uploads after it (a device sends the same fields upload after upload; made for each, it cost
  /// a thirtieth of reading one): ``summarySlots`` lists of at most ``listed`` fields and
  /// ``summaryText`` bytes (a hostile upload's thousands are summed up each time, not kept), a list
  /// taking the slot its hash picks from the one there before.
  static func summary(_ found: [String]) -> Summary? {
    guard !found.isEmpty else { return nil }
    guard found.count <= listed, found.reduce(0, { $0 + $1.utf8.count }) <= summaryText else {
      return Summary(note: FirebaseUploadRecords.note(found), report: account(found).report)
    }
    let slot = found.hashValue & (summarySlots - 1)
    let kept = summaries.withLockedValue { summaries in
      summaries[slot].flatMap { $0.found == found ? $0.summary : nil }
    }
    if let kept { return kept }
    let summary = Summary(note: FirebaseUploadRecords.note(found), report: account(found).report)
    summaries.withLockedValue { $0[slot] = (found, summary) }
    return summary
  }

  static let summarySlots = 64
  static let summaryText = 4_096
  private static let summaries = NIOLockedValueBox(
    [(found: [String], summary: Summary)?](repeating: nil, count: summarySlots))

  /// `found` (as ``collect(_:place:into:)`` lists them) as the upload's account: each field by its place (`bundle 1 field 45`)
  /// with its value as read, for the first record (``FieldAccount``).
  static func account(_ found: [String]) -> FieldAccount {
    var account = FieldAccount()
    for field in found {
      guard let open = opening(of: field) else {
        account.note(field, .null)
        continue
      }
      let value = field.utf8.index(open, offsetBy: 2)
      account.note(String(field[..<open]), .string(String(field[value...].dropLast())))
    }
    return account
  }

  /// Where the first ` (` of a listed field is: its place ends there (a place holds none). Read
  /// byte by byte: Foundation's `range(of:)` cost a tenth of reading an upload with one such field.
  private static func opening(of field: String) -> String.Index? {
    let utf8 = field.utf8
    var previous = utf8.startIndex
    for index in utf8.indices.dropFirst() {
      if utf8[previous] == UInt8(ascii: " ") && utf8[index] == UInt8(ascii: "(") { return previous }
      previous = index
    }
    return nil
  }

  /// The unknown fields of `message`, at `place`, appended to `found`.
  static func collect(
    _ message: some SwiftProtobuf.Message, place: @autoclosure () -> String, into found: inout [String]
  ) {
    let data = message.unknownFields.data
    guard !data.isEmpty else { return }
    let place = place()
    let bytes = [UInt8](data)
    bytes.withUnsafeBufferPointer { buffer in
      var reader = ProtobufWireReader(buffer, range: 0..<buffer.count)
      while let field = try? reader.next() {
        found.append("\(place) field \(field.number) (\(describe(field.value, buffer)))")
        switch field.value {
        case .group, .groupEnd: return
        default: continue
        }
      }
    }
  }

  /// The unknown fields of `event` at `place` (`bundle 1 event 2`): its own, then each parameter's
  /// (items included).
  static func collect(
    event: Tagscope_Firebase_Event, place: @autoclosure () -> String, into found: inout [String]
  ) {
    collect(event, place: place(), into: &found)
    collect(event.param, place: place(), into: &found)
  }

  private static func collect(
    _ parameters: [Tagscope_Firebase_EventParameter], place: @autoclosure () -> String,
    into found: inout [String]
  ) {
    // Places are named only where a field is found: most uploads have none.
    for (index, parameter) in parameters.enumerated() {
      collect(parameter, place: "\(place()) parameter \(index + 1)", into: &found)
      collect(parameter.nested, place: "\(place()) parameter \(index + 1)", into: &found)
    }
  }

  /// The field written at `field` of `bytes`, one the schema does not declare, at `place`, as
  /// ``collect(_:place:into:)`` lists it from a decoded message.
  static func describe(_ bytes: UnsafeBufferPointer<UInt8>, field: Range<Int>, place: String) -> String {
    var reader = ProtobufWireReader(bytes, range: field)
    guard let read = try? reader.next() else { return "\(place) field at byte \(field.lowerBound)" }
    return "\(place) field \(read.number) (\(describe(read.value, bytes)))"
  }

  private static func describe(_ value: ProtobufWireReader.Value, _ bytes: UnsafeBufferPointer<UInt8>)
    -> String
  {
    switch value {
    case .varint(let number): return "varint \(number)"
    case .fixed64(let number): return "fixed64 \(number)"
    case .fixed32(let number): return "fixed32 \(number)"
    case .group, .groupEnd: return "group"
    case .lengthDelimited(let range):
      let slice = bytes[range]
      if slice.count <= 64, let text = String(validating: slice, as: UTF8.self),
        text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f })
      {
        return "\"\(text)\""
      }
      return "\(slice.count) bytes"
    }
  }
}
