import AnalyticsHub
import TagscopeRecording

/// What a call (or a tag) carried beside what the plan names: when a planned name is missing,
/// the comparison lists the names the plan does not know, with their values, and pairs a missing
/// name with the most similar of them ("did you mean").
extension ExpectationComparison {
  /// Extra names listed in one comparison at most (a last row counts the rest).
  static let extraLimit = 12

  /// The rows of `carried`'s names that `planned` does not list (field `prefix` + name, expected
  /// `notPlanned`, got the value, `differs` as given), the one most similar to a name of
  /// `missing` marked as its likely spelling when `annotate`; and for each missing name paired, that extra name.
  static func extras(
    carried: Properties, planned: Set<String>, missing: [String], prefix: String,
    notPlanned: String = "not planned", annotate: Bool = true, differs: Bool
  ) -> (rows: [Row], pairs: [String: String]) {
    let extra = carried.filter { !planned.contains($0.key) }
    guard !extra.isEmpty else { return ([], [:]) }
    let pairs = NameSimilarity.pairs(missing: missing, extra: extra.map { $0.key })
    let meant = Dictionary(pairs.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
    var rows = extra.prefix(extraLimit).map { pair in
      Row(
        field: "\(prefix) \(pair.key)",
        expected: annotate
          ? meant[pair.key].map { "\(notPlanned) (\($0) misspelled?)" } ?? notPlanned : notPlanned,
        actual: show(pair.value, key: pair.key), differs: differs)
    }
    if extra.count > extraLimit {
      rows.append(
        Row(
          field: "\(prefix)s not planned", expected: "—", actual: "\(extra.count - extraLimit) more",
          differs: differs))
    }
    return (rows, pairs)
  }

  /// `absent`, `absent (did you mean valeu?)`.
  static func absent(_ name: String, _ pairs: [String: String]) -> String {
    pairs[name].map { "absent (did you mean \(clip($0))?)" } ?? "absent"
  }
}

/// How alike two parameter or property names are, for "did you mean": both are lowercased and
/// stripped of `_`, `-`, `.` and spaces (so `podcast_title` and `podcastTitle` are the same name),
/// then `1 - d / n` where `d` is their edit distance (insertions, deletions, substitutions and
/// swaps of two neighbours each count 1) and `n` the longer one's length. A pair is suggested at
/// ``threshold`` (0.6) or above: `valeu` ↔ `value` is 0.8 (one swap), `curency` ↔ `currency` 0.875,
/// `amount` ↔ `value` 0.17 and `id` ↔ `ad` 0.5 are not.
enum NameSimilarity {
  static let threshold = 0.6
  /// Names longer than this are not compared (the distance is quadratic).
  static let lengthLimit = 160

  static func similarity(_ lhs: String, _ rhs: String) -> Double {
    let a = normalized(lhs)
    let b = normalized(rhs)
    let longest = max(a.count, b.count)
    guard longest > 0, longest <= lengthLimit else { return a == b ? 1 : 0 }
    return 1 - Double(distance(a, b)) / Double(longest)
  }

  /// The candidate most like `name` (ids of coverage items, tag names), when one is similar enough
  /// (at least 0.5: whole ids differ in more than one typo's worth).
  static func nearest(to name: String, among candidates: [String]) -> String? {
    var best: (name: String, score: Double)?
    for candidate in candidates {
      let score = similarity(name, candidate)
      if score >= 0.5, score > (best?.score ?? 0) { best = (candidate, score) }
    }
    return best?.name
  }

  /// Each missing name (in order) with the most similar extra name not yet taken, when similar
  /// enough.
  static func pairs(missing: [String], extra: [String]) -> [String: String] {
    var taken = Set<String>()
    var pairs: [String: String] = [:]
    for name in missing {
      var best: (name: String, score: Double)?
      for candidate in extra where !taken.contains(candidate) {
        let score = similarity(name, candidate)
        if score >= threshold, score > (best?.score ?? 0) { best = (candidate, score) }
      }
      if let best {
        taken.insert(best.name)
        pairs[name] = best.name
      }
    }
    return pairs
  }

  /// `name` lowercased without `_`, `-`, `.` and spaces.
  static func normalized(_ name: String) -> [Character] {
    Array(name.lowercased().filter { !"_-. ".contains($0) })
  }

  /// Optimal string alignment distance.
  private static func distance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], before[j - 2] + 1)
        }
      }
      (before, previous, current) = (previous, current, before)
    }
    return previous[b.count]
  }
}
