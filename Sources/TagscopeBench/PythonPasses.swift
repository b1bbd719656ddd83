import Foundation

/// One Python interpreter kept running to parse a recording with `module.loads` (``PythonBaseline``'s
/// script) once each time it is asked: a pass of the reference can then be timed between two passes
/// of ours, in the same run, without an interpreter's start-up in each.
final class PythonPasses {
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private var pending: [UInt8] = []
  private let module: String

  /// Starts the interpreter (``PythonBaseline/interpreter``) on `url`; it waits for ``pass()``.
  init(_ url: URL, module: String) throws {
    self.module = module
    // Each line on standard input asks for one pass over every line after the header; each
    // answer is the pass's records per second, wall clock and process CPU time.
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
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [PythonBaseline.interpreter, "-c", script, url.path]
    process.standardInput = input
    process.standardOutput = output
    try process.run()
  }

  /// Times one pass of the interpreter over the file.
  func pass() throws -> PythonBaseline.Rate {
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
    guard numbers.count == 2 else { throw failure }
    return PythonBaseline.Rate(wall: numbers[0], cpu: numbers[1])
  }

  /// Ends the interpreter and waits for it.
  func close() {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }

  private var failure: BenchError {
    BenchError(
      "\(PythonBaseline.interpreter) \(module).loads passes failed (scripts/bench installs orjson in .venv)")
  }
}
