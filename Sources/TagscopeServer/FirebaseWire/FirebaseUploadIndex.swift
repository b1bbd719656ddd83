import AnalyticsHub
import NIOConcurrencyHelpers
import SwiftProtobuf

/// A Firebase upload checked whole and kept as its protobuf with where each record's message is,
/// its records built a slice at a time as they are delivered (``EventBatch``, ``BulkDelivery``):
/// 4,000 events of 12 bytes each then cost the body and 6 bytes an event (a start and a length;
/// a record's bundle and place in it come from the bundles' first records), not 4,000 decoded
/// messages and records at once.
///
/// Checking reads every bundle (without its events and user properties), event and user property
/// once, alone, straight from the wire (``FirebaseWireWalk``; SwiftProtobuf decodes one the walk
/// leaves, collecting the fields the schema does not know), and lets it go; so building a slice
/// cannot fail. Records come in the upload's order (a bundle's events, then its
/// user properties), each with its bundle's context, as the upload decoded whole gives them.
final class FirebaseUploadIndex: Sendable {
  /// Records in the upload.
  var count: Int { records.count }
  /// The records the check read but building them could not read again (``UnreadEvents``).
  let unread = UnreadEvents()

  /// The upload's protobuf.
  private let bytes: [UInt8]
  /// Where each record's message is in ``bytes``, and where each bundle's records begin.
  private let records: Records
  /// The bundles that hold records: where each is, and its number in the upload (from 1).
  private let bundles: [Range<UInt32>]
  private let bundleNumbers: [UInt32]
  /// The upload's unknown fields: the annotation of every record, and the first record's account.
  private let unknownNote: PropertyValue?
  private let account: FieldAccount
  /// The messages of the records, decoded by the check, kept when there are few (an upload
  /// answered at once, ``BulkDelivery/offloadEvents`` records at most): not decoded twice.
  private let messages: [Message]?
  /// The contexts of the bundles, made from the messages the check decoded, kept with
  /// ``messages``: a bundle is not decoded again for its records.
  private let contexts: [BundleContext]?
  /// The context of the bundle read last: a bundle's records usually span several slices.
  private let lastContext = NIOLockedValueBox<BundleContext?>(nil)

  /// A record's message, read (``FirebaseWireWalk``, else decoded by SwiftProtobuf).
  private enum Message: Sendable {
    case event(FirebaseEventFields)
    case property(FirebasePropertyFields)
  }

  /// What every record of one bundle shares.
  private struct BundleContext: Sendable {
    var owner: Int
    var common: Properties
    var identity: DeviceIdentity
    /// The places of its events and user properties but their number: `bundle 2 event `.
    var eventPlace: String
    var propertyPlace: String

    init(owner: Int, common: Properties, identity: DeviceIdentity, bundle: UInt32) {
      self.owner = owner
      self.common = common
      self.identity = identity
      eventPlace = "bundle \(bundle) event "
      propertyPlace = "bundle \(bundle) user property "
    }
  }

  private init(
    bytes: [UInt8], records: Records, messages: [Message]?, decodedBundles: [DecodedBundle]?,
    bundles: [Range<UInt32>], bundleNumbers: [UInt32], unknown: [String]
  ) {
    self.bytes = bytes
    self.messages = messages
    self.records = records
    self.bundles = bundles
    self.bundleNumbers = bundleNumbers
    let unknownNote = FirebaseUploadRecords.note(unknown)
    self.unknownNote = unknownNote
    account = FirebaseUnknownFields.account(unknown)
    contexts = decodedBundles?.enumerated().map { owner, decoded in
      BundleContext(
        owner: owner,
        common: FirebaseUploadRecords.common(context: decoded.context, unknownNote: unknownNote),
        identity: FirebaseUploadIdentity.of(context: decoded.context, properties: decoded.properties),
        bundle: bundleNumbers[owner])
    }
  }

  /// The records at `positions`, built.
  func events(_ positions: Range<Int>) -> [IngestedEvent] {
    var context = lastContext.withLockedValue { $0 }
    var built: [IngestedEvent] = []
    built.reserveCapacity(positions.count)
    var owner = positions.isEmpty ? 0 : records.owner(positions.lowerBound)
    for position in positions {
      while owner + 1 < records.bundleCount, records.firstEvent(owner + 1) <= position { owner += 1 }
      if context?.owner != owner { context = contexts?[owner] ?? self.context(owner) }
      let firstProperty = records.firstProperty(owner)
      let isProperty = position >= firstProperty
      let ordinal = position - (isProperty ? firstProperty : records.firstEvent(owner))
      guard let context else {
        unread.add(
          Self.place(bundle: bundleNumbers[owner], isProperty: isProperty, ordinal) + " (its bundle)")
        continue
      }
      let kept = messages?[position]
      guard let message = kept ?? read(position, isProperty: isProperty) else {
        unread.add(Self.place(bundle: bundleNumbers[owner], isProperty: isProperty, ordinal))
        continue
      }
      var record: IngestedEvent
      switch message {
      case .event(let event):
        record = FirebaseUploadRecords.record(
          event, identity: context.identity, common: context.common,
          place: context.eventPlace + String(ordinal + 1))
      case .property(let property):
        record = FirebaseUploadRecords.record(
          property, identity: context.identity, common: context.common,
          place: context.propertyPlace + String(ordinal + 1))
      }
      if position == 0 { account.add(to: &record) }
      built.append(consume record)
    }
    lastContext.withLockedValue { $0 = context }
    return built
  }

  /// Where a record is, as its problems name it: `bundle 2 event 5`, `bundle 1 user property 3`.
  private static func place(bundle: UInt32, isProperty: Bool, _ ordinal: Int) -> String {
    "bundle \(bundle) \(isProperty ? "user property" : "event") \(ordinal + 1)"
  }

  /// The message of the record at `position`, read from ``bytes`` (checked: it reads).
  private func read(_ position: Int, isProperty: Bool) -> Message? {
    let span = records.span(position)
    var ignored: [String] = []
    return bytes.withUnsafeBufferPointer { buffer in
      if isProperty {
        return (try? Self.property(buffer, span, place: "", into: &ignored)).map(Message.property)
      }
      return (try? Self.event(buffer, span, place: "", into: &ignored)).map(Message.event)
    }
  }

  /// The event at `span` of `buffer`: walked (``FirebaseWireWalk``), else decoded by SwiftProtobuf
  /// (a rare message: a field the schema lacks, or a refusal), its unknown fields then appended to
  /// `unknown` at `place`.
  private static func event(
    _ buffer: UnsafeBufferPointer<UInt8>, _ span: Range<Int>,
    place: @autoclosure () -> String, into unknown: inout [String]
  ) throws -> FirebaseEventFields {
    if let event = FirebaseWireWalk.event(buffer, span) { return event }
    let event = try Tagscope_Firebase_Event(serializedBytes: Array(buffer[span]), options: options(level: 2))
    FirebaseUnknownFields.collect(event: event, place: place(), into: &unknown)
    return FirebaseEventFields(event)
  }

  /// ``event(_:_:place:into:)`` for the user property at `span`.
  private static func property(
    _ buffer: UnsafeBufferPointer<UInt8>, _ span: Range<Int>,
    place: @autoclosure () -> String, into unknown: inout [String]
  ) throws -> FirebasePropertyFields {
    if let property = FirebaseWireWalk.property(buffer, span) { return property }
    let property = try Tagscope_Firebase_UserProperty(
      serializedBytes: Array(buffer[span]), options: options(level: 2))
    FirebaseUnknownFields.collect(property, place: place(), into: &unknown)
    return FirebasePropertyFields(property)
  }

  /// The upload's records as a batch delivered a slice at a time.
  var batch: EventBatch {
    let largest = records.largest
    return EventBatch(count: count, bytes: bytes.count, largestEventBytes: largest, unread: unread) {
      [self] positions in
      events(positions)
    }
  }

  /// The context of bundle `owner`, read again from its bytes.
  private func context(_ owner: Int) -> BundleContext? {
    let range = Int(bundles[owner].lowerBound)..<Int(bundles[owner].upperBound)
    var ignored: [String] = []
    var properties: [String: FirebasePropertyFields] = [:]
    let context: Properties? = bytes.withUnsafeBufferPointer { buffer in
      guard let context = try? Self.context(buffer, range, place: "", into: &ignored) else { return nil }
      guard !FirebaseUploadIdentity.propertyNames.isEmpty else { return context }
      for span in FirebaseMessageSplit(buffer, range, children: (2, 3), rest: false).second {
        guard let property = try? Self.property(buffer, span, place: "", into: &ignored),
          FirebaseUploadIdentity.propertyNames.contains(property.name)
        else { continue }
        properties[property.name] = property
      }
      return context
    }
    guard let context else { return nil }
    return BundleContext(
      owner: owner, common: FirebaseUploadRecords.common(context: context, unknownNote: unknownNote),
      identity: FirebaseUploadIdentity.of(context: context, properties: properties),
      bundle: bundleNumbers[owner])
  }

  /// The context of the bundle at `range` of `buffer`: walked (``FirebaseWireWalk``), else its
  /// fields but its events and user properties decoded by SwiftProtobuf, their unknown fields then
  /// appended to `unknown` at `place`.
  private static func context(
    _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, place: @autoclosure () -> String,
    into unknown: inout [String]
  ) throws -> Properties {
    if let context = FirebaseWireWalk.context(buffer, range) { return context }
    let split = FirebaseMessageSplit(buffer, range, children: (2, 3))
    let bundle = try Tagscope_Firebase_Bundle(serializedBytes: split.rest, options: options(level: 1))
    FirebaseUnknownFields.collect(bundle, place: place(), into: &unknown)
    return FirebaseWireWalk.context(buffer, range, passingUnknown: true)
      ?? FirebaseUploadRecords.context(bundle)
  }

  /// Decoding options for a message `level` messages below the batch: the nesting left of
  /// ``FirebaseUploadShape/depthLimit``, as when the batch is decoded whole.
  private static func options(level: Int) -> BinaryDecodingOptions {
    var options = BinaryDecodingOptions()
    options.messageDepthLimit = FirebaseUploadShape.depthLimit - level
    return options
  }
}

extension FirebaseUploadIndex {
  /// The context of a bundle with records as the check read it (``FirebaseUploadRecords/context(_:)``),
  /// with those of its user properties that ``FirebaseUploadIdentity`` reads, by name.
  private struct DecodedBundle {
    var context: Properties
    var properties: [String: FirebasePropertyFields]
  }

  /// Where the records are, as the check finds them: each record's start and length in the body
  /// (a length past 16 bits kept apart), and by bundle with records the position of its first event
  /// and of its first user property (a bundle's events come before its user properties).
  private struct Records: Sendable {
    private var starts: [UInt32] = []
    private var lengths: [UInt16] = []
    private var wideLengths: [Int: UInt32] = [:]
    private var firstEvents: [UInt32] = []
    private var firstProperties: [UInt32] = []
    /// The longest record's message, in bytes.
    private(set) var largest = 0

    /// Room for `count` records, as the shape check counted them: no array grows twice its size.
    init(count: Int) {
      starts.reserveCapacity(count)
      lengths.reserveCapacity(count)
    }

    var count: Int { starts.count }
    var bundleCount: Int { firstEvents.count }

    /// The position of bundle `owner`'s first event (or, with none, first user property).
    func firstEvent(_ owner: Int) -> Int { Int(firstEvents[owner]) }

    /// The position of bundle `owner`'s first user property (past its events).
    func firstProperty(_ owner: Int) -> Int { Int(firstProperties[owner]) }

    /// The bundle of the record at `position` (binary search: bundles' first records rise).
    func owner(_ position: Int) -> Int {
      var low = 0
      var high = firstEvents.count - 1
      while low < high {
        let middle = (low + high + 1) / 2
        if Int(firstEvents[middle]) <= position { low = middle } else { high = middle - 1 }
      }
      return low
    }

    /// Where the record at `position` is in the body.
    func span(_ position: Int) -> Range<Int> {
      let start = Int(starts[position])
      let length = lengths[position] == UInt16.max ? Int(wideLengths[position] ?? 0) : Int(lengths[position])
      return start..<start + length
    }

    mutating func append(_ span: Range<Int>) {
      if span.count < Int(UInt16.max) {
        lengths.append(UInt16(span.count))
      } else {
        wideLengths[starts.count] = UInt32(span.count)
        lengths.append(UInt16.max)
      }
      starts.append(UInt32(span.lowerBound))
      largest = max(largest, span.count)
    }

    /// Ends a bundle with records: its `events` records then `properties` were appended last.
    mutating func endBundle(events: Int, properties: Int) {
      firstEvents.append(UInt32(count - events - properties))
      firstProperties.append(UInt32(count - properties))
    }
  }

  /// Checks `protobuf` (already walked by ``FirebaseUploadShape/check(_:)``: within its limits,
  /// at most ``FirebaseUploadEndpoint/limit`` bytes, `records` events and user properties) by
  /// reading each of its messages once, and indexes its records; or why the schema refuses it.
  static func make(_ protobuf: [UInt8], records count: Int) -> Result<
    FirebaseUploadIndex, FirebaseUploadError
  > {
    var records = Records(count: count)
    var bundles: [Range<UInt32>] = []
    var bundleNumbers: [UInt32] = []
    var unknown: [String] = []
    var messages: [Message]? = count > BulkDelivery.offloadEvents ? nil : []
    messages?.reserveCapacity(count)
    var decodedBundles: [DecodedBundle]? = messages == nil ? nil : []
    do {
      try protobuf.withUnsafeBufferPointer { buffer in
        let batch = FirebaseMessageSplit(buffer, 0..<buffer.count, children: (1, nil))
        // A batch is its bundles alone as a rule: nothing else to decode (an empty message,
        // decoded, holds nothing and refuses nothing).
        if !batch.rest.isEmpty {
          let header = try Tagscope_Firebase_Batch(serializedBytes: batch.rest, options: options(level: 0))
          FirebaseUnknownFields.collect(header, place: "upload", into: &unknown)
        }
        for (index, range) in batch.first.enumerated() {
          let split = FirebaseMessageSplit(buffer, range, children: (2, 3), rest: false)
          let place = "bundle \(index + 1)"
          let context = try Self.context(buffer, range, place: place, into: &unknown)
          for (position, span) in split.first.enumerated() {
            let event = try Self.event(buffer, span, place: "\(place) event \(position + 1)", into: &unknown)
            records.append(span)
            messages?.append(.event(event))
          }
          var identityProperties: [String: FirebasePropertyFields] = [:]
          for (position, span) in split.second.enumerated() {
            let property = try Self.property(
              buffer, span, place: "\(place) user property \(position + 1)", into: &unknown)
            records.append(span)
            messages?.append(.property(property))
            if FirebaseUploadIdentity.propertyNames.contains(property.name) {
              identityProperties[property.name] = property
            }
          }
          guard !split.first.isEmpty || !split.second.isEmpty else { continue }
          records.endBundle(events: split.first.count, properties: split.second.count)
          decodedBundles?.append(DecodedBundle(context: context, properties: identityProperties))
          bundles.append(UInt32(range.lowerBound)..<UInt32(range.upperBound))
          bundleNumbers.append(UInt32(index + 1))
        }
      }
    } catch {
      return .failure(FirebaseUploadError.words(error))
    }
    return .success(
      FirebaseUploadIndex(
        bytes: protobuf, records: records, messages: messages, decodedBundles: decodedBundles,
        bundles: bundles, bundleNumbers: bundleNumbers, unknown: unknown))
  }
}
