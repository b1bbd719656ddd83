import AnalyticsHub
import NIOConcurrencyHelpers

/// A Firebase upload of more than ``BulkDelivery/offloadEvents`` records checked whole and kept as
/// its protobuf with where each record's message is, its records built a slice at a time as they
/// are delivered (``EventBatch``, ``BulkDelivery``; a smaller one is built at once,
/// ``FirebaseUploadBuilder``):
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
  /// The upload's unknown fields: the note on every record, and the report on the first
  /// (``FirebaseUnknownFields/summary(_:)``, as the builder takes them).
  private let unknown: FirebaseUnknownFields.Summary?
  /// The context of the bundle read last: a bundle's records usually span several slices.
  private let lastContext = NIOLockedValueBox<BundleContext?>(nil)

  /// What every record of one bundle shares.
  private struct BundleContext: Sendable {
    var owner: Int
    var common: Properties
    var identity: DeviceIdentity
    /// The places of its events and user properties.
    var places: FirebaseRecordPlaces

    init(owner: Int, common: Properties, identity: DeviceIdentity, bundle: UInt32) {
      self.owner = owner
      self.common = common
      self.identity = identity
      places = FirebaseRecordPlaces(bundle: Int(bundle))
    }
  }

  private init(
    bytes: [UInt8], records: Records, bundles: [Range<UInt32>], bundleNumbers: [UInt32], unknown: [String]
  ) {
    self.bytes = bytes
    self.records = records
    self.bundles = bundles
    self.bundleNumbers = bundleNumbers
    self.unknown = FirebaseUnknownFields.summary(unknown)
  }

  /// The records at `positions`, built.
  func events(_ positions: Range<Int>) -> [IngestedEvent] {
    var context = lastContext.withLockedValue { $0 }
    var built: [IngestedEvent] = []
    built.reserveCapacity(positions.count)
    var owner = positions.isEmpty ? 0 : records.owner(positions.lowerBound)
    var parameters: [FirebaseParameterValue] = []
    for position in positions {
      while owner + 1 < records.bundleCount, records.firstEvent(owner + 1) <= position { owner += 1 }
      if context?.owner != owner { context = self.context(owner) }
      let firstProperty = records.firstProperty(owner)
      let isProperty = position >= firstProperty
      let ordinal = position - (isProperty ? firstProperty : records.firstEvent(owner))
      guard let context else {
        unread.add(
          Self.place(bundle: bundleNumbers[owner], isProperty: isProperty, ordinal) + " (its bundle)")
        continue
      }
      guard
        var record = record(
          position, isProperty: isProperty, ordinal: ordinal, context: context, parameters: &parameters)
      else {
        unread.add(Self.place(bundle: bundleNumbers[owner], isProperty: isProperty, ordinal))
        continue
      }
      if position == 0 { unknown?.report?.add(toFresh: &record) }
      built.append(consume record)
    }
    lastContext.withLockedValue { $0 = context }
    return built
  }

  /// Where a record is, as its problems name it: `bundle 2 event 5`, `bundle 1 user property 3`.
  private static func place(bundle: UInt32, isProperty: Bool, _ ordinal: Int) -> String {
    "bundle \(bundle) \(isProperty ? "user property" : "event") \(ordinal + 1)"
  }

  /// The record at `position` (the `ordinal`th event or user property of its bundle), built
  /// from ``bytes`` (checked: it reads), `nil` when it does not read again; `parameters` is the
  /// events' room for their parameters.
  private func record(
    _ position: Int, isProperty: Bool, ordinal: Int, context: BundleContext,
    parameters: inout [FirebaseParameterValue]
  ) -> IngestedEvent? {
    let span = records.span(position)
    var ignored: [String] = []
    return bytes.withUnsafeBufferPointer { buffer in
      if isProperty {
        guard let property = try? FirebaseMessageReading.property(buffer, span, place: "", into: &ignored)
        else { return nil }
        return FirebaseUploadRecords.record(
          property, identity: context.identity, common: context.common,
          place: context.places.property(ordinal + 1))
      }
      guard
        let event = try? FirebaseMessageReading.event(
          buffer, span, parameters: &parameters, place: "", into: &ignored)
      else { return nil }
      return FirebaseUploadRecords.record(
        event, parameters: &parameters, identity: context.identity, common: context.common,
        place: context.places.event(ordinal + 1))
    }
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
    var (events, propertySpans): ([Range<Int>], [Range<Int>]) = ([], [])
    var properties: [FirebasePropertyFields] = []
    let context: Properties? = bytes.withUnsafeBufferPointer { buffer in
      guard
        let context = try? FirebaseMessageReading.bundle(
          buffer, range, events: &events, properties: &propertySpans, place: "", into: &ignored)
      else { return nil }
      for span in propertySpans {
        if let property = try? FirebaseMessageReading.property(buffer, span, place: "", into: &ignored) {
          properties.append(property)
        }
      }
      return context
    }
    guard let context else { return nil }
    return BundleContext(
      owner: owner, common: FirebaseUploadRecords.common(context: context, unknownNote: unknown?.note),
      identity: FirebaseUploadIdentity.of(context: context, userProperties: properties),
      bundle: bundleNumbers[owner])
  }

}

extension FirebaseUploadIndex {
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
    // The events' room for their parameters, and where a bundle's messages are, reused: each is
    // read and let go.
    var parameters: [FirebaseParameterValue] = []
    var (events, properties): ([Range<Int>], [Range<Int>]) = ([], [])
    do {
      try protobuf.withUnsafeBufferPointer { buffer in
        let batch = FirebaseMessageSplit(buffer, 0..<buffer.count, children: (1, nil))
        try FirebaseMessageReading.batchFields(batch.rest, into: &unknown)
        for (index, range) in batch.first.enumerated() {
          let place = "bundle \(index + 1)"
          events.removeAll(keepingCapacity: true)
          properties.removeAll(keepingCapacity: true)
          _ = try FirebaseMessageReading.bundle(
            buffer, range, events: &events, properties: &properties, place: place, into: &unknown)
          for (position, span) in events.enumerated() {
            _ = try FirebaseMessageReading.event(
              buffer, span, parameters: &parameters, place: "\(place) event \(position + 1)", into: &unknown)
            records.append(span)
          }
          for (position, span) in properties.enumerated() {
            _ = try FirebaseMessageReading.property(
              buffer, span, place: "\(place) user property \(position + 1)", into: &unknown)
            records.append(span)
          }
          guard !events.isEmpty || !properties.isEmpty else { continue }
          records.endBundle(events: events.count, properties: properties.count)
          bundles.append(UInt32(range.lowerBound)..<UInt32(range.upperBound))
          bundleNumbers.append(UInt32(index + 1))
        }
      }
    } catch {
      return .failure(FirebaseUploadError.words(error))
    }
    return .success(
      FirebaseUploadIndex(
        bytes: protobuf, records: records, bundles: bundles, bundleNumbers: bundleNumbers, unknown: unknown))
  }
}
