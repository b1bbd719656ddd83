import XCTest

@testable import TagscopeInspector

final class AcknowledgementBufferTests: XCTestCase {
  private func line(_ seq: UInt64?) -> PendingLine {
    PendingLine(bytes: Array("\(seq ?? 0)\n".utf8), seq: seq)
  }

  func testAcknowledgementsArriveInPiecesAndForgetWhatTheyCover() {
    var buffer = AcknowledgementBuffer()
    for seq in 1...10 { buffer.append(line(UInt64(seq))) }
    XCTAssertFalse(buffer.read(Array(#"{"ack""#.utf8)), "half a line is no acknowledgement yet")
    XCTAssertEqual(buffer.count, 10)
    XCTAssertTrue(buffer.read(Array(#":4}"#.utf8) + [10]))
    XCTAssertEqual(buffer.count, 6)
    XCTAssertEqual(buffer.bytes, Array("5\n6\n7\n8\n9\n10\n".utf8), "the rest, in order, to resend")
    XCTAssertTrue(
      buffer.read(Array("{\"ack\":2}\n{\"error\":\"x\"}\nnot json\n".utf8)), "an older one changes nothing")
    XCTAssertEqual(buffer.acknowledged, 4)
    XCTAssertEqual(buffer.count, 6)
    XCTAssertFalse(buffer.read(Array(String(repeating: "9", count: 1000).utf8) + [10]), "an over-long line")
    XCTAssertFalse(buffer.read(Array("{\"ack\":-3}\n".utf8)))
    XCTAssertTrue(buffer.read(Array("{\"ack\":10}\n".utf8)))
    XCTAssertTrue(buffer.isEmpty)
    buffer.append(line(11))
    buffer.append(line(12))
    buffer.removeOldest(1)
    XCTAssertEqual(buffer.bytes, Array("12\n".utf8))
  }
}
