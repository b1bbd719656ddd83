import Foundation

/// One Python interpreter kept running to make one pass of a reference each time it is asked: a
/// pass of the reference can then be timed between two passes of ours, in the same run, without
/// an interpreter's start-up in each. Its script reads a line on standard input per pass and
/// answers one line of numbers (``numbers()``).
final class PythonPasses {
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private var pending: [UInt8] = []
  private let what: String

  /// Starts ``PythonBaseline/interpreter`` on `script` with `arguments` (its `sys.argv[1...]`) and
  /// `environment` added to this process's; `what` names the reference in an error.
  init(script: String, arguments: [String], environment: [String: String] = [:], what: String) throws {
    self.what = what
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [PythonBaseline.interpreter, "-c", script] + arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardInput = input
    process.standardOutput = output
    try process.run()
  }

  /// Parses a recording with `module.loads` (``PythonBaseline``'s script) once a pass: each
  /// answer is the pass's records per second, wall clock and process CPU time (``pass()``).
  convenience init(_ url: URL, module: String) throws {
    let script = """
      import sys, time
      import \(module) as parser
      loads = parser.loads
      for _ in sys.stdin:
          f = open(sys.argv[1], 'rb'); f.readline()
          n = 0; wall = time.perf_counter(); cpu = time.process_time()
          for line in f:
              loads(line); n += 1
          wall = time.perf_counter() - wall; cpu = time.process_time() - cpu
          f.close()
          print(n / wall, n / cpu, flush=True)
      """
    try self.init(
      script: script, arguments: [url.path],
      what: "\(module).loads passes (scripts/bench installs orjson in .venv)")
  }

  /// Times one pass of `module.loads` over the file.
  func pass() throws -> PythonBaseline.Rate {
    let numbers = try numbers()
    guard numbers.count == 2 else { throw failure }
    return PythonBaseline.Rate(wall: numbers[0], cpu: numbers[1])
  }

  /// Makes one pass and returns the numbers its script answered.
  func numbers() throws -> [Double] {
    try input.fileHandleForWriting.write(contentsOf: Data([10]))
    while !pending.contains(10) {
      let data = output.fileHandleForReading.availableData
      guard !data.isEmpty else { throw failure }
      pending += data
    }
    let end = pending.firstIndex(of: 10)!
    let numbers = String(decoding: pending[..<end], as: UTF8.self).split(separator: " ").compactMap {
      Double($0)
    }
    pending.removeSubrange(...end)
    return numbers
  }

  /// Ends the interpreter and waits for it.
  func close() {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }

  private var failure: BenchError {
    BenchError("\(PythonBaseline.interpreter) \(what) failed")
  }
}
