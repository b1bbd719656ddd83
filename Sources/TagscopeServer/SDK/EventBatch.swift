import AnalyticsHub
import TagscopeRecording

/// The events of a large request kept as the bytes they arrived in and decoded a slice at a time
/// when delivered (``BulkDelivery``): a batch of 1.45 million events then costs its body and the
/// offsets of its events, not a tree of the whole body and every decoded event at once.
///
/// Made by an endpoint that checked every event first (each parsed alone and let go), so
/// decoding a slice cannot fail; an event that somehow does not decode is left out.
struct EventBatch: Sendable {
  /// The JSON document the events are in.
  private let document: [UInt8]
  /// Where each event's object starts and ends in ``document``.
  private let starts: [UInt32]
  private let ends: [UInt32]
  /// Decodes one checked event.
  private let decode: @Sendable (Properties) -> IngestedEvent?
  /// The credentials the events carry (each event carries one of them), for `--token`.
  let credentials: Set<String>

  init(
    document: [UInt8], spans: [Range<Int>], credentials: Set<String>,
    decode: @escaping @Sendable (Properties) -> IngestedEvent?
  ) {
    self.document = document
    starts = spans.map { UInt32($0.lowerBound) }
    ends = spans.map { UInt32($0.upperBound) }
    self.credentials = credentials
    self.decode = decode
  }

  /// Events in the batch.
  var count: Int { starts.count }

  /// The bytes of the batch's largest event, as received.
  var largestEventBytes: Int { zip(starts, ends).lazy.map { Int($1 - $0) }.max() ?? 0 }

  /// The events at `positions`, decoded.
  func events(_ positions: Range<Int>) -> [IngestedEvent] {
    document.withUnsafeBufferPointer { bytes in
      positions.compactMap { position in
        let span = Int(starts[position])..<Int(ends[position])
        guard case .object(let message)? = try? JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[span]))
        else { return nil }
        return decode(message)
      }
    }
  }
}
