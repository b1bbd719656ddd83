import TagscopeVendors

/// A linear walk over an upload's wire bytes before any message is built: it bounds what decoding
/// costs (messages, records, depth) and names the place of bytes that are not protobuf, which
/// SwiftProtobuf's errors do not. A body too small for its counts to refuse is built first and
/// walked only when the builder refuses it (``unwalkedBytes``). Knows only where messages nest:
/// batch field 1 (bundles), bundle fields 2 (events) and 3 (user properties), event field 1
/// (parameters), parameter field 6 (items).
enum FirebaseUploadShape {
  /// The most events and user properties of one request: the Android SDK uploads at most 64 KiB
  /// a batch (`measurement.upload.max_batch_size`), some 4,000 of the smallest real events
  /// (~16 bytes: a short name, a time); each becomes a record line of ~1.5 KB (the bundle's
  /// context repeated), so the bound keeps what a hostile body costs near what other SDKs' batches
  /// of 2,000–2,500 events cost.
  static let recordLimit = Vendor.Limit.firebaseUpload.eventsPerRequest ?? 4_000
  /// The most messages (bundles, events, parameters, items) of one request: each costs ~200 bytes
  /// decoded, so 50,000 of them stay under 20× a 1 MiB body.
  static let messageLimit = 50_000
  /// The deepest nesting: batch, bundle, event, parameter, then items and their parameters.
  static let depthLimit = 8
  /// The largest body no count of the walk can refuse: each message it counts takes two bytes
  /// at least (a key, a length). Such a body is built before it is walked
  /// (``FirebaseUploadBuilder/unwalkedRecords(_:atMost:)``), and walked only when the builder
  /// refuses it; the builder bounds its own depth and records.
  static let unwalkedBytes = 2 * messageLimit

  /// What the walk counted.
  struct Counts: Equatable {
    var bundles = 0
    var records = 0
    var messages = 0
  }

  /// Where messages nest.
  private enum Level {
    case batch, bundle, event, parameter, leaf

    func child(_ number: UInt64) -> Level {
      switch (self, number) {
      case (.batch, 1): return .bundle
      case (.bundle, 2), (.bundle, 3): return number == 2 ? .event : .leaf
      case (.event, 1), (.parameter, 6): return .parameter
      default: return .leaf
      }
    }
  }

  /// Counts `body`'s messages, or the refusal of a body past a limit or not protobuf.
  ///
  /// Counted first by ``count(_:_:_:level:depth:counts:)``, which keeps no path and makes no
  /// field value (what an upload with nothing to refuse needs); a body it stops at is walked again
  /// by ``walked(_:)``, which names the place of what it refuses.
  static func check(_ body: [UInt8]) -> Result<Counts, FirebaseUploadError> {
    let counted = body.withUnsafeBufferPointer { bytes in
      var counts = Counts()
      return count(bytes, 0, bytes.count, level: .batch, depth: 1, counts: &counts) ? counts : nil
    }
    return counted.map { .success($0) } ?? walked(body)
  }

  /// ``check(_:)`` by the walk that names places alone (what it falls back to).
  static func walked(_ body: [UInt8]) -> Result<Counts, FirebaseUploadError> {
    body.withUnsafeBufferPointer { bytes in
      var counts = Counts()
      // The messages the walk is in, for the place of an error: named only when one is thrown.
      var path: [(level: Level, position: Int)] = []
      path.reserveCapacity(depthLimit + 1)
      do throws(FirebaseUploadError) {
        try walk(bytes, 0..<bytes.count, level: .batch, depth: 1, path: &path, counts: &counts)
        return .success(counts)
      } catch {
        return .failure(error)
      }
    }
  }

  private static func walk(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, level: Level, depth: Int,
    path: inout [(level: Level, position: Int)], counts: inout Counts
  ) throws(FirebaseUploadError) {
    var reader = ProtobufWireReader(bytes, range: range)
    // Positions among the fields that hold messages (1, 2, 3, 6), for the places.
    var positions = (0, 0, 0, 0, 0, 0, 0)
    while true {
      let field: ProtobufWireReader.Field
      do throws(ProtobufWireReader.Failure) {
        guard let next = try reader.next() else { return }
        field = next
      } catch {
        throw refusal(error, path)
      }
      if case .group = field.value {
        // A group is one field whatever it holds (SwiftProtobuf keeps it whole, unknown): its
        // fields are not the message's, and hold no message of the batch.
        do throws(ProtobufWireReader.Failure) {
          try reader.skipGroup()
        } catch {
          throw refusal(error, path)
        }
        continue
      }
      let child = level.child(field.number)
      guard child != .leaf || (level == .bundle && field.number == 3),
        case .lengthDelimited(let inner) = field.value
      else { continue }
      counts.messages += 1
      guard counts.messages <= messageLimit else { throw .tooManyMessages(counts.messages) }
      if level == .bundle {
        counts.records += 1
        guard counts.records <= recordLimit else { throw .tooManyRecords(counts.records) }
      }
      if level == .batch { counts.bundles += 1 }
      guard child != .leaf else { continue }
      let position: Int
      switch field.number {
      case 1: (positions.1, position) = (positions.1 + 1, positions.1 + 1)
      case 2: (positions.2, position) = (positions.2 + 1, positions.2 + 1)
      default: (positions.6, position) = (positions.6 + 1, positions.6 + 1)
      }
      path.append((child, position))
      guard depth < depthLimit else { throw .tooDeep(place: place(path)) }
      try walk(bytes, inner, level: child, depth: depth + 1, path: &path, counts: &counts)
      path.removeLast()
    }
  }

  /// What ``walk(_:_:level:depth:path:counts:)`` counts, from `start` to `end` of `bytes`, read
  /// as it reads (each field's key and value as ``ProtobufWireReader`` reads them, the same
  /// limits); `false` where the walk throws, whose error this does not make.
  private static func count(
    _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, level: Level, depth: Int,
    counts: inout Counts
  ) -> Bool {
    // Read as the reader reads (a varint of at most ten bytes, lengths within the message).
    var walk = FirebaseWireWalk(bytes, start..<end)
    while walk.offset < walk.end {
      guard let key = walk.varint(), key >> 3 > 0 else { return false }
      let number = key >> 3
      switch key & 7 {
      case 2: break
      // A group's start: passed whole to its end, as the walk passes it.
      case 3:
        guard walk.passGroup() else { return false }
        continue
      // A group's end without its start: nothing to pass, as the reader takes it.
      case 4: continue
      case let wireType:
        guard walk.pass(wireType: wireType) else { return false }
        continue
      }
      guard let inner = walk.length() else { return false }
      let child = level.child(number)
      guard child != .leaf || (level == .bundle && number == 3) else { continue }
      counts.messages += 1
      guard counts.messages <= messageLimit else { return false }
      if level == .bundle {
        counts.records += 1
        guard counts.records <= recordLimit else { return false }
      }
      if level == .batch { counts.bundles += 1 }
      guard child != .leaf else { continue }
      guard depth < depthLimit,
        count(bytes, inner.lowerBound, inner.upperBound, level: child, depth: depth + 1, counts: &counts)
      else { return false }
    }
    return true
  }

  /// The refusal of bytes that stop being protobuf at `path`.
  private static func refusal(_ failure: ProtobufWireReader.Failure, _ path: [(level: Level, position: Int)])
    -> FirebaseUploadError
  {
    switch failure {
    case .truncated(let offset): return .notProtobuf(place: place(path), offset: offset, truncated: true)
    case .malformed(let offset): return .notProtobuf(place: place(path), offset: offset, truncated: false)
    }
  }

  /// Where `path` is: `the batch`, `bundle 2`, `bundle 2 event 3 parameter 1`.
  private static func place(_ path: [(level: Level, position: Int)]) -> String {
    guard !path.isEmpty else { return "the batch" }
    return path.map { step in
      switch step.level {
      case .bundle: return "bundle \(step.position)"
      case .event: return "event \(step.position)"
      case .parameter: return "parameter \(step.position)"
      case .batch, .leaf: return ""
      }
    }.joined(separator: " ")
  }
}
