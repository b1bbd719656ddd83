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
}

/// Reads the keys of record lines one after another with one builder, so that what consecutive
/// lines share (their session's id and user, the builder's buffers) is not built again for each.
package struct LineKeyScanner {
  private var builder: RecordContentKeyBuilder
  private let readsSession: Bool

  /// A scanner; with `readsSession`, it also reads each line's session id and user, which the key
  /// leaves out: what a record answered from a cache needs for the checks that compare it with
  /// earlier records.
  package init(readsSession: Bool) {
    builder = RecordContentKeyBuilder(readsSession: readsSession)
    self.readsSession = readsSession
  }

  /// ``RecordContentKey/scan(_:)`` with the record's `time` (milliseconds since 1970) and, when
  /// the scanner reads sessions, its session; `session` is `nil` without `readsSession` or when the
  /// line's id or user holds a JSON escape (the caller decodes such a line).
  package mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (
    key: LineKey, seq: UInt64, time: Int64, session: LineSession?
  )? {
    guard let (key, seq) = builder.decode(bytes) else { return nil }
    guard readsSession, !builder.sessionEscaped else { return (key, seq, builder.time, nil) }
    return (key, seq, builder.time, LineSession(id: builder.sessionID, user: builder.sessionUser))
  }
}

/// A line's `context.session` id and user (each `nil` when absent).
package struct LineSession: Sendable, Equatable {
  package var id: String?
  package var user: String?

  /// Puts this line's session id and user into `record`, a remembered record of the same key;
  /// `false` (the record unchanged) when one has a session and the other none.
  package func patch(_ record: inout Record) -> Bool {
    guard record.context.session != nil else { return id == nil && user == nil }
    guard let id else { return false }
    record.context.session!.id = id
    record.context.session!.user = user
    return true
  }
}
