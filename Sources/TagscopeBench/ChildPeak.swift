import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a command to its end, its output thrown away, and reads what the kernel says it took:
/// its peak resident set (`ru_maxrss` from `wait4`, exact where sampling `/proc` may miss a short
/// peak) and its wall-clock seconds.
enum ChildPeak {
  struct Outcome {
    /// The exit code (a signal is an error instead).
    var exitCode: Int32
    var peakMB: Double
    var seconds: Double
  }

  static func run(_ executable: String, _ arguments: [String]) throws -> Outcome {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard spawned == 0 else { throw BenchError("could not run \(executable): error \(spawned)") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else { throw BenchError("wait4 failed for \(executable): errno \(errno)") }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    guard status & 0x7f == 0 else {
      throw BenchError("\(executable) \(arguments.joined(separator: " ")) ended by signal \(status & 0x7f)")
    }
    return Outcome(
      exitCode: (status >> 8) & 0xff, peakMB: Double(usage.ru_maxrss) / 1024, seconds: seconds)
  }
}
