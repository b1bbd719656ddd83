import AnalyticsHub
import NIOConcurrencyHelpers

/// The `short_names` annotation of Firebase uploads' events, made once for each list of SDK
/// parameters and shared by every upload: the events of one kind carry the same short names (`_o`,
/// `_sc`, `_et`…) in the same order, upload after upload, so their records share one annotation
/// (``FirebaseUploadRecords``) instead of each building its own. What it holds follows from that
/// list alone and whether the event is a screen view. Bounded: ``slots`` lists of at most
/// ``longest`` names (a hostile event's thousands are not kept), a list taking the slot its words
/// hash to from the one there before.
enum FirebaseShortNamesCache {
  private struct Entry: Sendable {
    var isScreenView: Bool
    /// The words (``FirebaseNameWord``) of the SDK parameters' names, in order; none is `0`.
    var words: [UInt64]
    var value: PropertyValue
  }

  /// How many lists it keeps, and the most names of one.
  static let slots = 256
  static let longest = 64
  private static let entries = NIOLockedValueBox([Entry?](repeating: nil, count: slots))

  /// The annotation of the `shortCount` SDK parameters among `parameters` of an event that is a
  /// screen view or not: the one kept for the same list, else `make`'s, kept when every name has
  /// a word (``FirebaseNameWord``).
  static func value(
    _ parameters: [FirebaseParameterValue], shortCount: Int, isScreenView: Bool, make: () -> PropertyValue
  ) -> PropertyValue {
    guard shortCount <= longest, let slot = slot(parameters, isScreenView: isScreenView) else {
      return make()
    }
    let kept = entries.withLockedValue { entries -> PropertyValue? in
      guard let entry = entries[slot], entry.isScreenView == isScreenView, entry.words.count == shortCount,
        matches(entry.words, parameters)
      else { return nil }
      return entry.value
    }
    if let kept { return kept }
    let value = make()
    var words: [UInt64] = []
    words.reserveCapacity(shortCount)
    for parameter in parameters where parameter.isShort { words.append(parameter.word) }
    let entry = Entry(isScreenView: isScreenView, words: words, value: value)
    entries.withLockedValue { $0[slot] = entry }
    return value
  }

  /// The slot of the list of `parameters`' SDK parameters, `nil` when a name has no word.
  private static func slot(_ parameters: [FirebaseParameterValue], isScreenView: Bool) -> Int? {
    var hash: UInt64 = isScreenView ? 0x9E37_79B9_7F4A_7C15 : 0
    for parameter in parameters where parameter.isShort {
      guard parameter.word != 0 else { return nil }
      hash = (hash ^ parameter.word) &* 0x100_0000_01B3
    }
    return Int(truncatingIfNeeded: (hash >> 32) ^ hash) & (slots - 1)
  }

  /// Whether the SDK parameters of `parameters` are named by `words`, in order.
  private static func matches(_ words: [UInt64], _ parameters: [FirebaseParameterValue]) -> Bool {
    var next = 0
    for parameter in parameters where parameter.isShort {
      guard next < words.count, parameter.word == words[next] else { return false }
      next += 1
    }
    return next == words.count
  }
}
