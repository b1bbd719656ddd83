/// Rates of our paths read alternated with passes of a reference (Python's orjson) in one run: the
/// reference, round 1's paths, the reference, round 2's paths, …, the reference. Each path's rate
/// in a round is divided by the mean of the reference's rates just before and just after that
/// round, and the figure is the median of those per-round ratios: a reference that drifts during
/// the run (another process taking the machine) moves both sides of each ratio alike.
struct AlternatedRounds {
  /// The reference's rate of each pass, in order.
  private(set) var reference: [Double] = []
  /// Each path's rate per round, with the number of reference passes made before it.
  private var rates: [String: [(passes: Int, rate: Double)]] = [:]

  /// A pass of the reference: it ends a round and starts the next.
  mutating func addReference(_ rate: Double) { reference.append(rate) }

  /// `path`'s rate in the round under way.
  mutating func add(_ path: String, rate: Double) {
    rates[path, default: []].append((reference.count, rate))
  }

  /// `path`'s rate ÷ the reference's, per round: the reference's rate taken as the mean of the
  /// passes around the round (the one on either side alone when there is only one).
  func ratios(_ path: String) -> [Double] {
    (rates[path] ?? []).compactMap { entry in
      let around = reference[max(0, entry.passes - 1)..<min(reference.count, entry.passes + 1)]
      guard !around.isEmpty else { return nil }
      return entry.rate / (around.reduce(0, +) / Double(around.count))
    }
  }

  /// The median of `path`'s per-round ratios (`nan` without one).
  func median(_ path: String) -> Double {
    let sorted = ratios(path).sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// `N rounds, per-round ratios LOW–HIGH`: what a figure's baseline says of `path`'s spread.
  func spread(_ path: String) -> String {
    let ratios = ratios(path)
    guard let low = ratios.min(), let high = ratios.max() else { return "no rounds" }
    return "\(ratios.count) rounds, per-round ratios \(BenchReport.format(low))–\(BenchReport.format(high))"
  }
}
