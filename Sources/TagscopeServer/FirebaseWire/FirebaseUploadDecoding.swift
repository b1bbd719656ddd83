/// The Firebase upload decoder as `scripts/bench firebaseupload` times it from outside the module:
/// a body as received (gzip, zlib or raw protobuf) to its messages, or to its records.
public enum FirebaseUploadDecoding {
  /// The decompressed protobuf of `body`, `nil` when it is refused.
  public static func protobuf(_ body: [UInt8]) -> [UInt8]? {
    try? FirebaseUploadBody.protobuf(body, limit: FirebaseUploadEndpoint.limit).get()
  }

  /// How many events `body`'s batch holds once decoded into messages (checked, decompressed,
  /// parsed; no records made), `nil` when it is refused.
  public static func eventCount(_ body: [UInt8]) -> Int? {
    (try? FirebaseUploadEndpoint.decodeBatch(body).get()).map { $0.bundle.reduce(0) { $0 + $1.event.count } }
  }

  /// How many records `body` makes (events and user properties), `nil` when it is refused.
  public static func recordCount(_ body: [UInt8]) -> Int? {
    (try? FirebaseUploadEndpoint.decode(body).get())?.count
  }
}
