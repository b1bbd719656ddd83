/// What identifies a tag across two recordings of the same journey: its kind, name and the screen
/// it happened on (timing, `seq`, session and history are left out, so two runs compare equal).
public struct TagSignature: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The record's kind (`screen`, `userAction`, a `listen` payload kind…).
  public var kind: String
  /// The tag's name.
  public var name: String
  /// The screen it happened on, when the record says.
  public var screen: String?

  public init(kind: String, name: String, screen: String?) {
    self.kind = kind
    self.name = name
    self.screen = screen
  }

  public static func < (lhs: TagSignature, rhs: TagSignature) -> Bool {
    (lhs.kind, lhs.name, lhs.screen ?? "") < (rhs.kind, rhs.name, rhs.screen ?? "")
  }

  /// `userAction playPodcast on favorites`.
  public var description: String {
    guard let screen, screen != name || kind != "screen" else { return "\(kind) \(name)" }
    return "\(kind) \(name) on \(screen)"
  }
}
