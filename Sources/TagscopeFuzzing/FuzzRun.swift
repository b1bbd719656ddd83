import Foundation

/// A bounded fuzzing pass: feeds mutated inputs to a check for a time budget and stops at the first
/// input the check rejects, saving it to a file so the failure can be replayed.
///
/// The budget per target is `TAGSCOPE_FUZZ_SECONDS` (default 2 s, so the normal test command runs a
/// short pass of every target), times the pass's `share` where a test runs many small passes (one
/// per endpoint and encoding); the seed is `TAGSCOPE_FUZZ_SEED` (default fixed, so a run is
/// reproducible). Each input must also finish within ``slowInput`` of the process's CPU time — a
/// parser that is not linear shows up as a slow input long before it shows up as a timeout, and a
/// busy machine, which delays the process without charging it, does not.
///
/// To fuzz longer (in CI's nightly job, or by hand after changing a decoder), raise the budget and
/// vary the seed: `TAGSCOPE_FUZZ_SECONDS=120 TAGSCOPE_FUZZ_SEED=$RANDOM swift test --filter Fuzz`
/// runs every pass (`SDKFuzzTests`, `EndpointFuzzTests`, `StreamFuzzTests`, `FuzzTests`,
/// `PlanFuzzTests`…) for two minutes per target. A failure names the file its input was saved to.
public struct FuzzRun: Sendable {
  /// What a pass did.
  public struct Outcome: Sendable {
    /// Inputs checked.
    public var inputs = 0
    /// Why the pass failed (with where the input was saved), or `nil`.
    public var failure: String?
    /// The slowest input's CPU time (of the process, every thread).
    public var slowest: Duration = .zero
  }

  /// The name in messages and in saved inputs' file names.
  public let name: String
  /// How long the pass runs.
  public let budget: Duration
  /// The most CPU time one input may take.
  public let slowInput: Duration
  /// The mutator's seed.
  public let seed: UInt64

  /// A pass named `name`; `budget` and `seed` default to the environment's (see the type's doc), the
  /// budget scaled by `share`.
  public init(
    name: String, budget: Duration? = nil, share: Double = 1, slowInput: Duration = .seconds(2),
    seed: UInt64? = nil
  ) {
    let environment = ProcessInfo.processInfo.environment
    self.name = name
    self.budget =
      budget ?? .milliseconds(Int((Double(environment["TAGSCOPE_FUZZ_SECONDS"] ?? "") ?? 2) * share * 1000))
    self.slowInput = slowInput
    self.seed = seed ?? environment["TAGSCOPE_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x7A65_5C09
  }

  /// Runs `check` on inputs from a mutator over `corpus`; `check` returns why an input broke an
  /// invariant, or `nil`. The corpus itself is checked first. At least `minimumInputs` inputs are
  /// checked, however long they take: how busy the machine is does not decide how much is checked.
  public func run(
    corpus: [[UInt8]], dictionary: [[UInt8]] = Mutator.jsonTokens, maximumLength: Int = 4096,
    minimumInputs: Int = 0, _ check: ([UInt8]) -> String?
  ) -> Outcome {
    var mutator = Mutator(seed: seed, corpus: corpus, dictionary: dictionary, maximumLength: maximumLength)
    var outcome = Outcome()
    let clock = ContinuousClock()
    let deadline = clock.now + budget
    var pending = corpus
    while pending.isEmpty ? clock.now < deadline || outcome.inputs < minimumInputs : true {
      let input = pending.isEmpty ? mutator.next() : pending.removeFirst()
      let start = Self.processTime()
      let problem = check(input)
      let took = Self.processTime() - start
      outcome.inputs += 1
      outcome.slowest = max(outcome.slowest, took)
      if let reason = problem ?? (took > slowInput ? "took \(took) (limit \(slowInput))" : nil) {
        outcome.failure =
          "\(name), input \(outcome.inputs) (seed \(seed)): \(reason); input saved to \(save(input))"
        return outcome
      }
    }
    return outcome
  }

  /// The process's CPU time so far, of all its threads: the checking thread's, and that of a
  /// server checked over a socket in the same process (its event loops parse what the input sent),
  /// which a thread's own clock would not charge.
  private static func processTime() -> Duration {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return .seconds(Int64(spec.tv_sec)) + .nanoseconds(Int64(spec.tv_nsec))
  }

  private func save(_ input: [UInt8]) -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-fuzz-\(name)-\(seed)-\(UUID().uuidString.prefix(8)).bin")
    do {
      try Data(input).write(to: url)
      return url.path
    } catch {
      return "(not saved: \(error))"
    }
  }
}
