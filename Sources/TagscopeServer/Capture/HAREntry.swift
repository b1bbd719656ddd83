import Foundation

/// One request of a HAR 1.2 capture (`log.entries[i]`), the fields an SDK decoder needs.
struct HAREntry: Sendable {
  /// Its place in `log.entries`, from 0.
  var index: Int
  /// `startedDateTime`: when the request was sent.
  var started: Date
  /// `request.method`.
  var method: String
  /// `request.url`, its query included.
  var url: String
  /// `request.headers`, in order.
  var headers: [(name: String, value: String)]
  /// `request.postData.text`, base64 undone when the capture says so; `nil` without a body.
  var body: [UInt8]?
  /// `request.postData.mimeType`, the body's `Content-Type` when the headers have none.
  var mimeType: String?
  /// `response.status`, when the capture has one (0, what browsers write for a request with no
  /// answer, is none).
  var responseStatus: Int?
}

/// What is wrong with a HAR file or one of its entries, and where: the entry's index, the field
/// (`request.postData.text`) and the byte offset in the file.
public struct HARProblem: Error, Sendable, Hashable, CustomStringConvertible {
  /// The entry's index in `log.entries`, or `nil` for the file as a whole.
  public var entry: Int?
  /// The field, as a path from the entry (or from the file's top for the file).
  public var field: String
  /// What is wrong, in plain words.
  public var message: String

  /// A problem of entry `entry` (or of the file, `nil`) at `field`.
  public init(entry: Int?, field: String, message: String) {
    self.entry = entry
    self.field = field
    self.message = message
  }

  public var description: String {
    (entry.map { "entry \($0)" } ?? "file") + ", \(field): \(message)"
  }
}
