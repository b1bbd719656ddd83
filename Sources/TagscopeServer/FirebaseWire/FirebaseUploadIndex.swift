import AnalyticsHub
import NIOConcurrencyHelpers
import SwiftProtobuf

/// A Firebase upload checked whole and kept as its protobuf with where each record's message is,
/// its records built a slice at a time as they are delivered (``EventBatch``, ``BulkDelivery``):
/// 4,000 events of 12 bytes each then cost the body and 16 bytes an event, not 4,000 decoded
/// messages and records at once.
///
/// Checking decodes every bundle (without its events and user properties), event and user
/// property once, alone, and lets it go, collecting the fields the schema does not know; so
/// building a slice cannot fail. Records come in the upload's order (a bundle's events, then its
/// user properties), each with its bundle's context, as the upload decoded whole gives them.
final class FirebaseUploadIndex: Sendable {
  /// Records in the upload.
  var count: Int { starts.count }

  /// The upload's protobuf.
  private let bytes: [UInt8]
  /// Where each record's message starts and ends in ``bytes``.
  private let starts: [UInt32]
  private let ends: [UInt32]
  /// Each record's bundle, among ``bundles``.
  private let owners: [UInt32]
  /// Each record's position among its bundle's events, or (with ``propertyFlag``) user properties.
  private let ordinals: [UInt32]
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

  private static let propertyFlag: UInt32 = 1 << 31

  /// A record's message, decoded.
  private enum Message: Sendable {
    case event(Tagscope_Firebase_Event)
    case property(Tagscope_Firebase_UserProperty)
  }

  /// What every record of one bundle shares.
  private struct BundleContext: Sendable {
    var owner: Int
    var common: Properties
    var identity: DeviceIdentity
    var place: String
  }

  private init(
    bytes: [UInt8], records: Records, messages: [Message]?, decodedBundles: [DecodedBundle]?,
    bundles: [Range<UInt32>], bundleNumbers: [UInt32], unknown: [String]
  ) {
    self.bytes = bytes
    self.messages = messages
    (starts, ends, owners, ordinals) = (records.starts, records.ends, records.owners, records.ordinals)
    self.bundles = bundles
    self.bundleNumbers = bundleNumbers
    let unknownNote = FirebaseUploadRecords.note(unknown)
    self.unknownNote = unknownNote
    account = FirebaseUnknownFields.account(unknown)
    contexts = decodedBundles?.enumerated().map { owner, decoded in
      BundleContext(
        owner: owner, common: FirebaseUploadRecords.common(decoded.bundle, unknownNote: unknownNote),
        identity: FirebaseUploadIdentity.of(decoded.bundle, properties: decoded.properties),
        place: "bundle \(bundleNumbers[owner])")
    }
  }

  /// The records at `positions`, built.
  func events(_ positions: Range<Int>) -> [IngestedEvent] {
    var context = lastContext.withLockedValue { $0 }
    var records: [IngestedEvent] = []
    records.reserveCapacity(positions.count)
    let bytes = self.bytes
    let raw = bytes.span.bytes
    for position in positions {
      let owner = Int(owners[position])
      if context?.owner != owner { context = contexts?[owner] ?? self.context(owner) }
      guard let context else { continue }
      let ordinal = ordinals[position]
      let kept = messages?[position]
      guard let message = kept ?? decoded(raw, position, isProperty: ordinal & Self.propertyFlag != 0)
      else { continue }
      var record: IngestedEvent
      switch message {
      case .event(let event):
        record = FirebaseUploadRecords.record(
          event, identity: context.identity, common: context.common,
          place: "\(context.place) event \(ordinal + 1)")
      case .property(let property):
        record = FirebaseUploadRecords.record(
          property, identity: context.identity, common: context.common,
          place: "\(context.place) user property \((ordinal & ~Self.propertyFlag) + 1)")
      }
      if position == 0 { account.add(to: &record) }
      records.append(record)
    }
    lastContext.withLockedValue { $0 = context }
    return records
  }

  /// The message of the record at `position`, decoded from `raw` (``bytes``).
  private func decoded(_ raw: RawSpan, _ position: Int, isProperty: Bool) -> Message? {
    let message = raw.extracting(Int(starts[position])..<Int(ends[position]))
    if isProperty {
      return (try? Tagscope_Firebase_UserProperty(serializedBytes: message, options: Self.options(level: 2)))
        .map(Message.property)
    }
    return (try? Tagscope_Firebase_Event(serializedBytes: message, options: Self.options(level: 2)))
      .map(Message.event)
  }

  /// The upload's records as a batch delivered a slice at a time.
  var batch: EventBatch {
    let largest = zip(starts, ends).lazy.map { Int($1 - $0) }.max() ?? 0
    return EventBatch(count: count, largestEventBytes: largest) { [self] positions in events(positions) }
  }

  /// The context of bundle `owner`, read again from its bytes.
  private func context(_ owner: Int) -> BundleContext? {
    let range = Int(bundles[owner].lowerBound)..<Int(bundles[owner].upperBound)
    let split = bytes.withUnsafeBufferPointer { FirebaseMessageSplit($0, range, children: (2, 3)) }
    guard
      let bundle = try? Tagscope_Firebase_Bundle(serializedBytes: split.rest, options: Self.options(level: 1))
    else { return nil }
    var properties: [String: Tagscope_Firebase_UserProperty] = [:]
    if !FirebaseUploadIdentity.propertyNames.isEmpty {
      let bytes = self.bytes
      let raw = bytes.span.bytes
      for span in split.second {
        guard
          let property = try? Tagscope_Firebase_UserProperty(
            serializedBytes: raw.extracting(span), options: Self.options(level: 2)),
          FirebaseUploadIdentity.propertyNames.contains(property.name)
        else { continue }
        properties[property.name] = property
      }
    }
    return BundleContext(
      owner: owner, common: FirebaseUploadRecords.common(bundle, unknownNote: unknownNote),
      identity: FirebaseUploadIdentity.of(bundle, properties: properties),
      place: "bundle \(bundleNumbers[owner])")
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
  /// A bundle with records as the check decoded it (without its events and user properties),
  /// with those of its user properties that ``FirebaseUploadIdentity`` reads, by name.
  private struct DecodedBundle {
    var bundle: Tagscope_Firebase_Bundle
    var properties: [String: Tagscope_Firebase_UserProperty]
  }

  /// Where the records are, as the check finds them.
  private struct Records {
    var starts: [UInt32] = []
    var ends: [UInt32] = []
    var owners: [UInt32] = []
    var ordinals: [UInt32] = []

    mutating func append(_ span: Range<Int>, owner: Int, ordinal: UInt32) {
      starts.append(UInt32(span.lowerBound))
      ends.append(UInt32(span.upperBound))
      owners.append(UInt32(owner))
      ordinals.append(ordinal)
    }
  }

  /// Checks `protobuf` (already walked by ``FirebaseUploadShape/check(_:)``: within its limits,
  /// at most ``FirebaseUploadEndpoint/limit`` bytes) by decoding each of its messages once, and
  /// indexes its records; or why the schema refuses it.
  static func make(_ protobuf: [UInt8]) -> Result<FirebaseUploadIndex, FirebaseUploadError> {
    var records = Records()
    var bundles: [Range<UInt32>] = []
    var bundleNumbers: [UInt32] = []
    var unknown: [String] = []
    var messages: [Message]? = []
    var decodedBundles: [DecodedBundle]? = []
    func keep(_ message: Message) {
      guard messages != nil else { return }
      guard records.starts.count <= BulkDelivery.offloadEvents else {
        (messages, decodedBundles) = (nil, nil)
        return
      }
      messages?.append(message)
    }
    let raw = protobuf.span.bytes
    do {
      let batch = protobuf.withUnsafeBufferPointer {
        FirebaseMessageSplit($0, 0..<$0.count, children: (1, nil))
      }
      let header = try Tagscope_Firebase_Batch(serializedBytes: batch.rest, options: options(level: 0))
      FirebaseUnknownFields.collect(header, place: "upload", into: &unknown)
      for (index, range) in batch.first.enumerated() {
        let split = protobuf.withUnsafeBufferPointer { FirebaseMessageSplit($0, range, children: (2, 3)) }
        let place = "bundle \(index + 1)"
        let bundle = try Tagscope_Firebase_Bundle(serializedBytes: split.rest, options: options(level: 1))
        FirebaseUnknownFields.collect(bundle, place: place, into: &unknown)
        for (position, span) in split.first.enumerated() {
          let event = try Tagscope_Firebase_Event(
            serializedBytes: raw.extracting(span), options: options(level: 2))
          FirebaseUnknownFields.collect(event: event, place: "\(place) event \(position + 1)", into: &unknown)
          records.append(span, owner: bundles.count, ordinal: UInt32(position))
          keep(.event(event))
        }
        var identityProperties: [String: Tagscope_Firebase_UserProperty] = [:]
        for (position, span) in split.second.enumerated() {
          let property = try Tagscope_Firebase_UserProperty(
            serializedBytes: raw.extracting(span), options: options(level: 2))
          FirebaseUnknownFields.collect(
            property, place: "\(place) user property \(position + 1)", into: &unknown)
          records.append(span, owner: bundles.count, ordinal: UInt32(position) | propertyFlag)
          keep(.property(property))
          if FirebaseUploadIdentity.propertyNames.contains(property.name) {
            identityProperties[property.name] = property
          }
        }
        guard !split.first.isEmpty || !split.second.isEmpty else { continue }
        decodedBundles?.append(DecodedBundle(bundle: bundle, properties: identityProperties))
        bundles.append(UInt32(range.lowerBound)..<UInt32(range.upperBound))
        bundleNumbers.append(UInt32(index + 1))
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
