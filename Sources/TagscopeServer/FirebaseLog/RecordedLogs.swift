import AnalyticsHub
import Foundation
import TagscopeRecording

/// How far each log file `listen --log` follows was recorded, read from a recording being
/// continued: a restarted `listen` reads a log on from after its last recorded entry (when the
/// file still starts with the bytes read up to there) instead of recording its entries again.
///
/// Each record made from a log file's entry keeps, in its output's `log_position`, the file's
/// absolute path, the bytes and lines up to the entry's end, and the SHA-256 of those bytes.
public struct RecordedLogs: Sendable {
  /// Where an entry ends in its file.
  struct Place: Sendable, Hashable {
    /// The file's absolute path.
    var file: String
    /// The bytes from the file's start to the end of the entry's last line (its newline
    /// included).
    var offset: Int
    /// The lines those bytes hold.
    var lines: Int
    /// The SHA-256 of those bytes, in lowercase hexadecimal.
    var fingerprint: String

    /// The place as the output's `log_position` holds it.
    var value: PropertyValue {
      .object([
        "file": .string(file), "offset": .int(offset), "lines": .int(lines), "sha256": .string(fingerprint),
      ])
    }

    init(file: String, offset: Int, lines: Int, fingerprint: String) {
      (self.file, self.offset, self.lines, self.fingerprint) = (file, offset, lines, fingerprint)
    }

    /// The place a `log_position` value holds, if it is one.
    init?(_ value: PropertyValue?) {
      let fields = Payload.object(value)
      guard let file = Payload.string(fields["file"]), case .int(let offset)? = fields["offset"],
        case .int(let lines)? = fields["lines"], let fingerprint = Payload.string(fields["sha256"]),
        offset >= 0, lines >= 0
      else { return nil }
      self.init(file: file, offset: offset, lines: lines, fingerprint: fingerprint)
    }
  }

  /// The output field that holds an entry's place.
  static let key = "log_position"

  /// The last place noted per file.
  private var places: [String: Place] = [:]

  /// None.
  public init() {}

  /// How many log files have a recorded place.
  public var count: Int { places.count }

  /// Notes `record`'s place, if it was made from a log file's entry: the last noted for a file is
  /// where reading it goes on (a log read again from its start makes lower places later).
  public mutating func note(_ record: Record) {
    guard let output = record.outputs.first, let place = Place(output.extra[Self.key]) else { return }
    places[place.file] = place
  }

  /// Where the entries of `file` (an absolute path) were last recorded.
  func place(file: String) -> Place? { places[file] }

  /// `path` made absolute (from the working directory) and standardized, as places name files.
  static func absolute(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }
}
