import Foundation
import XCTest

/// Compares text with `Goldens/<name>.txt` next to this file. A missing golden (or
/// `UPDATE_GOLDENS=1`) is written and the test fails, so every golden is reviewed once.
func assertGolden(_ text: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
  let url = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent()
    .appendingPathComponent("Goldens/\(name).txt")
  let expected = try? String(contentsOf: url, encoding: .utf8)
  if expected == nil || ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1" {
    try? (text + "\n").write(to: url, atomically: true, encoding: .utf8)
    XCTFail("golden \(name) written to \(url.path); review it and run again", file: file, line: line)
    return
  }
  if expected != text + "\n" {
    XCTFail("frame differs from golden \(name):\n\(text)", file: file, line: line)
  }
}
