/// Why a line is not a valid recording line: a JSON syntax error (with its byte offset) or a field
/// that is missing or has the wrong type (with its path, `outputs[1].status`).
public struct RecordLineError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The field at fault, as a path (`context.history[2]`), when the JSON itself was valid.
  public var field: String?
  /// What is wrong, in plain words.
  public var reason: String
  /// The byte offset in the line, for syntax errors.
  public var offset: Int?

  /// An error.
  public init(field: String? = nil, reason: String, offset: Int? = nil) {
    self.field = field
    self.reason = reason
    self.offset = offset
  }

  public var description: String {
    if let field { return "field '\(field)': \(reason)" }
    if let offset { return "invalid JSON: \(reason) at byte \(offset + 1)" }
    return reason
  }
}
