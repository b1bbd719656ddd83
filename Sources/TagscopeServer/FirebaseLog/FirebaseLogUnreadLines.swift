/// Lines that look like Firebase Analytics' (`[I-ACS…]`, `<FIRAnalytics/…>`, logcat `FA`/`FA-SVC`)
/// but that the log reader does not understand, by wording: how many, and where the first was.
/// Past ``wordingLimit`` wordings, the others are counted together.
public struct FirebaseLogUnreadLines: Sendable, Hashable {
  /// The most wordings counted apart.
  public static let wordingLimit = 50

  /// One wording's lines.
  public struct Wording: Sendable, Hashable {
    /// The message id (`I-ACS023044`) or the message's first words.
    public var wording: String
    /// How many lines.
    public var count: Int
    /// The first line's place (`app.log line 40`).
    public var first: String
  }

  /// The wordings, in the order first seen.
  public private(set) var wordings: [Wording] = []
  /// Lines past the wording limit, counted together.
  public private(set) var others = 0

  /// No lines.
  public init() {}

  /// All lines counted.
  public var total: Int { wordings.reduce(others) { $0 + $1.count } }

  /// Counts one line of `wording` at `place`; true when it is the first of its wording (to be
  /// shown).
  @discardableResult
  public mutating func count(_ wording: String, at place: @autoclosure () -> String) -> Bool {
    if let index = wordings.firstIndex(where: { $0.wording == wording }) {
      wordings[index].count += 1
      return false
    }
    guard wordings.count < Self.wordingLimit else {
      others += 1
      return false
    }
    wordings.append(Wording(wording: wording, count: 1, first: place()))
    return true
  }

  /// `firebase log lines not understood 14 (I-ACS023044 ×12 first at app.log line 40, …)`, or
  /// `nil` when there were none; the five most frequent wordings are named.
  public var summary: String? {
    guard total > 0 else { return nil }
    let shown = wordings.enumerated().sorted { ($1.element.count, $0.offset) < ($0.element.count, $1.offset) }
      .prefix(5).map { "\($0.element.wording) ×\($0.element.count) first at \($0.element.first)" }
    let hidden = wordings.count - shown.count
    let rest =
      hidden > 0 || others > 0 ? ", \(hidden) more wordings" + (others > 0 ? " and \(others) lines" : "") : ""
    return "firebase log lines not understood \(total) (" + shown.joined(separator: "; ") + rest + ")"
  }
}
