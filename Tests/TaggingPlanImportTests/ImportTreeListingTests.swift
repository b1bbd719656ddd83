import Foundation
import XCTest

@testable import TaggingPlanImport

/// What an import lists under a directory (`ImportInput.tree(at:)`, walked with `readdir`): the
/// same files `FileManager`'s enumerator gave, sorted — hidden entries skipped, a link followed to
/// a file but never into a directory — and apart, reported by the import, what it does not read: a
/// link to nothing, a link to a directory, an entry or a directory it cannot read.
final class ImportTreeListingTests: XCTestCase {
  private var root: URL!

  override func setUpWithError() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("tree-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: root)
  }

  private func write(_ relative: String) throws {
    let file = root.appendingPathComponent(relative)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("{}".utf8).write(to: file)
  }

  private func link(_ relative: String, to destination: String) throws {
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent(relative).path, withDestinationPath: destination)
  }

  func testATreeListsItsFilesSortedAsTheEnumeratorDid() throws {
    try write("com.b/event/jsonschema/1-0-0")
    try write("com.a/event/jsonschema/1-0-1")
    try write("com.a/event/jsonschema/1-0-0")
    try write("com.a/.hidden/jsonschema/1-0-0")
    try write(".git/config")
    try write("com.a/.notes")
    try write("elsewhere/real/jsonschema/1-0-0")
    try link("com.a/linked-file", to: "../elsewhere/real/jsonschema/1-0-0")
    try link("com.a/linked-directory", to: "../elsewhere")
    try link("com.a/broken", to: "nowhere")

    let tree = try XCTUnwrap(ImportInput.tree(at: root.path))
    let listed = tree.files
    XCTAssertEqual(
      tree.unread,
      [
        ImportInput.Unread(path: root.path + "/com.a/broken", reason: .linkToNothing),
        ImportInput.Unread(path: root.path + "/com.a/linked-directory", reason: .linkToDirectory),
      ])
    let expected = [
      "com.a/event/jsonschema/1-0-0", "com.a/event/jsonschema/1-0-1", "com.a/linked-file",
      "com.b/event/jsonschema/1-0-0", "elsewhere/real/jsonschema/1-0-0",
    ].map { root.path + "/" + $0 }
    XCTAssertEqual(listed, expected)
    XCTAssertEqual(try ImportInput.tree(at: root.path + "/"), tree, "a trailing slash lists the same")

    // What FileManager's enumerator listed (the walk this one replaces), filtered the same way.
    var enumerated: [String] = []
    let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: root.path))
    while let relative = enumerator.nextObject() as? String {
      guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
      var isDirectory: ObjCBool = false
      let full = root.path + "/" + relative
      if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
        enumerated.append(full)
      }
    }
    XCTAssertEqual(listed, enumerated.sorted())
  }

  func testAFileIsNotATreeAndNothingThereIsAnError() throws {
    try write("one.json")
    XCTAssertNil(try ImportInput.tree(at: root.appendingPathComponent("one.json").path))
    XCTAssertThrowsError(try ImportInput.tree(at: root.appendingPathComponent("missing").path)) { error in
      XCTAssertEqual((error as? ImportError)?.file, root.appendingPathComponent("missing").path)
    }
  }

  func testATreeImportsThroughALinkToItsDirectory() throws {
    try write("schemas/com.a/event/jsonschema/1-0-0")
    try link("plans", to: root.appendingPathComponent("schemas").path)
    let listed = try XCTUnwrap(ImportInput.tree(at: root.appendingPathComponent("plans").path))
    XCTAssertEqual(listed.files, [root.path + "/plans/com.a/event/jsonschema/1-0-0"])
  }

  func testAnImportReportsALinkToNothingItWouldHaveReadAndReadsTheRest() throws {
    let schema = """
      {"$schema": "http://iglucentral.com/schemas/com.snowplowanalytics.self-desc/schema/jsonschema/1-0-0#",
       "self": {"vendor": "com.a", "name": "event", "format": "jsonschema", "version": "1-0-0"},
       "type": "object", "properties": {"id": {"type": "string"}}}
      """
    let file = root.appendingPathComponent("com.a/event/jsonschema/1-0-0")
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(schema.utf8).write(to: file)
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("com.a/gone/jsonschema"), withIntermediateDirectories: true)
    try link("com.a/gone/jsonschema/1-0-0", to: "../../moved/1-0-0")
    try link("com.a/notes.txt", to: "nowhere")

    let plan = try PlanImporter.run(paths: [root.path], options: ImportOptions(format: .iglu))
    XCTAssertEqual(plan.catalogue.calls.count, 1)
    let unread = plan.warnings.filter { $0.message.contains("a link to nothing") }
    XCTAssertEqual(unread.map(\.file), [root.path + "/com.a/gone/jsonschema/1-0-0"], "\(plan.warnings)")
  }

  func testAnImportReportsALinkToADirectoryItDoesNotWalk() throws {
    try writeSchema("com.a/event/jsonschema/1-0-0")
    try writeSchema("elsewhere/com.b/event/jsonschema/1-0-0")
    try link("com.b", to: "elsewhere/com.b")

    let plan = try PlanImporter.run(
      paths: [root.path + "/com.a", root.path + "/com.b"], options: ImportOptions(format: .iglu))
    XCTAssertEqual(plan.catalogue.calls.count, 2, "a directory named through a link is walked")
    let whole = try PlanImporter.run(paths: [root.path], options: ImportOptions(format: .iglu))
    let unread = whole.warnings.filter { $0.message.contains("a link to a directory") }
    XCTAssertEqual(unread.map(\.file), [root.path + "/com.b"], "\(whole.warnings)")
    XCTAssertEqual(whole.catalogue.calls.count, 2, "the rest is read (com.a, and com.b where it really is)")
  }

  func testAnEntryOfNoKindThatCannotBeReadIsListedAsUnread() {
    var found = DirectoryWalk.Found()
    let vanished = root.path + "/vanished"
    XCTAssertFalse(DirectoryWalk.classify(vanished, type: Int32(DT_UNKNOWN), into: &found))
    XCTAssertEqual(found.unread, [ImportInput.Unread(path: vanished, reason: .unreadableEntry)])
    XCTAssertEqual(found.files, [])
  }

  func testASubdirectoryThatCannotBeOpenedIsListedAsUnreadAndTheRootIsAnError() throws {
    var found = DirectoryWalk.Found()
    let vanished = root.path + "/vanished"
    try DirectoryWalk.collect(vanished, root: root.path, into: &found)
    XCTAssertEqual(found.unread, [ImportInput.Unread(path: vanished, reason: .unreadableDirectory)])
    XCTAssertThrowsError(try DirectoryWalk.collect(vanished, root: vanished, into: &found)) { error in
      XCTAssertEqual((error as? ImportError)?.file, vanished)
    }
  }

  private func writeSchema(_ relative: String) throws {
    let parts = relative.split(separator: "/").suffix(4).map(String.init)
    let schema = """
      {"$schema": "http://iglucentral.com/schemas/com.snowplowanalytics.self-desc/schema/jsonschema/1-0-0#",
       "self": {"vendor": "\(parts[0])", "name": "\(parts[1])", "format": "jsonschema", "version": "\(parts[3])"},
       "type": "object", "properties": {"id": {"type": "string"}}}
      """
    let file = root.appendingPathComponent(relative)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(schema.utf8).write(to: file)
  }
}
