import Foundation
import SwiftProtobuf

/// The fields of an upload the schema does not declare, each named with its place (`bundle 1
/// field 45`) and its value as read: kept beside the records, never dropped silently.
enum FirebaseUnknownFields {
  /// How many are listed with their value; the rest are counted.
  static let listed = 32

  /// `found` (``of(_:)``) as the upload's account: each field by its place (`bundle 1 field 45`)
  /// with its value as read, for the first record (``FieldAccount``).
  static func account(_ found: [String]) -> FieldAccount {
    var account = FieldAccount()
    for field in found {
      guard let open = field.range(of: " (") else {
        account.note(field, .null)
        continue
      }
      account.note(String(field[..<open.lowerBound]), .string(String(field[open.upperBound...].dropLast())))
    }
    return account
  }

  /// The unknown fields of `message`, at `place`, appended to `found`.
  static func collect(_ message: some SwiftProtobuf.Message, place: String, into found: inout [String]) {
    let data = message.unknownFields.data
    guard !data.isEmpty else { return }
    let bytes = [UInt8](data)
    bytes.withUnsafeBufferPointer { buffer in
      var reader = ProtobufWireReader(buffer, range: 0..<buffer.count)
      while let field = try? reader.next() {
        found.append("\(place) field \(field.number) (\(describe(field.value, buffer)))")
        if case .group = field.value { return }
      }
    }
  }

  /// The unknown fields of a whole batch: the batch's own, each bundle's, each event's, each
  /// parameter's (items included) and each user property's.
  static func of(_ batch: Tagscope_Firebase_Batch) -> [String] {
    var found: [String] = []
    collect(batch, place: "upload", into: &found)
    for (bundleIndex, bundle) in batch.bundle.enumerated() {
      let inBundle = "bundle \(bundleIndex + 1)"
      collect(bundle, place: inBundle, into: &found)
      for (eventIndex, event) in bundle.event.enumerated() {
        let inEvent = "\(inBundle) event \(eventIndex + 1)"
        collect(event, place: inEvent, into: &found)
        collect(event.param, place: inEvent, into: &found)
      }
      for (index, property) in bundle.userProperty.enumerated() {
        collect(property, place: "\(inBundle) user property \(index + 1)", into: &found)
      }
    }
    return found
  }

  private static func collect(
    _ parameters: [Tagscope_Firebase_EventParameter], place: String, into found: inout [String]
  ) {
    for (index, parameter) in parameters.enumerated() {
      let inParameter = "\(place) parameter \(index + 1)"
      collect(parameter, place: inParameter, into: &found)
      collect(parameter.nested, place: inParameter, into: &found)
    }
  }

  private static func describe(_ value: ProtobufWireReader.Value, _ bytes: UnsafeBufferPointer<UInt8>)
    -> String
  {
    switch value {
    case .varint(let number): return "varint \(number)"
    case .fixed64(let number): return "fixed64 \(number)"
    case .fixed32(let number): return "fixed32 \(number)"
    case .group: return "group"
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
