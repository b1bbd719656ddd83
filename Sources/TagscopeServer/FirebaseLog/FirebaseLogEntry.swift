import AnalyticsHub
import Foundation

/// The platform whose Firebase Analytics SDK wrote a log line.
public enum FirebaseLogPlatform: String, Sendable, Hashable {
  /// Apple platforms: Xcode's console, `log stream` (default, compact or syslog style).
  case iOS
  /// Android: `adb logcat` (threadtime, time or brief) or Android Studio's Logcat.
  case android = "Android"
}

/// Where a logged entry came from: its platform, the process the log line names (when it names
/// one) and the line it starts on.
public struct FirebaseLogOrigin: Sendable, Hashable {
  /// The SDK's platform, told by the wording of the line.
  public var platform: FirebaseLogPlatform
  /// The process or app name the line's prefix names (`AnalyticsExample`, `com.example.app`).
  public var process: String?
  /// The process id the line's prefix names.
  public var processID: String?
  /// The line number the entry starts on (1 for the first line read).
  public var line: Int
  /// When the line says it was written, if its prefix has a full timestamp with its time zone
  /// (Xcode's console, `log stream`'s default style: `2022-10-10 09:11:14.373105-0500`).
  public var time: Date?
}

/// One parameter as the SDK logged it: the name it printed, the SDK's short name beside it
/// (`_o`, `_sn`), and its typed value.
public struct FirebaseLogParameter: Sendable, Hashable {
  /// The name as printed (`ga_event_origin`, `preference`).
  public var name: String
  /// The SDK's internal short name printed beside it (`_o`), if any.
  public var shortName: String?
  /// The value: numbers stay numbers, nested bundles objects, item lists arrays.
  public var value: PropertyValue
}

/// An event the SDK logged (`Logging event: …`).
public struct FirebaseLoggedEvent: Sendable, Hashable {
  /// The event name as printed (`screen_view`, `preferred_temperature_changed`).
  public var name: String
  /// The SDK's short name printed beside it (`_vs`), if any.
  public var shortName: String?
  /// Who logged it: `app` (the app's call), `auto` (the SDK itself), or another origin the SDK
  /// printed; `nil` when the line does not say.
  public var origin: String?
  /// The parameters, in the order printed.
  public var parameters: [FirebaseLogParameter]
  /// Where it came from.
  public var source: FirebaseLogOrigin
  /// The entry's text from its phrase on (`Logging event: …`), its lines joined by `\n`.
  public var raw: String
}

/// A user property the SDK set or removed (`Setting user property …`, `Removing user property …`).
public struct FirebaseLoggedUserProperty: Sendable, Hashable {
  /// The property name as printed.
  public var name: String
  /// The SDK's short name printed beside it (`_sid`), if any.
  public var shortName: String?
  /// The value, or `nil` when the property was removed (cleared).
  public var value: PropertyValue?
  /// Where it came from.
  public var source: FirebaseLogOrigin
  /// The entry's text from its phrase on.
  public var raw: String
}

/// What a Firebase debug log entry says.
public enum FirebaseLogEntry: Sendable, Hashable {
  case event(FirebaseLoggedEvent)
  case userProperty(FirebaseLoggedUserProperty)
}

/// A log entry that could not be read: the line it starts on and what is wrong. The entry is
/// skipped; the lines after it are read as usual. A line that looks like a Firebase Analytics
/// line but says nothing the reader knows is one too, with its ``wording`` (what it is counted
/// under: ``FirebaseLogUnreadLines``).
public struct FirebaseLogProblem: Error, Sendable, Hashable, CustomStringConvertible {
  /// The line the entry starts on.
  public var line: Int
  /// What is wrong, in a sentence.
  public var message: String
  /// For a line not understood: its message id (`I-ACS023044`) or first words; `nil` for an
  /// entry that could not be read.
  public var wording: String? = nil

  public var description: String { "line \(line): \(message)" }
}

/// One result of reading log lines: an entry or a problem, in the order of the log.
public enum FirebaseLogItem: Sendable, Hashable {
  case entry(FirebaseLogEntry)
  case problem(FirebaseLogProblem)
}
