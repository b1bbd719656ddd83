import Foundation
import PodcastDemo
import TagscopeFuzzing
import XCTest

@testable import TaggingPlan

/// A bounded fuzzing pass (see ``FuzzRun``) over the plan loader: a mutated plan either loads, and
/// then validates a record, or is refused with one error naming the file and a line inside it.
final class PlanFuzzTests: XCTestCase {
  func testPlanLoaderLoadsOrNamesALineInTheFile() {
    let corpus = [samplePlanYAML, DemoPlan.yaml].map { Array($0.utf8) }
    let outcome = FuzzRun(name: "plan-loader").run(
      corpus: corpus, dictionary: Mutator.yamlTokens, maximumLength: 32_768
    ) { input in
      let text = String(decoding: input, as: UTF8.self)
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
      do {
        let plan = try PlanLoader.load(yaml: text, file: "fuzz.yaml")
        var validator = PlanValidator(plan: plan)
        _ = validator.validate(goodPlay(1))
        return nil
      } catch let error as PlanLoadError {
        guard error.file == "fuzz.yaml" else { return "an error naming another file: \(error)" }
        guard (1...max(1, lines + 1)).contains(error.location.line) else {
          return "an error at line \(error.location.line) of a \(lines)-line plan: \(error)"
        }
        return error.message.isEmpty ? "an error without a message" : nil
      } catch {
        return "an error without a location: \(error)"
      }
    }
    XCTAssertNil(outcome.failure)
    XCTAssertGreaterThan(outcome.inputs, 50)
  }
}
