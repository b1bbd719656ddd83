import Foundation
import TaggingPlan
import XCTest

@testable import TaggingPlanImport

/// The deepest imports, each on a thread with a secondary thread's default stack (512 KiB).
/// Run by ``HostileImportTests/testTheDeepestImportsFitASecondaryThreadsStack()`` in a child test
/// process (a stack overflow there fails that test); skipped in the test run itself.
final class SmallStackImportTests: XCTestCase {
  /// Set in the child's environment.
  static let childVariable = "TAGSCOPE_SMALL_STACK_IMPORT_CHILD"
  /// A secondary thread's default stack size on Linux and Darwin.
  static let stackSize = 512 << 10

  func testTheDeepestImportsEndOnA512KiBStack() throws {
    try XCTSkipUnless(
      ProcessInfo.processInfo.environment[Self.childVariable] != nil,
      "run in a child process by HostileImportTests")
    let depth = DocumentReader.maximumDepth - 2
    let nested =
      #"{"title":"Nested","type":"object","properties":{"a":"#
      + String(repeating: #"{"type":"object","properties":{"a":"#, count: depth / 2 - 2)
      + "{}" + String(repeating: "}}", count: depth / 2 - 2) + "}}"
    let sources: [(String, String, ImportFormat)] = [
      ("chain.json", HostileImportInputs.refChainSchema(length: 600), .jsonschema),
      ("segment.json", HostileImportInputs.refChainSegment(length: 600), .segment),
      ("iglu.json", HostileImportInputs.refChainIglu(length: 600), .iglu),
      ("enum.json", HostileImportInputs.deepEnum(depth: depth - 4), .jsonschema),
      ("nested.json", nested, .jsonschema),
    ]
    for (file, text, format) in sources {
      let outcome = Self.onSmallStack { () -> Result<ImportedPlan, ImportError> in
        Result { () throws(ImportError) -> ImportedPlan in
          let document = try DocumentReader.document(text, file: file)
          return try PlanImporter.run(
            documents: [document], format: format, options: ImportOptions(provider: "segment"))
        }
      }
      let plan = try outcome.get()
      XCTAssertEqual(plan.catalogue.calls.count, 1, file)
    }
    let folder = try HostileImportInputs.folder(HostileImportInputs.rudderCustomTypeChain(length: 5_000))
    defer { try? FileManager.default.removeItem(at: folder) }
    let rudder = Self.onSmallStack { () -> Result<ImportedPlan, ImportError> in
      Result { () throws(ImportError) -> ImportedPlan in
        try PlanImporter.run(paths: [folder.path], options: ImportOptions(format: .rudderstack))
      }
    }
    XCTAssertEqual(try rudder.get().catalogue.calls.map(\.key), ["Chained"])
  }

  /// `work`'s result, run on a new thread of ``stackSize`` bytes, waited for.
  static func onSmallStack<Value>(_ work: @escaping @Sendable () -> Value) -> Value {
    let box = ResultBox<Value>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      box.value = work()
      done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    return box.value!
  }
}

/// A value handed from the thread that computed it to the one that waited for it (after a
/// semaphore, which orders the two).
private final class ResultBox<Value>: @unchecked Sendable {
  var value: Value?
}
