import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeUI

/// `y` copies the selected record's JSON to the terminal's clipboard: the event loop writes it as
/// one OSC 52 sequence after the frame, base64-encoded so no byte of the record reaches the
/// terminal as a control.
final class ClipboardCopyTests: XCTestCase {
  func testYPutsTheSelectedRecordsJSONOnTheClipboardOnce() throws {
    var state = Fixtures.state()
    state.type("j")
    let record = try XCTUnwrap(state.state.selection?.record)
    state.type("y")
    let json = try XCTUnwrap(state.state.clipboard)
    XCTAssertEqual(json, RecordLineEncoder.line(record))
    XCTAssertTrue(render(state).text.contains("copied record #\(record.seq)"), render(state).text)
    state.apply(.clipboardWritten)
    XCTAssertNil(state.state.clipboard, "written once")
  }

  func testTheSequenceIsBase64SoNothingInTheRecordDrivesTheTerminal() throws {
    let hostile = "name\u{1B}]0;owned\u{07}\u{9B}2J"
    let sequence = Clipboard.sequence(for: hostile)
    XCTAssertEqual(Array(sequence.prefix(7)), Array("\u{1B}]52;c;".utf8))
    XCTAssertEqual(sequence.last, 0x07)
    let payload = sequence.dropFirst(7).dropLast()
    XCTAssertTrue(payload.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "printable base64 only")
    let decoded = try XCTUnwrap(Data(base64Encoded: Data(payload)))
    XCTAssertEqual(String(decoding: decoded, as: UTF8.self), hostile)
  }

  func testARecordTooLongForATerminalIsNotSent() {
    var state = Fixtures.state()
    state.apply(.copyReady(seq: 9, json: String(repeating: "x", count: Clipboard.limit + 1)))
    XCTAssertNil(state.state.clipboard)
    XCTAssertTrue(render(state).text.contains("export it with e"), render(state).text)
  }
}
