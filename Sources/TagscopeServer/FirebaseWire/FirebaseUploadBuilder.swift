import AnalyticsHub

/// A Firebase upload of at most ``BulkDelivery/offloadEvents`` records (what a request holds as a
/// rule) checked and read into its records in one pass, a bundle at a time: the bundle's own fields
/// once (its context, where its events and user properties are, the fields the schema lacks:
/// ``FirebaseWireWalk/bundle(_:_:events:properties:unknown:place:)``), its user properties (who
/// sent it), then each event straight from the wire into its record, no message made for it. A
/// message the walk does not read is decoded by SwiftProtobuf (``FirebaseMessageReading``), which
/// keeps, reports or refuses it as decoding the batch whole does: the records are that decoding's.
/// A larger upload is indexed and built a slice at a time instead (``FirebaseUploadIndex``).
struct FirebaseUploadBuilder {
  private let buffer: UnsafeBufferPointer<UInt8>
  private var records: [IngestedEvent] = []
  /// The fields the schema lacks, in the order decoding the batch whole lists them.
  private var unknown: [String] = []
  /// Where each bundle's records begin, the annotations they share (its context, then the note of
  /// the fields the schema lacks they carry), and how many of those are its context.
  private var commons: [(first: Int, common: Properties, context: Int)] = []
  /// Where every bundle's events and user properties are, bundle after bundle.
  private var eventSpans: [Range<Int>] = []
  private var propertySpans: [Range<Int>] = []
  // Reused from event to event and bundle to bundle: no array made per message.
  private var parameters: [FirebaseParameterValue] = []
  private var properties: [FirebasePropertyFields] = []

  /// A bundle's own fields, read before any record is made.
  private struct Bundle {
    var number: Int
    var context: Properties
    /// Its events' and user properties' places in ``eventSpans`` and ``propertySpans``.
    var events: Range<Int>
    var properties: Range<Int>
    /// The fields the schema lacks among its own.
    var unknown: [String]
  }

  private init(buffer: UnsafeBufferPointer<UInt8>) {
    self.buffer = buffer
  }

  /// The records of `protobuf` (walked by ``FirebaseUploadShape/check(_:)``: within its limits,
  /// `count` events and user properties), or why the schema refuses it.
  ///
  /// Every bundle's own fields are read first: the fields the schema lacks there (the usual ones:
  /// a field newer than the schema) are then known before any record is made, and each record
  /// carries them from its start; only one an event or user property holds makes the records
  /// take them again at the end.
  static func records(_ protobuf: [UInt8], count: Int) -> Result<[IngestedEvent], FirebaseUploadError> {
    build(protobuf, expecting: count, atMost: nil)
  }

  /// The records of `protobuf` built before any walk, when it holds at most `atMost` events and
  /// user properties; `nil` when it holds more (found before any record is made) or the schema
  /// refuses it: the caller then walks it (``FirebaseUploadShape/check(_:)``), which names the
  /// place of what it refuses. Only for a body no larger than
  /// ``FirebaseUploadShape/unwalkedBytes``, which no limit of the walk can refuse.
  static func unwalkedRecords(_ protobuf: [UInt8], atMost: Int) -> [IngestedEvent]? {
    guard protobuf.count <= FirebaseUploadShape.unwalkedBytes,
      case .success(let records) = build(protobuf, expecting: nil, atMost: atMost)
    else { return nil }
    return records
  }

  /// The records of `protobuf`, room made for `expecting` of them (else for as many as its
  /// bundles hold, once they are read); refused as too many when it holds more than `atMost`
  /// (counted from its bundles, before any record is made).
  private static func build(_ protobuf: [UInt8], expecting: Int?, atMost: Int?)
    -> Result<[IngestedEvent], FirebaseUploadError>
  {
    protobuf.withUnsafeBufferPointer { buffer in
      var builder = FirebaseUploadBuilder(buffer: buffer)
      // Room made once, for what an upload usually holds (each grown from nothing, an upload at
      // a time, was a tenth of the allocations of reading one); spans unknown in number take
      // room for an event per 32 bytes, the size of a small one.
      let count = expecting ?? Swift.min(atMost ?? 0, buffer.count / 32)
      builder.eventSpans.reserveCapacity(count)
      builder.propertySpans.reserveCapacity(count)
      builder.parameters.reserveCapacity(16)
      builder.properties.reserveCapacity(Swift.min(count, 16))
      do {
        let batch = FirebaseMessageSplit(buffer, 0..<buffer.count, children: (1, nil))
        try FirebaseMessageReading.batchFields(batch.rest, into: &builder.unknown)
        var bundles: [Bundle] = []
        bundles.reserveCapacity(batch.first.count)
        builder.commons.reserveCapacity(batch.first.count)
        for (index, range) in batch.first.enumerated() {
          bundles.append(try builder.bundle(range, number: index + 1))
          let spans = builder.eventSpans.count + builder.propertySpans.count
          if let atMost, spans > atMost { return .failure(.tooManyRecords(spans)) }
        }
        builder.records.reserveCapacity(builder.eventSpans.count + builder.propertySpans.count)
        var known = builder.unknown
        for bundle in bundles { known += bundle.unknown }
        let summary = FirebaseUnknownFields.summary(known)
        for index in bundles.indices {
          try builder.build(&bundles[index], note: summary?.note)
        }
        if builder.records.isEmpty, !protobuf.isEmpty {
          builder.records.append(
            FirebaseUploadRecords.request(
              context: bundles.first?.context ?? Properties(), unknownNote: summary?.note,
              bundles: bundles.count))
        }
        return .success(builder.finished(carrying: known.count, summary: summary))
      } catch {
        return .failure(FirebaseUploadError.words(error))
      }
    }
  }

  /// Bundle `number` at `range`: its own fields, and where its events and user properties are.
  private mutating func bundle(_ range: Range<Int>, number: Int) throws -> Bundle {
    let (events, properties) = (eventSpans.count, propertySpans.count)
    var unknown: [String] = []
    let context = try FirebaseMessageReading.bundle(
      buffer, range, events: &eventSpans, properties: &propertySpans, place: "bundle \(number)",
      into: &unknown)
    return Bundle(
      number: number, context: context, events: events..<eventSpans.count,
      properties: properties..<propertySpans.count, unknown: unknown)
  }

  /// Makes the records of `bundle`, each carrying `note` (the fields the schema lacks known so far).
  private mutating func build(_ bundle: inout Bundle, note: PropertyValue?) throws {
    let number = bundle.number
    unknown += bundle.unknown
    guard !bundle.events.isEmpty || !bundle.properties.isEmpty else { return }
    // Who sent it, from its user properties, read before its events (whose records carry it);
    // their unknown fields listed after the events', as decoding the batch whole lists them.
    var propertiesUnknown: [String] = []
    properties.removeAll(keepingCapacity: true)
    for (position, span) in propertySpans[bundle.properties].enumerated() {
      properties.append(
        try FirebaseMessageReading.property(
          buffer, span, place: "bundle \(number) user property \(position + 1)", into: &propertiesUnknown))
    }
    let identity = FirebaseUploadIdentity.of(context: bundle.context, userProperties: properties)
    // The context moved out of the bundle, held once: the note then joins it in place (a copy
    // shared with the bundle took a copy of its two dozen pairs first).
    var context = Properties()
    swap(&context, &bundle.context)
    let contextCount = context.count
    let common = FirebaseUploadRecords.common(context: context, unknownNote: note)
    commons.append((records.count, common, contextCount))
    let places = FirebaseRecordPlaces(bundle: number)
    for (position, span) in eventSpans[bundle.events].enumerated() {
      let event = try FirebaseMessageReading.event(
        buffer, span, parameters: &parameters, place: "bundle \(number) event \(position + 1)",
        into: &unknown)
      records.append(
        FirebaseUploadRecords.record(
          event, parameters: &parameters, identity: identity, common: common,
          place: places.event(position + 1)))
    }
    unknown += propertiesUnknown
    for (position, property) in properties.enumerated() {
      records.append(
        FirebaseUploadRecords.record(
          property, identity: identity, common: common,
          place: places.property(position + 1)))
    }
  }

  /// The records, with the upload's fields the schema lacks on the first (``FieldAccount``); when
  /// events or user properties held some (more than the `carried` ones every record carries, whose
  /// `summary` is known), every record's annotations take them all, after its bundle's context
  /// (``FirebaseUploadRecords/common(context:unknownNote:)``).
  private mutating func finished(carrying carried: Int, summary: FirebaseUnknownFields.Summary?)
    -> [IngestedEvent]
  {
    let summary = unknown.count > carried ? FirebaseUnknownFields.summary(unknown) : summary
    if unknown.count > carried, let note = summary?.note {
      for (index, bundle) in commons.enumerated() {
        let end = index + 1 < commons.count ? commons[index + 1].first : records.count
        let context = Properties(bundle.common.prefix(bundle.context).map { ($0.key, $0.value) })
        let common = FirebaseUploadRecords.common(context: context, unknownNote: note)
        for position in bundle.first..<end {
          var annotations = Properties(extending: common)
          let own = records[position].annotations.dropFirst(bundle.common.count)
          annotations.reserveCapacity(common.count + own.count)
          for (key, value) in own { annotations.appendUnchecked(key, value) }
          records[position].annotations = annotations
        }
      }
    }
    summary?.report?.addToFirst(ofFresh: &records)
    return records
  }
}
