import Foundation
import XCTest

@testable import TaggingPlan

/// ``Redactor``'s plain-text lines: a line that is not a JSON record is scanned as text (its
/// personal data replaced) and listed with its number, in the line-by-line redaction and in the
/// file copy alike, whatever the chunk size.
final class RedactorPlainTextTests: XCTestCase {
  private let lines = [
    #"{"seq":1,"properties":{"email":"jo@example.com"}}"#,
    "mail jo@example.com or call +33 6 12 34 56 78",
    "",
    #"  {"seq":2,"properties":{"email": ann@example.org, "ok": true, "n": null}}"#,
    #"{"seq":3,"properties":{"ok":false,"n":-1.5e3}}"#,
    "[1,2,3]",
  ]

  func testLinesThatAreNotJSONAreScannedAsTextAndListed() {
    var redactor = Redactor(salt: "plain")
    let copy = lines.map { redactor.redact(line: $0) }
    XCTAssertTrue(copy[1].hasPrefix("mail pii:email:"), copy[1])
    XCTAssertFalse(copy[1].contains("12 34 56"), copy[1])
    XCTAssertTrue(copy[3].contains(#""email": pii:email:"#), copy[3])
    XCTAssertEqual(copy[4], lines[4])
    XCTAssertEqual(
      redactor.plainTextLines.first,
      [
        RedactorPlainTextLine(line: 2, replaced: 2), RedactorPlainTextLine(line: 4, replaced: 1),
        RedactorPlainTextLine(line: 6, replaced: 0),
      ])
    XCTAssertEqual(redactor.plainTextLines.count, 3)
    // The hash of a value found in text is that of the same value in a JSON string.
    let hash = copy[0].split(separator: "pii:email:")[1].prefix(16)
    XCTAssertTrue(copy[1].contains("pii:email:\(hash)"), copy[1])
  }

  func testTheFileCopyListsTheSameLinesForEveryChunkSize() throws {
    var reference = Redactor(salt: "plain")
    let expected = lines.map { reference.redact(line: $0) }.joined(separator: "\n") + "\n"
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "redact-plain-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let input = directory.appendingPathComponent("in.jsonl")
    let output = directory.appendingPathComponent("out.jsonl")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
    for chunkSize in [1, 5, 64, 1 << 17] {
      XCTAssertTrue(FileManager.default.createFile(atPath: output.path, contents: nil))
      let reader = try FileHandle(forReadingFrom: input)
      let writer = try FileHandle(forWritingTo: output)
      var redactor = Redactor(salt: "plain")
      XCTAssertEqual(
        try redactor.copy(from: reader.fileDescriptor, to: writer.fileDescriptor, chunkSize: chunkSize), 6)
      try reader.close()
      try writer.close()
      XCTAssertEqual(
        String(decoding: try Data(contentsOf: output), as: UTF8.self), expected, "chunk \(chunkSize)")
      XCTAssertEqual(redactor.plainTextLines, reference.plainTextLines, "chunk \(chunkSize)")
    }
  }

  func testOnlyTheFirstLinesAreKeptAndAllCounted() {
    var redactor = Redactor(salt: "plain")
    for index in 1...30 { _ = redactor.redact(line: "log \(index)") }
    XCTAssertEqual(redactor.plainTextLines.count, 30)
    XCTAssertEqual(redactor.plainTextLines.first.map(\.line), Array(1...RedactorPlainTextLines.listed))
  }
}
