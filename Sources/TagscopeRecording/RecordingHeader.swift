import AnalyticsHub
import Foundation

/// The first line of a recording:
/// `{"format":"tagscope-recording","version":1,"app":"Podcasts","device":"…","started":"…"}`.
public struct RecordingHeader: Sendable, Hashable {
  /// The `format` word every recording starts with.
  public static let formatName = "tagscope-recording"
  /// The recording version this library writes.
  public static let currentVersion = 1

  /// Always ``formatName`` in a recording (`format`).
  public var format: String
  /// The recording version (`version`).
  public var version: Int
  /// The app's name (`app`).
  public var app: String?
  /// The device or simulator (`device`).
  public var device: String?
  /// When recording started, millisecond precision (`started`).
  public var started: Date? {
    get { startedMilliseconds.map(Date.init(recordMilliseconds:)) }
    set { startedMilliseconds = newValue?.recordMilliseconds }
  }
  /// ``started`` in milliseconds since 1970.
  public var startedMilliseconds: Int64?
  /// Fields this version does not know, in the order read.
  public var extra: Properties

  /// What a reader says of this header's version: `nil` for the version it reads; a warning for a
  /// newer one (read field by field: unknown fields are kept, not understood).
  public var versionWarning: String? {
    guard version > Self.currentVersion else { return nil }
    return "format version \(version) is newer than this tagscope reads (\(Self.currentVersion)): "
      + "reading the fields it knows; update tagscope to see the rest"
  }

  /// A header for the current format and version.
  public init(
    app: String? = nil, device: String? = nil, started: Date? = nil,
    format: String = RecordingHeader.formatName,
    version: Int = RecordingHeader.currentVersion, extra: Properties = [:]
  ) {
    self.format = format
    self.version = version
    self.app = app
    self.device = device
    self.startedMilliseconds = started?.recordMilliseconds
    self.extra = extra
  }
}
