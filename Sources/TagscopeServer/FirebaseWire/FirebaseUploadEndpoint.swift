import NIOHTTP1
import SwiftProtobuf
import TagscopeVendors

/// Firebase Analytics' own uploads, `POST /a` to `app-measurement.com` (and its regional and iOS
/// hosts, ``Vendor/firebase``): a gzip'd protobuf batch of bundles of events and user properties
/// (``FirebaseUploadBody``, schema in `FirebaseWire/Schema`), recorded as the debug log reader
/// records the same events (``FirebaseUploadRecords``). Answers `204` with `Content-Type:
/// image/gif` and no body, as Google does. A body that is not a batch is refused whole with `400`
/// and the place where it stops being one; fields the schema does not know are kept and listed.
struct FirebaseUploadEndpoint: SDKEndpoint {
  /// The largest upload accepted, decompressed (``Vendor/Limit/firebaseUpload``).
  static let limit = Vendor.Limit.firebaseUpload.requestBytes

  var provider: String { FirebaseLogRecords.provider }
  var bodyLimit: Int { Self.limit }

  func replyTooLarge() -> SDKReply { Self.refusal(.tooLarge) }

  func handle(_ request: ReceivedRequest) -> SDKReply {
    switch Self.read(request.body) {
    case .failure(let error): return Self.refusal(error)
    case .success(.records(let records)): return Self.accepted(events: records)
    case .success(.index(let index)): return Self.accepted(index)
    }
  }

  /// ``handle(_:)`` for `listen` and the proxy: an upload of more than
  /// ``BulkDelivery/offloadEvents`` records is answered the same, checked whole, and its records
  /// built a slice at a time as they are delivered (``FirebaseUploadIndex``).
  func handleLazily(_ request: ReceivedRequest) -> SDKReply {
    switch Self.read(request.body) {
    case .failure(let error): return Self.refusal(error)
    case .success(.records(let records)): return Self.accepted(events: records)
    case .success(.index(let index)):
      var reply = Self.accepted(events: [])
      reply.batch = index.batch
      return reply
    }
  }

  /// The reply accepting the records of `index`, built.
  private static func accepted(_ index: FirebaseUploadIndex) -> SDKReply {
    var reply = accepted(events: index.events(0..<index.count))
    reply.unread = index.unread
    return reply
  }

  /// The records of an upload body as received (after any `Content-Encoding`), or why there are
  /// none; an event its check accepted but its index could not read again (``UnreadEvents``) fails
  /// it whole, so the tests and the bench never count an upload short without a word.
  static func decode(_ body: [UInt8]) -> Result<[IngestedEvent], FirebaseUploadError> {
    read(body).flatMap { read in
      switch read {
      case .records(let records): return .success(records)
      case .index(let index):
        let events = index.events(0..<index.count)
        if let problem = index.unread.problem { return .failure(.schema(problem)) }
        return .success(events)
      }
    }
  }

  /// An upload read: its records, or (past ``BulkDelivery/offloadEvents`` of them) where they
  /// are, to be built a slice at a time.
  enum Read {
    case records([IngestedEvent])
    case index(FirebaseUploadIndex)
  }

  /// An upload body as received checked whole (``FirebaseUploadShape``, then each message read
  /// once) and read, or why it is refused.
  ///
  /// A body the walk's counts cannot refuse (``FirebaseUploadShape/unwalkedBytes``) that the
  /// builder reads into at most ``BulkDelivery/offloadEvents`` records is built first, unwalked
  /// (the walk was a twentieth of reading a real upload); the walk runs for a body the builder
  /// refuses, and names where it stops being a batch. `walkingFirst` walks every body first, as
  /// the tests compare.
  static func read(_ body: [UInt8], walkingFirst: Bool = false) -> Result<Read, FirebaseUploadError> {
    FirebaseUploadBody.protobuf(body, limit: limit).flatMap { bytes in
      if !walkingFirst,
        let records = FirebaseUploadBuilder.unwalkedRecords(bytes, atMost: BulkDelivery.offloadEvents)
      {
        return .success(.records(records))
      }
      return FirebaseUploadShape.check(bytes).flatMap { counts in
        guard counts.records > BulkDelivery.offloadEvents else {
          return FirebaseUploadBuilder.records(bytes, count: counts.records).map(Read.records)
            .flatMapError { refusal in
              // The builder reads each bundle's own fields, then its user properties, before its
              // events: of two bad messages it may meet the later one first. The refusal named is
              // the one the index meets, reading in the wire's order as decoding the batch whole.
              FirebaseUploadIndex.make(bytes, records: counts.records).flatMap { _ in .failure(refusal) }
            }
        }
        return FirebaseUploadIndex.make(bytes, records: counts.records).map(Read.index)
      }
    }
  }

  /// The decompressed protobuf of an upload body as received, walked within its limits.
  private static func protobuf(_ body: [UInt8]) -> Result<[UInt8], FirebaseUploadError> {
    FirebaseUploadBody.protobuf(body, limit: limit).flatMap { bytes in
      FirebaseUploadShape.check(bytes).map { _ in bytes }
    }
  }

  private static func accepted(events: [IngestedEvent]) -> SDKReply {
    SDKReply(status: .noContent, contentType: "image/gif", body: "", events: events)
  }

  /// The batch of an upload body as received, checked before it is built (``FirebaseUploadShape``),
  /// as one tree of messages (the tests' and the bench's view; records come from ``read(_:)``).
  static func decodeBatch(_ body: [UInt8]) -> Result<Tagscope_Firebase_Batch, FirebaseUploadError> {
    let bytes: [UInt8]
    switch protobuf(body) {
    case .failure(let error): return .failure(error)
    case .success(let decoded): bytes = decoded
    }
    var options = BinaryDecodingOptions()
    options.messageDepthLimit = FirebaseUploadShape.depthLimit
    do {
      return .success(try Tagscope_Firebase_Batch(serializedBytes: bytes, options: options))
    } catch {
      return .failure(FirebaseUploadError.words(error))
    }
  }

  static func refusal(_ error: FirebaseUploadError) -> SDKReply {
    let rejection: RejectionReason
    switch error {
    case .tooLarge: rejection = .bodyTooLarge
    case .doesNotDecompress: rejection = .badEncoding
    case .tooManyRecords, .tooManyMessages: rejection = .tooManyEvents
    case .notProtobuf, .tooDeep, .schema: rejection = .invalidPayload
    }
    let status: HTTPResponseStatus = error == .tooLarge ? .payloadTooLarge : .badRequest
    return SDKReply(status: status, contentType: "text/plain", body: error.message, rejection: rejection)
  }
}
