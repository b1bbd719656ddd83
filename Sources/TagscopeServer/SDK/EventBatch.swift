import AnalyticsHub
import TagscopeRecording

/// The events of a large request kept as the bytes they arrived in and decoded a slice at a time
/// when delivered (``BulkDelivery``): a batch of 1.45 million events then costs its body and the
/// offsets of its events, not a tree of the whole body and every decoded event at once.
///
/// Made by an endpoint that checked every event first (each parsed alone and let go), so
/// decoding a slice cannot fail; an event that somehow does not decode is counted in ``unread``
/// with its place, and reported by whoever delivers the batch.
struct EventBatch: Sendable {
  /// Events in the batch.
  let count: Int
  /// The bytes of the batch's largest event, as received.
  let largestEventBytes: Int
  /// The bytes of the body its events are read from (``BulkDelivery/sliceSize(bytes:)``).
  let bytes: Int
  /// The credentials the events carry (each event carries one of them), for `--token`.
  let credentials: Set<String>
  /// The events a slice could not decode again (see ``UnreadEvents``).
  let unread: UnreadEvents
  /// Decodes the events at some positions.
  private let decodeSlice: @Sendable (Range<Int>) -> [IngestedEvent]

  /// A batch of JSON events: each of `spans` of `document` an event's object, which `decode` reads
  /// with its position in the batch.
  init(
    document: [UInt8], spans: [Range<Int>], credentials: Set<String>,
    decode: @escaping @Sendable (Int, Properties) -> IngestedEvent?
  ) {
    let starts = spans.map { UInt32($0.lowerBound) }
    let ends = spans.map { UInt32($0.upperBound) }
    largestEventBytes = spans.lazy.map(\.count).max() ?? 0
    bytes = document.count
    count = spans.count
    self.credentials = credentials
    let unread = UnreadEvents()
    self.unread = unread
    decodeSlice = { positions in
      document.withUnsafeBufferPointer { bytes in
        positions.compactMap { position in
          let span = Int(starts[position])..<Int(ends[position])
          guard
            case .object(let message)? = try? JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[span])),
            let event = decode(position, message)
          else {
            unread.add("event \(position)")
            return nil
          }
          return event
        }
      }
    }
  }

  /// A batch of `count` events in another format, read from a body of `bytes`, `events` decoding
  /// those at some positions and counting those it cannot in `unread`.
  init(
    count: Int, bytes: Int, largestEventBytes: Int, credentials: Set<String> = [], unread: UnreadEvents,
    events: @escaping @Sendable (Range<Int>) -> [IngestedEvent]
  ) {
    self.count = count
    self.unread = unread
    self.bytes = bytes
    self.largestEventBytes = largestEventBytes
    self.credentials = credentials
    decodeSlice = events
  }

  /// The events at `positions`, decoded.
  func events(_ positions: Range<Int>) -> [IngestedEvent] { decodeSlice(positions) }
}
