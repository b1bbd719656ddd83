import NIOConcurrencyHelpers

/// The events of a request its endpoint checked and accepted but could not read again when it
/// built their records (a slice of a lazily read batch, ``EventBatch``, or an upload read from its
/// index, ``FirebaseUploadIndex``). The check read each of them, so this never happens unless
/// Tagscope itself is wrong; if it does, the events are counted and reported with their places
/// (``problem``), never left out without a word.
final class UnreadEvents: Sendable {
  /// Places kept for the report; the rest are only counted.
  static let placeLimit = 5

  private let state = NIOLockedValueBox<(count: Int, places: [String])>((0, []))

  /// Counts one event at `place` (as a problem names it: `event 3`, `bundle 2 event 5`).
  func add(_ place: String) {
    state.withLockedValue { state in
      state.count += 1
      if state.places.count < Self.placeLimit { state.places.append(place) }
    }
  }

  /// Events counted so far.
  var count: Int { state.withLockedValue { $0.count } }

  /// The problem to report for the events counted, or `nil` when there are none.
  var problem: String? {
    let (count, places) = state.withLockedValue { $0 }
    guard count > 0 else { return nil }
    let more = count > places.count ? " and \(count - places.count) more" : ""
    let noun = count == 1 ? "event was" : "events were"
    return
      "\(count) accepted \(noun) checked but could not be read again to be recorded (\(places.joined(separator: ", "))\(more)): not recorded; this is a Tagscope bug, please report it"
  }
}
