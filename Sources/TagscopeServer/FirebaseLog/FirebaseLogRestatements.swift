import AnalyticsHub

/// Tells the lines that restate a call (iOS's `Debug mode is enabled. Marking event…`, `Event
/// logged…`, `User property set…`) from a new call, so each call is recorded once whichever of its
/// lines a paste holds.
///
/// A call's first line (`Logging event`, `Setting user property`, `Removing user property`) is
/// always a new call. A restatement is of the oldest recent call with the same name, app
/// parameters (those without an SDK short name: the SDK adds `_dbg`, `_r`… as it goes) or value,
/// and process (on iOS: Android's service may run in another process than the app), not yet restated in that wording (its message id); without one it is a call whose
/// first line the log does not hold, and recorded. The app logging the same event twice is two
/// calls: each takes one restatement of each wording. Only the last ``limit`` calls are kept, as a
/// fingerprint each.
struct FirebaseLogRestatements: Sendable {
  /// The most recent calls kept.
  static let limit = 256

  private struct Call {
    var key: Int
    var wordings: Set<String>
  }

  private var calls: [Call] = []

  /// Whether `entry`, read from a line in `wording`, restates a recent call (to be skipped);
  /// otherwise it is remembered as a call.
  mutating func isRestatement(_ entry: FirebaseLogEntry, restating: Bool, wording: String) -> Bool {
    let key = Self.key(entry)
    if restating, let index = calls.firstIndex(where: { $0.key == key && !$0.wordings.contains(wording) }) {
      calls[index].wordings.insert(wording)
      return true
    }
    if calls.count == Self.limit { calls.removeFirst() }
    calls.append(Call(key: key, wordings: [wording]))
    return false
  }

  /// What a call and its restatements have in common, as a fingerprint.
  private static func key(_ entry: FirebaseLogEntry) -> Int {
    var hasher = Hasher()
    switch entry {
    case .event(let event):
      hasher.combine(0)
      hasher.combine(FirebaseShortNames.event(event.name, short: event.shortName))
      hasher.combine(processID(event.source))
      // In any order, the app's parameters only.
      var parameters = 0
      var count = 0
      for parameter in event.parameters where parameter.shortName == nil {
        var one = Hasher()
        one.combine(parameter.name)
        one.combine(parameter.value)
        parameters = parameters &+ one.finalize()
        count += 1
      }
      hasher.combine(count)
      hasher.combine(parameters)
    case .userProperty(let property):
      hasher.combine(1)
      hasher.combine(property.name)
      hasher.combine(property.value)
      hasher.combine(processID(property.source))
    }
    return hasher.finalize()
  }

  /// The process a call and its restatements share: iOS prints them all from the app; Android's
  /// service (`FA-SVC`) may run in Google Play services, another process than the app's `FA`.
  private static func processID(_ origin: FirebaseLogOrigin) -> String? {
    origin.platform == .iOS ? origin.processID : nil
  }
}
