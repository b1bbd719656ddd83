import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeRecording

/// What every report says about itself: when it was made, by which tagscope, against which plan,
/// and which recordings (each one's header: the app, its version and build when the header has
/// them, the device).
public struct ReportMeta: Sendable, Hashable {
  /// One recording's header, as the reports show it.
  public struct Recording: Sendable, Hashable {
    /// The recording's path (`-` for standard input).
    public var file: String
    /// The recording format version (`version`).
    public var formatVersion: Int
    /// The app's name (`app`).
    public var app: String?
    /// The app's version (an `appVersion`, `app_version` or `CFBundleShortVersionString` field).
    public var appVersion: String?
    /// The app's build (an `appBuild`, `app_build`, `build` or `CFBundleVersion` field).
    public var appBuild: String?
    /// The device or simulator (`device`).
    public var device: String?
    /// When recording started, in milliseconds since 1970 (`started`).
    public var startedMilliseconds: Int64?

    /// A recording's entry; every part but the file is optional.
    public init(
      file: String, formatVersion: Int = RecordingHeader.currentVersion, app: String? = nil,
      appVersion: String? = nil, appBuild: String? = nil, device: String? = nil,
      startedMilliseconds: Int64? = nil
    ) {
      self.file = file
      self.formatVersion = formatVersion
      self.app = app.map(Self.clipped)
      self.appVersion = appVersion.map(Self.clipped)
      self.appBuild = appBuild.map(Self.clipped)
      self.device = device.map(Self.clipped)
      self.startedMilliseconds = startedMilliseconds
    }

    /// The entry of the recording at `file` with `header`: only the fields named above are read
    /// from the header's unknown fields (a header may carry a token, which no report repeats).
    public init(file: String, header: RecordingHeader) {
      self.init(
        file: file, formatVersion: header.version, app: header.app,
        appVersion: Self.field(Self.versionKeys, of: header.extra),
        appBuild: Self.field(Self.buildKeys, of: header.extra), device: header.device,
        startedMilliseconds: header.startedMilliseconds)
    }

    /// Header fields read as the app's version, first found wins.
    static let versionKeys = ["appVersion", "app_version", "CFBundleShortVersionString"]
    /// Header fields read as the app's build, first found wins.
    static let buildKeys = ["appBuild", "app_build", "build", "CFBundleVersion"]
    /// Characters kept of each header value (recordings are untrusted).
    static let valueLimit = 200

    private static func field(_ keys: [String], of extra: Properties) -> String? {
      for key in keys {
        switch extra[key] {
        case .string(let text)?: return text
        case .int(let number)?: return String(number)
        case .double(let number)?: return number.description
        default: continue
        }
      }
      return nil
    }

    private static func clipped(_ text: String) -> String {
      text.count > valueLimit ? String(text.prefix(valueLimit)) + "…" : text
    }

    /// `Podcasts 3.2.0 (412) · device iPhone 15`: what the header says of the app and device.
    public var summary: String {
      var app = self.app ?? "app not named"
      if let appVersion { app += " \(appVersion)" }
      if let appBuild { app += " (\(appBuild))" }
      return app + " · device " + (device ?? "not named")
    }
  }

  /// When the report was made, in milliseconds since 1970.
  public var generatedMilliseconds: Int64
  /// The tagscope version that made it.
  public var toolVersion: String
  /// The plan file, its name and its version.
  public var planFile: String
  public var planName: String
  public var planVersion: String?
  /// The recordings validated, in order.
  public var recordings: [Recording]

  /// The metadata of a report made at `generated` against `plan`.
  public init(
    generated: Date, plan: Plan, recordings: [Recording] = [], toolVersion: String = TagscopeVersion.current
  ) {
    generatedMilliseconds = ISO8601Timestamp.milliseconds(of: generated)
    self.toolVersion = toolVersion
    planFile = plan.file
    planName = plan.name
    planVersion = plan.version
    self.recordings = recordings
  }

  /// ``generatedMilliseconds`` in ISO 8601, UTC: `2026-11-21T10:00:04.210Z`.
  public var generatedText: String { ISO8601Timestamp.string(milliseconds: generatedMilliseconds) }

  /// `plan.yaml (Podcasts v3)`.
  public var planText: String {
    "\(planFile) (\(planName)" + (planVersion.map { " v\($0)" } ?? "") + ")"
  }

  /// Recordings named one by one in the text, JUnit and HTML reports; the rest are counted.
  static let recordingsListed = 20
}
