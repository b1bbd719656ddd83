import Foundation
import NIOCore
import XCTest

@testable import TagscopeServer

/// The line a native record is stored as: the bytes that arrived, `source` (and `run`) added.
final class StoredLineTests: XCTestCase {
  func testTheLineOfAnEmptyObjectGetsItsSourceWithoutAStrayComma() {
    var buffer = ByteBuffer(string: "{}  \r")
    XCTAssertEqual(
      String(decoding: NativeStreamHandler.storedLine(buffer, source: "a", run: "r"), as: UTF8.self),
      #"{"source":"a","run":"r"}"# + "\n")
    buffer = ByteBuffer(string: #"{"seq":1}"#)
    XCTAssertEqual(
      String(decoding: NativeStreamHandler.storedLine(buffer, source: "a", run: nil), as: UTF8.self),
      #"{"seq":1,"source":"a"}"# + "\n")
  }
}
