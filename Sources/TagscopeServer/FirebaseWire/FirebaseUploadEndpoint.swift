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
    switch Self.decode(request.body) {
    case .failure(let error): return Self.refusal(error)
    case .success(let events):
      return SDKReply(status: .noContent, contentType: "image/gif", body: "", events: events)
    }
  }

  /// The records of an upload body as received (after any `Content-Encoding`), or why there are none.
  static func decode(_ body: [UInt8]) -> Result<[IngestedEvent], FirebaseUploadError> {
    decodeBatch(body).map { batch in
      let unknown = FirebaseUnknownFields.of(batch)
      var events = FirebaseUploadRecords.events(batch, unknown: unknown)
      FirebaseUnknownFields.account(unknown).add(to: &events)
      return events
    }
  }

  /// The batch of an upload body as received, checked before it is built (``FirebaseUploadShape``).
  static func decodeBatch(_ body: [UInt8]) -> Result<Tagscope_Firebase_Batch, FirebaseUploadError> {
    let bytes: [UInt8]
    switch FirebaseUploadBody.protobuf(body, limit: limit) {
    case .failure(let error): return .failure(error)
    case .success(let decoded): bytes = decoded
    }
    if case .failure(let error) = FirebaseUploadShape.check(bytes) { return .failure(error) }
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
