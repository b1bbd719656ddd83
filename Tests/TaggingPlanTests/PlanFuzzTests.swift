import Foundation
import PodcastDemo
import TagscopeFuzzing
import TagscopeRecording
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

/// A bounded fuzzing pass (see ``FuzzRun``) over the plan loader: a mutated plan either loads, and
/// then validates a record, or is refused with one error naming the file and a line inside it.
final class PlanFuzzTests: XCTestCase {
  func testPlanLoaderLoadsOrNamesALineInTheFile() {
    let corpus = [samplePlanYAML, DemoPlan.yaml].map { Array($0.utf8) }
    let outcome = FuzzRun(name: "plan-loader").run(
      corpus: corpus, dictionary: Mutator.yamlTokens, maximumLength: 32_768, minimumInputs: 51
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

/// A bounded fuzzing pass over recordings validated and reported in every format: whatever the
/// lines, validation and each report finish, and the JSON report stays valid JSON.
final class ReportFuzzTests: XCTestCase {
  func testMutatedRecordingsValidateAndRenderInEveryFormat() throws {
    let plan = try samplePlan()
    var wrong = goodPlay(2, screen: "favorites")
    wrong.outputs[0] = sent("firebase", String(repeating: "n", count: 45), ["podcast_title": "T"])
    var blocked = goodPlay(3, screen: "podcasts")
    blocked.outputs[1] = ProviderOutput(provider: "amplitude", status: .blocked, reason: "consent")
    blocked.source = "device"
    let header = RecordLineEncoder.line(RecordingHeader(app: "Podcasts", device: "fuzz"))
    let text =
      ([header] + [goodPlay(1), wrong, blocked].map(RecordLineEncoder.line)).joined(separator: "\n") + "\n"
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "report-fuzz-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("r.jsonl").path
    let outcome = FuzzRun(name: "reports").run(
      corpus: [Array(text.utf8)], dictionary: Mutator.jsonTokens, maximumLength: 16_384, minimumInputs: 21
    ) { input in
      guard FileManager.default.createFile(atPath: path, contents: Data(input)) else { return "cannot write" }
      guard let report = try? ValidateRunner.validate(plan: plan, recordings: [path]) else { return nil }
      for format in ReportFormat.allCases { _ = format.render(report, failOn: .error) }
      let json = JSONReport.render(report)
      guard (try? JSONSerialization.jsonObject(with: Data(json.utf8))) != nil else {
        return "invalid JSON: \(json)"
      }
      for index in report.violations.indices { _ = report.violations[index].comparison }
      return nil
    }
    XCTAssertNil(outcome.failure)
    XCTAssertGreaterThan(outcome.inputs, 20)
  }
}
