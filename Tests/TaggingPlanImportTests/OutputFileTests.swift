import Foundation
import TagscopeRecording
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `plan import -o`, `listen --record/--junit/--json` and the debugger's plan edits write through
/// `OutputFile`: a new or regular file only.
final class OutputFileTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("output-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  func testANewFileIsCreatedAndARegularFileReplacedOnlyWithForce() throws {
    let file = path("plan.yaml")
    try OutputFile.write(Data("one\n".utf8), to: file, replacing: false)
    XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "one\n")
    XCTAssertThrowsError(try OutputFile.write(Data("two\n".utf8), to: file, replacing: false)) { error in
      XCTAssertEqual("\(error)", "\(file) exists: pass --force to overwrite it")
    }
    try OutputFile.write(Data("two\n".utf8), to: file, replacing: true)
    XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "two\n")
  }

  func testASymbolicLinkIsRefusedAndNeitherItNorItsTargetChanges() throws {
    let target = path("target.yaml")
    let link = path("link.yaml")
    try Data("kept\n".utf8).write(to: URL(fileURLWithPath: target))
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    XCTAssertThrowsError(try OutputFile.write(Data("new\n".utf8), to: link, replacing: true)) { error in
      XCTAssertEqual("\(error)", "\(link) is a symbolic link: only a new or regular file is written")
    }
    XCTAssertEqual(OutputFile.kind(of: link), .symbolicLink)
    XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "kept\n")
  }

  func testAFIFOIsRefusedAndStaysAFIFO() throws {
    let fifo = path("pipe")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    XCTAssertThrowsError(try OutputFile.write(Data("new\n".utf8), to: fifo, replacing: true)) { error in
      XCTAssertEqual("\(error)", "\(fifo) is a FIFO: only a new or regular file is written")
    }
    XCTAssertThrowsError(try OutputFile.check(fifo, replacing: false))
    XCTAssertEqual(OutputFile.kind(of: fifo), .fifo)
  }

  func testADirectoryIsRefused() throws {
    let folder = path("reports")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    XCTAssertThrowsError(try OutputFile.write(Data("new\n".utf8), to: folder, replacing: true)) { error in
      XCTAssertEqual("\(error)", "\(folder) is a directory: only a new or regular file is written")
    }
    XCTAssertEqual(OutputFile.kind(of: folder), .directory)
  }
}
