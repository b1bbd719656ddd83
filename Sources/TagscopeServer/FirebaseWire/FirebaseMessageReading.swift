import AnalyticsHub
import SwiftProtobuf

/// One message of a Firebase upload read for its record: walked straight from the wire
/// (``FirebaseWireWalk``), else decoded by SwiftProtobuf (a rare message: a field the schema lacks,
/// or one it refuses), its unknown fields then appended at their place. What both the upload's
/// builder (``FirebaseUploadBuilder``) and its lazy index (``FirebaseUploadIndex``) read with.
enum FirebaseMessageReading {
  /// The event at `span` of `buffer` as its record takes it: its fields but its parameters
  /// returned, its parameters' names and values in `parameters`, which it replaces.
  static func event(
    _ buffer: UnsafeBufferPointer<UInt8>, _ span: Range<Int>, parameters: inout [FirebaseParameterValue],
    place: @autoclosure () -> String, into unknown: inout [String]
  ) throws -> FirebaseEventHeader {
    if let event = FirebaseWireWalk.event(buffer, span, parameters: &parameters) { return event }
    let decoded = try decodedEvent(buffer, span, place: place(), into: &unknown)
    parameters = decoded.parameterValues
    return FirebaseEventHeader(decoded)
  }

  /// The event at `span` of `buffer` decoded by SwiftProtobuf, its unknown fields appended to
  /// `unknown` at `place`.
  private static func decodedEvent(
    _ buffer: UnsafeBufferPointer<UInt8>, _ span: Range<Int>,
    place: @autoclosure () -> String, into unknown: inout [String]
  ) throws -> FirebaseEventFields {
    let event = try Tagscope_Firebase_Event(serializedBytes: Array(buffer[span]), options: options(level: 2))
    FirebaseUnknownFields.collect(event: event, place: place(), into: &unknown)
    return FirebaseEventFields(event)
  }

  /// The user property at `span` of `buffer`: walked, else decoded by SwiftProtobuf, its unknown
  /// fields then appended to `unknown` at `place`.
  static func property(
    _ buffer: UnsafeBufferPointer<UInt8>, _ span: Range<Int>,
    place: @autoclosure () -> String, into unknown: inout [String]
  ) throws -> FirebasePropertyFields {
    if let property = FirebaseWireWalk.property(buffer, span) { return property }
    let property = try Tagscope_Firebase_UserProperty(
      serializedBytes: Array(buffer[span]), options: options(level: 2))
    FirebaseUnknownFields.collect(property, place: place(), into: &unknown)
    return FirebasePropertyFields(property)
  }

  /// The bundle at `range` of `buffer` read once: its context returned, where its events and user
  /// properties are appended to `events` and `properties`, and the fields the schema lacks among
  /// its own appended to `unknown` at `place`. Walked (``FirebaseWireWalk/bundle(_:_:events:properties:unknown:place:)``),
  /// else split and its own fields decoded by SwiftProtobuf.
  static func bundle(
    _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, events: inout [Range<Int>],
    properties: inout [Range<Int>], place: @autoclosure () -> String, into unknown: inout [String]
  ) throws -> Properties {
    if let context = FirebaseWireWalk.bundle(
      buffer, range, events: &events, properties: &properties, unknown: &unknown, place: place())
    {
      return context
    }
    let split = FirebaseMessageSplit(buffer, range, children: (2, 3))
    events += split.first
    properties += split.second
    let bundle = try Tagscope_Firebase_Bundle(serializedBytes: split.rest, options: options(level: 1))
    FirebaseUnknownFields.collect(bundle, place: place(), into: &unknown)
    return FirebaseWireWalk.context(buffer, range) ?? FirebaseUploadRecords.context(bundle)
  }

  /// The batch's own fields but its bundles (`rest`, as ``FirebaseMessageSplit`` leaves them), decoded
  /// for their unknown fields, appended to `unknown` at `upload`; a batch is its bundles alone as a
  /// rule: nothing to decode then (an empty message holds nothing and refuses nothing).
  static func batchFields(_ rest: [UInt8], into unknown: inout [String]) throws {
    guard !rest.isEmpty else { return }
    let header = try Tagscope_Firebase_Batch(serializedBytes: rest, options: options(level: 0))
    FirebaseUnknownFields.collect(header, place: "upload", into: &unknown)
  }

  /// Decoding options for a message `level` messages below the batch: the nesting left of
  /// ``FirebaseUploadShape/depthLimit``, as when the batch is decoded whole.
  static func options(level: Int) -> BinaryDecodingOptions {
    var options = BinaryDecodingOptions()
    options.messageDepthLimit = FirebaseUploadShape.depthLimit - level
    return options
  }
}
