import AnalyticsHub
import NIOHTTP1
import TagscopeRecording

/// A request body that must be one JSON object (sent as JSON, `text/plain` or with no type), read
/// once for the endpoints that take one: the object, or why it was refused, for the endpoint to
/// answer in its vendor's error form.
enum JSONObjectBody {
  /// Why a body was refused: the status, the message and the counter's reason.
  struct Refusal: Error {
    let status: HTTPResponseStatus
    let message: String
    let reason: RejectionReason
  }

  /// The body of `request` as a JSON object.
  static func read(_ request: ReceivedRequest) -> Result<Properties, Refusal> {
    guard request.isJSON || request.mediaType == "text/plain" || request.mediaType == nil else {
      return .failure(
        Refusal(
          status: .badRequest, message: "Content-Type must be application/json", reason: .wrongContentType))
    }
    let body: PropertyValue
    do { body = try JSONParser.parse(request.body) } catch {
      return .failure(Refusal(status: .badRequest, message: "Invalid JSON: \(error)", reason: .malformedJSON))
    }
    guard case .object(let fields) = body else {
      return .failure(
        Refusal(status: .badRequest, message: "The body must be a JSON object", reason: .malformedJSON))
    }
    return .success(fields)
  }
}
