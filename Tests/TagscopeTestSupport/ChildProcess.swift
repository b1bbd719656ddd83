import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Kills a child process still running after a time limit: a hung child (a Python client looping,
/// an SDK retrying forever) then fails its test with what it printed instead of holding the whole
/// run until CI's limit. The limit only ends a wait that would never end; no test waits for it.
public final class HangGuard: @unchecked Sendable {
  /// The limit when none is given: far past the slowest child's run (SDK clients with retries).
  public static let defaultSeconds: TimeInterval = 600

  private let lock = NSLock()
  private var finished = false
  private var killed = false

  /// Guards `process`, which is running, for `seconds`.
  public init(_ process: Process, seconds: TimeInterval = HangGuard.defaultSeconds) {
    let pid = process.processIdentifier
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
      lock.withLock {
        // A child already gone (reaped: its pid may be another process's now) is not killed.
        guard !finished, process.isRunning else { return }
        killed = true
        kill(pid, SIGKILL)
      }
    }
  }

  /// Ends the guard once the child's output ended; whether the guard killed it.
  public func finish() -> Bool {
    lock.withLock {
      finished = true
      return killed
    }
  }
}

/// Runs `process` (configured, not started) with its output and errors on one pipe, under a
/// ``HangGuard`` of `seconds`: its exit status and what it printed (a kill said at the end).
public func runToEnd(_ process: Process, hangGuard seconds: TimeInterval = HangGuard.defaultSeconds) throws
  -> (status: Int32, output: String)
{
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  try process.run()
  let guarding = HangGuard(process, seconds: seconds)
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  let killed = guarding.finish()
  process.waitUntilExit()
  var output = String(decoding: data, as: UTF8.self)
  if killed { output += "\n[killed by the test's hang guard: still running after \(Int(seconds)) s]\n" }
  return (process.terminationStatus, output)
}
