import AnalyticsHub
import TagscopeRecording

extension ExpectedCall {
  /// The call of `output` this expectation is about, for its comparison: the call it identifies;
  /// else, a renamed call: among the calls with the planned method (any call when the plan names
  /// none), the only one, or the one whose name is most like the planned name (at least
  /// ``NameSimilarity/renameThreshold``, or one name containing the other, as
  /// `remove_podcast_from_favorites_on_podcast_player_screen` contains `remove_podcast_from_favorites`),
  /// `renamed` then `true`. `nil` for `none`, a failed output, no call, two candidates alike, or
  /// more than ``NameSimilarity/renameCandidateLimit`` candidates (names are not compared then:
  /// a hostile record's thousands of calls cost no more than a few).
  func counterpart(in output: ProviderOutput) -> (call: CallDescription, renamed: Bool)? {
    guard !isNone, output.status != .failed else { return nil }
    if let call = output.calls.first(where: identifies) { return (call, false) }
    let candidates = output.calls.filter { method == nil || $0.method == method }
    if candidates.count == 1 { return (candidates[0], true) }
    guard let name, candidates.count <= NameSimilarity.renameCandidateLimit else { return nil }
    var best: (index: Int, score: Double)?
    var tied = false
    for (index, call) in candidates.enumerated() {
      guard let sent = call.name.map({ IgluSchemaName.of($0) ?? $0 }),
        let score = NameSimilarity.renameScore(name, sent)
      else { continue }
      if let current = best, score <= current.score {
        if score == current.score { tied = true }
        continue
      }
      best = (index, score)
      tied = false
    }
    guard let best, !tied else { return nil }
    return (candidates[best.index], true)
  }
}

extension NameSimilarity {
  /// Calls are told apart by whole names, so a renamed one is looser than a misspelled
  /// parameter: half alike suffices.
  static let renameThreshold = 0.5
  /// Calls of one output compared by name, at most, to find a renamed one.
  static let renameCandidateLimit = 64

  /// How alike a planned call name and a sent one are when the sent one may be a renamed form of
  /// it: their ``similarity(_:_:)``, or `nil` below ``renameThreshold`` unless one (normalized,
  /// both at most ``lengthLimit`` characters) contains the other.
  static func renameScore(_ planned: String, _ sent: String) -> Double? {
    let score = similarity(planned, sent)
    if score >= renameThreshold { return score }
    let a = String(normalized(planned))
    let b = String(normalized(sent))
    guard !a.isEmpty, !b.isEmpty, max(a.count, b.count) <= lengthLimit, a.contains(b) || b.contains(a)
    else { return nil }
    return score
  }
}
