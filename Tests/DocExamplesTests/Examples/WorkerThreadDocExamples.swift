// swift-format-ignore-file
// WorkerThread's doc comment example, verbatim (DocExampleCoverageTests checks that it is).

import Foundation
import TagscopeRecording
import XCTest

/// WorkerThread's doc comment example, compiled and run.
final class WorkerThreadDocExamples: XCTestCase {
  // Sources/TagscopeRecording/WorkerThread.swift (WorkerThread)
  func testWorkerThreadExample() {
    let worker = WorkerThread(name: "tagscope.example") { worker in
      while !worker.isStopping { _ = worker.pause(seconds: 0.05) }
    }
    worker.stop()  // asks the body to end and waits until it has
    XCTAssertFalse(worker.isRunning)
  }
}
