import Foundation

/// Python's JSON parsers on the same recording, run side by side with ours: `orjson.loads` (the
/// fast baseline, from the venv `scripts/bench` sets up) and the standard library's `json.loads`.
enum PythonBaseline {
  /// Records per second of `module.loads` over every line after the header.
  struct Rate {
    /// Wall clock.
    var wall: Double
    /// Process CPU time.
    var cpu: Double
  }

  /// The interpreter: `$TAGSCOPE_PYTHON` (the venv with orjson) or `python3`.
  static var interpreter: String { ProcessInfo.processInfo.environment["TAGSCOPE_PYTHON"] ?? "python3" }

  /// The rate of `module.loads` (`orjson` or `json`) on `url`, best of `runs` passes.
  static func rate(_ url: URL, module: String, runs: Int = 1) throws -> Rate {
    let script = """
      import sys, time
      import \(module) as parser
      loads = parser.loads
      best_wall = best_cpu = float('inf'); n = 0
      for _ in range(\(runs)):
          f = open(sys.argv[1], 'rb'); f.readline()
          n = 0; wall = time.perf_counter(); cpu = time.process_time()
          for line in f:
              loads(line); n += 1
          best_wall = min(best_wall, time.perf_counter() - wall)
          best_cpu = min(best_cpu, time.process_time() - cpu)
          f.close()
      print(n / best_wall, n / best_cpu)
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [interpreter, "-c", script, url.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let numbers = String(decoding: data, as: UTF8.self).split(separator: " ").compactMap {
      Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    guard process.terminationStatus == 0, numbers.count == 2 else {
      throw BenchError(
        "\(interpreter) \(module).loads baseline failed (scripts/bench installs orjson in .venv)")
    }
    return Rate(wall: numbers[0], cpu: numbers[1])
  }
}
