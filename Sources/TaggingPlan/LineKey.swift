import TagscopeRecording

/// What decides a record's validation (see ``RecordContentKey``), read by the one record decoder
/// without building the record, plus its `seq`.
///
/// Every line is checked in full by the decoder (JSON syntax, UTF-8, field types), so a malformed
/// line is reported even when an earlier line had the same key.
struct LineKey: Hashable {
  var content: RecordContentKey

  /// The key and `seq` of a record line, or `nil` when the line is anything else (a header, a drop
  /// marker, a record with a `source`, a bad line): such lines take the full decoding path, which
  /// reports them.
  static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (key: LineKey, seq: UInt64)? {
    var builder = RecordContentKeyBuilder()
    guard let (key, seq) = builder.decode(bytes) else { return nil }
    return (LineKey(content: key), seq)
  }
}
