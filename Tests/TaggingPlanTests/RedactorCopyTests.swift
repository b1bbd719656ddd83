import Foundation
import TagscopeRecording
import XCTest

@testable import TaggingPlan

/// ``Redactor/copy(from:to:chunkSize:)``: clean lines written from the read buffer, redacted lines
/// between them, lines split between reads gathered; the copy is the line-by-line redaction's, for
/// every chunk size.
final class RedactorCopyTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "redact-copy-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try FileManager.default.removeItem(at: directory)
  }

  /// The demo's clean lines with lines holding personal data among them (two in a row, one first),
  /// an empty line and a line longer than most chunks.
  private func lines() throws -> [String] {
    var bytes: [UInt8] = []
    for record in try DemoPlanTests.demoSession() { RecordLineEncoder.appendLine(record, to: &bytes) }
    let demo = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    let personal = (0..<4).map { index in
      "{\"seq\":\(index),\"parameters\":{\"email\":\"jo\(index)@example.com\","
        + "\"contact\":\"call +33 6 12 34 56 7\(index)\",\"ip\":\"203.0.113.\(index)\"}}"
    }
    let long = "{\"text\":\"" + String(repeating: "clean words ", count: 400) + "jo@example.com\"}"
    var lines = [personal[0]]
    for (index, line) in demo.prefix(12).enumerated() {
      lines.append(line)
      if index == 3 { lines += [personal[1], personal[2]] }
      if index == 6 { lines += ["", long] }
    }
    return lines + [personal[3], "{\"last\":true}"]
  }

  /// The copy of `text` made with `chunkSize`, and the number of lines it counted.
  private func copy(_ text: String, chunkSize: Int, salt: String = "copy") throws -> (String, Int, [Int]) {
    let input = directory.appendingPathComponent("in.jsonl")
    let output = directory.appendingPathComponent("out.jsonl")
    try Data(text.utf8).write(to: input)
    XCTAssertTrue(FileManager.default.createFile(atPath: output.path, contents: nil))
    let reader = try FileHandle(forReadingFrom: input)
    let writer = try FileHandle(forWritingTo: output)
    var redactor = Redactor(salt: salt)
    let count = try redactor.copy(
      from: reader.fileDescriptor, to: writer.fileDescriptor, chunkSize: chunkSize)
    try reader.close()
    try writer.close()
    return (String(decoding: try Data(contentsOf: output), as: UTF8.self), count, redactor.counts)
  }

  func testTheCopyIsTheLineByLineRedactionForEveryChunkSize() throws {
    let lines = try lines()
    var redactor = Redactor(salt: "copy")
    let expected = lines.map { redactor.redact(line: $0) }
    XCTAssertNotEqual(expected, lines)
    XCTAssertGreaterThan(redactor.counts[PIIKind.email.index], 4)
    for text in [lines.joined(separator: "\n") + "\n", lines.joined(separator: "\n")] {
      let wanted = expected.joined(separator: "\n") + (text.hasSuffix("\n") ? "\n" : "")
      for chunkSize in [1, 2, 7, 64, 1_000, 4_096, 1 << 17] {
        let (copy, count, counts) = try self.copy(text, chunkSize: chunkSize)
        XCTAssertEqual(count, lines.count, "chunk \(chunkSize)")
        XCTAssertEqual(counts, redactor.counts, "chunk \(chunkSize)")
        XCTAssertEqual(
          copy, wanted, "chunk \(chunkSize), \(text.hasSuffix("\n") ? "" : "no ")last line break")
      }
    }
  }

  func testAnEmptyInputGivesAnEmptyCopy() throws {
    let (copy, count, _) = try copy("", chunkSize: 64)
    XCTAssertEqual(copy, "")
    XCTAssertEqual(count, 0)
  }

  /// A descriptor that cannot be read or written is reported with the call that failed.
  func testAFailedReadOrWriteIsReported() throws {
    let path = directory.appendingPathComponent("file").path
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("{\"a\":1}\n".utf8)))
    let readOnly = try XCTUnwrap(FileHandle(forReadingAtPath: path))
    let writeOnly = try XCTUnwrap(FileHandle(forWritingAtPath: path))
    defer {
      try? readOnly.close()
      try? writeOnly.close()
    }
    var redactor = Redactor(salt: "copy")
    XCTAssertThrowsError(try redactor.copy(from: writeOnly.fileDescriptor, to: writeOnly.fileDescriptor)) {
      XCTAssertEqual(($0 as? RedactedCopyError)?.operation, "read")
    }
    XCTAssertThrowsError(try redactor.copy(from: readOnly.fileDescriptor, to: readOnly.fileDescriptor)) {
      XCTAssertEqual(($0 as? RedactedCopyError)?.operation, "write")
    }
  }
}
