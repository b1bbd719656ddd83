import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TaggingPlan
@testable import TaggingPlanReports

/// Issue 15: the debugger's `a` adds a drafted entry to the plan file without rewriting the rest.
final class PlanFileEditorTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("editor-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private func planFile(_ text: String) throws -> String {
    let url = directory.appendingPathComponent("plan-\(UUID().uuidString).yaml")
    try Data(text.utf8).write(to: url)
    return url.path
  }

  private func draft(
    _ section: PlanSection = .actions, _ name: String = "rateApp", screens: [String] = ["settings"]
  )
    throws -> PlanEntryDraft
  {
    var inference = PlanInference()
    for index in 0..<3 {
      var record = Record(
        seq: UInt64(index + 1), time: Date(), kind: section == .events ? .event : .userAction, name: name,
        properties: ["stars": .int(index + 3)])
      record.context = RecordContext(screen: screens.first, history: screens)
      record.outputs = [
        ProviderOutput(
          provider: "firebase", status: .sent,
          calls: [CallDescription(method: "logEvent", name: "rate_app", parameters: ["stars": .int(index)])])
      ]
      inference.add(record: record)
    }
    return try XCTUnwrap(inference.entry(section: section, name: name))
  }

  private let plan = """
    # Our plan
    plan: Podcasts
    version: 3

    screens:
      podcasts: {}
      settings:
    actions:
      playPodcast:
        screens: [podcasts]
      # the pause button
      pausePodcast:

    # events come next
    events:
      playerDidFail:

    """

  func testTheEntryGoesAtTheEndOfItsSectionAndNothingElseChanges() throws {
    let path = try planFile(plan)
    let line = try PlanFileEditor.add(try draft(), toPlanAt: path).line
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let lines = text.components(separatedBy: "\n")
    XCTAssertEqual(lines[line - 1], "  rateApp:  # 3 records")
    XCTAssertEqual(lines[line - 2], "  pausePodcast:")
    var remaining = text.components(separatedBy: "\n")[...]
    for original in plan.components(separatedBy: "\n") {
      guard let found = remaining.firstIndex(of: original) else {
        return XCTFail("lost line: \(original)\n\(text)")
      }
      remaining = remaining[(found + 1)...]
    }
    let loaded = try PlanLoader.load(contentsOf: path)
    let entry = try XCTUnwrap(loaded.entries.first { $0.name == "rateApp" })
    XCTAssertEqual(entry.section, .actions)
    XCTAssertEqual(entry.screens, ["settings"])
    XCTAssertEqual(entry.location.line, line)
  }

  func testAnInlineEmptySectionIsOpenedAndAMissingOneIsAdded() throws {
    let inline = try planFile("plan: P\nactions: {}  # none yet\nevents: {}\n")
    _ = try PlanFileEditor.add(try draft(screens: []), toPlanAt: inline)
    let opened = try String(contentsOfFile: inline, encoding: .utf8)
    XCTAssertTrue(opened.hasPrefix("plan: P\nactions:  # none yet\n  rateApp:  # 3 records\n"), opened)
    XCTAssertTrue(opened.hasSuffix("events: {}\n"), opened)
    XCTAssertNotNil(try PlanLoader.load(contentsOf: inline).entries.first { $0.name == "rateApp" })

    let missing = try planFile("plan: P\nscreens:\n  home:\n")
    _ = try PlanFileEditor.add(try draft(.events, "appRated", screens: []), toPlanAt: missing)
    let appended = try String(contentsOfFile: missing, encoding: .utf8)
    XCTAssertTrue(
      appended.hasPrefix("plan: P\nscreens:\n  home:\nevents:\n  appRated:  # 3 records\n"), appended)
  }

  /// A plan with a `screens` section must list every screen an entry names: the missing ones are
  /// added to it, saying why.
  func testScreensTheEntryNamesAreAddedToTheScreensSection() throws {
    let path = try planFile(plan)
    _ = try PlanFileEditor.add(try draft(screens: ["profile"]), toPlanAt: path)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    XCTAssertTrue(text.contains("  settings:\n  profile:  # added with action rateApp\nactions:"), text)
    XCTAssertEqual(
      try PlanLoader.load(contentsOf: path).entries.first { $0.name == "rateApp" }?.screens, ["profile"])
  }

  /// A tag already planned, or a file the entry would not load in, is refused and left as it was.
  func testRefusalsLeaveTheFileAsItWas() throws {
    let path = try planFile(plan)
    XCTAssertThrowsError(try PlanFileEditor.add(try draft(.actions, "playPodcast"), toPlanAt: path)) {
      error in
      XCTAssertTrue("\(error)".contains("action playPodcast is already planned"), "\(error)")
    }
    let flow = try planFile("plan: P\nactions: {playPodcast: {}}\n")
    XCTAssertThrowsError(try PlanFileEditor.add(try draft(screens: []), toPlanAt: flow)) { error in
      XCTAssertTrue("\(error)".contains("would not load"), "\(error)")
    }
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), plan)
    XCTAssertEqual(try String(contentsOfFile: flow, encoding: .utf8), "plan: P\nactions: {playPodcast: {}}\n")
  }
}
