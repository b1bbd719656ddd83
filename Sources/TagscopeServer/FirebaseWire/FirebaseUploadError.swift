import SwiftProtobuf

/// Why a Firebase upload was refused, in words that name the place; the request's events are not
/// recorded, nothing else is lost.
enum FirebaseUploadError: Error, Equatable {
  /// Larger than the endpoint's limit once decompressed.
  case tooLarge
  /// Starts as gzip or zlib but does not decompress.
  case doesNotDecompress(String)
  /// Not protobuf at `offset` of the decompressed body (`place`: in which message).
  case notProtobuf(place: String, offset: Int, truncated: Bool)
  /// Nested deeper than a Firebase upload ever is.
  case tooDeep(place: String)
  /// More events and user properties than one upload holds.
  case tooManyRecords(Int)
  /// More messages (parameters, items) than the limit.
  case tooManyMessages(Int)
  /// Protobuf the schema refuses (a string field that is not UTF-8, say).
  case schema(String)

  /// The refusal as the reply's text.
  var message: String {
    switch self {
    case .tooLarge:
      return "Firebase upload: body larger than \(FirebaseUploadEndpoint.limit) bytes decompressed"
    case .doesNotDecompress(let encoding):
      return "Firebase upload: the body starts as \(encoding) but does not decompress"
    case .notProtobuf(let place, let offset, let truncated):
      return
        "Firebase upload: not protobuf at byte \(offset) of the decompressed body, in \(place): "
        + (truncated ? "a field runs past its end" : "an impossible field key")
    case .tooDeep(let place):
      return "Firebase upload: nested deeper than \(FirebaseUploadShape.depthLimit) messages at \(place)"
    case .tooManyRecords(let count):
      return
        "Firebase upload: \(count) events and user properties, over \(FirebaseUploadShape.recordLimit) per request"
    case .tooManyMessages(let count):
      return
        "Firebase upload: over \(FirebaseUploadShape.messageLimit) messages (\(count) counted) per request"
    case .schema(let detail): return "Firebase upload: \(detail)"
    }
  }

  /// The words of a decoding error of SwiftProtobuf.
  static func words(_ error: any Error) -> FirebaseUploadError {
    switch error as? BinaryDecodingError {
    case .invalidUTF8?: return .schema("a string field is not UTF-8")
    case .messageDepthLimit?: return .tooDeep(place: "a nested parameter")
    case .truncated?: return .schema("truncated protobuf")
    case .malformedProtobuf?: return .schema("malformed protobuf")
    default: return .schema("does not decode (\(error))")
    }
  }
}
