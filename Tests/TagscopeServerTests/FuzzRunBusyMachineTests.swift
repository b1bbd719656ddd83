import Foundation
import TagscopeFuzzing
import XCTest

/// Issue 42, item 9: what a fuzz pass asserts holds on a busy machine. A pass runs at least its
/// minimum inputs, exactly that many when its budget is spent; an input is slow by the CPU time it
/// costs the process, not by how long the machine left it waiting.
final class FuzzRunBusyMachineTests: XCTestCase {
  /// The calling thread's CPU time, in nanoseconds.
  private func threadNanoseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
  }

  /// No budget left (a machine too busy to run more): exactly the minimum, and no failure.
  func testASpentBudgetRunsExactlyTheMinimum() {
    let outcome = FuzzRun(name: "spent", budget: .zero).run(corpus: [[1], [2]], minimumInputs: 7) { _ in nil }
    XCTAssertNil(outcome.failure)
    XCTAssertEqual(outcome.inputs, 7)
  }

  /// An input whose thread waits (as one the machine does not run) far past the limit is not slow.
  func testAnInputThatWaitsIsNotSlow() {
    let outcome = FuzzRun(name: "waiting", budget: .zero, slowInput: .milliseconds(20)).run(
      corpus: [[1]], minimumInputs: 2
    ) { _ in
      // Stands for the time a preempted thread spends off the CPU.
      _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(200))
      return nil
    }
    XCTAssertNil(outcome.failure)
    XCTAssertEqual(outcome.inputs, 2)
  }

  /// An input that costs its thread more CPU time than the limit still fails the pass, saved.
  func testAnInputThatComputesPastTheLimitIsSlow() throws {
    let outcome = FuzzRun(name: "computing", budget: .zero, slowInput: .milliseconds(20)).run(
      corpus: [[1]], minimumInputs: 2
    ) { _ in
      let start = threadNanoseconds()
      var sum: UInt64 = 0
      while threadNanoseconds() - start < 60_000_000 { sum &+= 1 }
      return sum == 0 ? "never" : nil
    }
    let failure = try XCTUnwrap(outcome.failure)
    XCTAssertTrue(failure.contains("computing, input 1") && failure.contains("limit"), failure)
    if let path = failure.components(separatedBy: "input saved to ").last {
      try? FileManager.default.removeItem(atPath: path)
    }
  }
}
