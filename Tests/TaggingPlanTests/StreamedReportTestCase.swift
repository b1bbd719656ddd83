import Foundation
import XCTest

@testable import TaggingPlan

/// What the streamed report tests share: a temporary folder of their own, a fixed generation
/// date, and the sample plan written there.
class StreamedReportTestCase: XCTestCase {
  var directory: URL!
  let generated = Date(timeIntervalSince1970: 1_764_000_000)

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "streamed-report-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  /// The sample plan's file, written in the folder.
  func planPath() throws -> String {
    let url = directory.appendingPathComponent("plan.yaml")
    try Data(samplePlanYAML.utf8).write(to: url)
    return url.path
  }

  /// The sample plan, loaded from its file.
  func samplePlan() throws -> Plan { try PlanLoader.load(contentsOf: try planPath()) }
}
