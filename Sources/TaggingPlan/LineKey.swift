import TagscopeRecording

/// What decides a record's validation (see ``RecordContentKey``).
package typealias LineKey = RecordContentKey

extension RecordContentKey {
  /// The key and `seq` of a record line, read by the one record decoder without building the
  /// record (every line is still checked in full), or `nil` when the line is anything else (a
  /// header, a drop marker, a record with a `source`, a bad line): such lines take the full
  /// decoding path, which reports them.
  static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (key: LineKey, seq: UInt64)? {
    var builder = RecordContentKeyBuilder()
    return builder.decode(bytes)
  }

  /// ``scan(_:)`` with the record's `time` (milliseconds since 1970), for the report's sites; with
  /// `session`, the key also holds the record's `context.session`.
  package static func scanWithTime(_ bytes: UnsafeBufferPointer<UInt8>, session: Bool = false) -> (
    key: LineKey, seq: UInt64, time: Int64
  )? {
    var builder = RecordContentKeyBuilder(keysSession: session)
    guard let (key, seq) = builder.decode(bytes) else { return nil }
    return (key, seq, builder.time)
  }
}
