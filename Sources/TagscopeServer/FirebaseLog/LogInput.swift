/// A device log `listen` reads as it is written (`--log FORMAT PATH`): a file it follows, or
/// standard input (`-`) for a pipe such as `adb logcat … | tagscope listen --log firebase -`.
public struct LogInput: Sendable, Hashable {
  /// The log formats `listen` reads.
  public enum Format: String, Sendable, CaseIterable {
    /// Firebase Analytics' debug log, iOS or Android (see ``FirebaseLogParser``).
    case firebase
  }

  /// What went wrong with `--log`'s arguments, in a sentence.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  public var format: Format
  /// The file's path, or `-` for standard input.
  public var path: String

  public init(format: Format, path: String) {
    self.format = format
    self.path = path
  }

  /// Whether it is standard input.
  public var isStandardInput: Bool { path == "-" }

  /// The name its records' device carries: `stdin`, or the file's name without its extension
  /// (`pixel8` for `logs/pixel8.txt`), at most 12 characters so device labels show it whole.
  public var name: String {
    guard !isStandardInput else { return "stdin" }
    let file = path.split(separator: "/").last.map(String.init) ?? path
    let base = file.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
    let name = base.isEmpty ? file : base
    return String((name.isEmpty ? "log" : name).prefix(12))
  }

  /// The inputs `--log` was given, as `FORMAT PATH` pairs (`firebase device.log firebase -`).
  public static func parse(_ arguments: [String]) throws(Failure) -> [LogInput] {
    guard arguments.count % 2 == 0 else {
      throw Failure(
        description: "--log takes a format and a path (--log firebase FILE, or - for standard input)")
    }
    var inputs: [LogInput] = []
    for index in stride(from: 0, to: arguments.count, by: 2) {
      guard let format = Format(rawValue: arguments[index].lowercased()) else {
        let known = Format.allCases.map(\.rawValue).joined(separator: ", ")
        throw Failure(description: "--log: unknown log format '\(arguments[index])' (known: \(known))")
      }
      inputs.append(LogInput(format: format, path: arguments[index + 1]))
    }
    if inputs.filter(\.isStandardInput).count > 1 {
      throw Failure(description: "--log: standard input (-) can be read once")
    }
    return inputs
  }
}
