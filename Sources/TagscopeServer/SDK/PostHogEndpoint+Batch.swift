import AnalyticsHub
import TagscopeRecording

extension PostHogEndpoint {
  /// ``handle(_:)`` for the listen server: a batch of more than ``BulkDelivery/offloadEvents``
  /// events is answered the same, but checked event by event (each parsed alone and let go) and
  /// kept as its bytes (``SDKReply/batch``), its events decoded a slice at a time when delivered.
  func handleLazily(_ request: ReceivedRequest) -> SDKReply {
    let fields = Self.fields(request)
    guard request.method != .GET, let document = Self.document(request, fields: fields),
      let batch = try? Self.batchSpans(document), batch.spans.count > BulkDelivery.offloadEvents,
      document.count < Int(UInt32.max)
    else { return handle(request) }
    if let large = batch.spans.enumerated().first(where: { $0.element.count > Self.eventBytes }
    ) {
      return Self.eventTooBig(index: large.offset, bytes: large.element.count)
    }
    var credentials = Set<String>()
    let checked = document.withUnsafeBufferPointer { bytes -> SDKReply? in
      for (index, span) in batch.spans.enumerated() {
        guard case .object(let message)? = try? JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[span]))
        else {
          return Self.malformed("Malformed request data: event \(index) is not an object", .invalidPayload)
        }
        switch Self.check(message, apiKey: batch.apiKey) {
        case .failure(let refusal): return refusal.reply
        case .success(let checked): credentials.insert(checked.key)
        }
      }
      return nil
    }
    if let checked { return checked }
    let apiKey = batch.apiKey
    // The request's own fields, as ``handle(_:)`` checks them, go to its first record.
    let account = Self.requestAccount(fields: fields, batch: batch.members)
    var reply = SDKReply(status: .ok, body: #"{"status":1}"#)
    reply.batch = EventBatch(document: document, spans: batch.spans, credentials: credentials) {
      position, message in
      guard case .success(let checked) = Self.check(message, apiKey: apiKey) else { return nil }
      var event = Self.event(message, name: checked.name, apiKey: checked.key)
      if position == 0 { account.add(to: &event) }
      return event
    }
    return reply
  }

  /// An event's name and API key (the batch's, `apiKey`, else its own), or the reply refusing
  /// the batch for it.
  static func check(_ message: Properties, apiKey: String?) -> Result<(name: String, key: String), Refusal> {
    guard let name = Payload.string(message["event"]), !name.isEmpty else {
      return .failure(
        Refusal(
          reply: malformed(
            "Invalid payload: All events must have the event name field \"event\"!", .invalidPayload)))
    }
    let key =
      apiKey ?? Payload.text(message["api_key"])
      ?? Payload.text(Payload.object(message["properties"])["token"])
    guard let key, !key.isEmpty else {
      return .failure(
        Refusal(
          reply: error(
            .unauthorized, "authentication_error", "invalid_api_key",
            "API key not provided. You can find your project API key in PostHog project settings.",
            .invalidPayload)))
    }
    return .success((name, key))
  }

  /// The reply refusing a batch, as an error.
  struct Refusal: Error {
    var reply: SDKReply
  }

  /// The request's JSON document, as ``handle(_:)`` reads it: the body, or the `data` field of
  /// its `fields` (``dataField(_:)``: JSON, or base64 of JSON); `nil` when it is neither.
  private static func document(_ request: ReceivedRequest, fields: [(name: String, value: String)])
    -> [UInt8]?
  {
    let text: [UInt8]
    if request.isForm {
      guard let data = dataField(fields) else { return nil }
      text = Array(data.utf8)
    } else if request.isJSON || request.mediaType == nil || request.mediaType == "text/plain" {
      text = request.body
    } else {
      return nil
    }
    if isJSON(text) { return text }
    guard let decoded = Base64.decode(String(decoding: text, as: UTF8.self)), isJSON(decoded) else {
      return nil
    }
    return decoded
  }

  /// Whether `bytes` are one JSON value, checked without building it.
  private static func isJSON(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { buffer in
      var cursor = JSONCursor(buffer)
      cursor.skipWhitespace()
      do {
        try cursor.skipValue()
        try cursor.expectEnd()
        return true
      } catch {
        return false
      }
    }
  }

  /// Where the events of a batch are: the elements of a top-level array, or of the `batch` array
  /// of a top-level object (its last `batch`, `api_key` and `token` count, as when parsed, and its
  /// other members are kept whole, few and small, to be checked); `nil` for a single event.
  private static func batchSpans(_ document: [UInt8]) throws(JSONSyntaxError) -> LazyBatch? {
    let found = document.withUnsafeBufferPointer { bytes in
      Result { () throws(JSONSyntaxError) -> LazyBatch? in
        var cursor = JSONCursor(bytes)
        cursor.skipWhitespace()
        switch cursor.peek {
        case UInt8(ascii: "["):
          return LazyBatch(spans: try elements(&cursor), apiKey: nil, members: nil)
        case UInt8(ascii: "{"):
          try cursor.open()
          var members: [String: Range<Int>] = [:]
          var others = Properties()
          var first = true
          while let key = try cursor.nextKey(first: first) {
            first = false
            let name = String(decoding: key, as: UTF8.self)
            let start = cursor.index
            try cursor.skipValue()
            if batchFields.contains(name) {
              members[name] = start..<cursor.index
            } else {
              others[name] = try JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[start..<cursor.index]))
            }
          }
          func text(_ name: String) throws(JSONSyntaxError) -> String? {
            guard let span = members[name] else { return nil }
            return Payload.text(try JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[span])))
          }
          var apiKey = try text("api_key")
          if apiKey == nil { apiKey = try text("token") }
          guard let batch = members["batch"], bytes[batch.lowerBound] == UInt8(ascii: "[") else { return nil }
          var inner = JSONCursor(bytes)
          inner.index = batch.lowerBound
          return LazyBatch(spans: try elements(&inner), apiKey: apiKey, members: others)
        default:
          return nil
        }
      }
    }
    return try found.get()
  }

  /// A batch found in a request's document: where its events are, the batch's API key, and the
  /// batch object's members besides ``batchFields`` (`nil` for a top-level array).
  private struct LazyBatch {
    var spans: [Range<Int>]
    var apiKey: String?
    var members: Properties?
  }

  /// The spans of the elements of the array at the cursor.
  private static func elements(_ cursor: inout JSONCursor) throws(JSONSyntaxError) -> [Range<Int>] {
    var spans: [Range<Int>] = []
    try cursor.open()
    var first = true
    while try cursor.nextElement(first: first) {
      first = false
      let start = cursor.index
      try cursor.skipValue()
      spans.append(start..<cursor.index)
    }
    return spans
  }
}
