import Foundation
import XCTest

/// The executables the build put beside this test bundle (`tagscope`), run as a user would.
enum BuiltProducts {
  /// The folder of the build's products.
  static var folder: URL {
    #if os(Linux)
      URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    #else
      Bundle(for: DocExampleCoverageTests.self).bundleURL.deletingLastPathComponent()
    #endif
  }

  /// The built `tagscope`; fails the test when the build did not make it.
  static func tagscope(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
    let url = folder.appendingPathComponent("tagscope")
    guard FileManager.default.isExecutableFile(atPath: url.path) else {
      XCTFail("no built tagscope at \(url.path): swift build --build-tests builds it", file: file, line: line)
      throw CocoaError(.fileNoSuchFile)
    }
    return url
  }

  /// Runs `tagscope ARGUMENTS…` to its end: its exit status and standard output (standard error
  /// after it).
  static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = try tagscope()
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Standard error is small (a message); standard output is read to its end first.
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: outputData, as: UTF8.self),
      String(decoding: errorData, as: UTF8.self)
    )
  }
}
