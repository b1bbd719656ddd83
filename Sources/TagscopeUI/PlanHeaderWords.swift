/// The words of the plan's part of the header (`plan Podcasts v3: 30 passed, 4 failing, 7 not
/// seen, 3 errors`): what each counts, and whether a narrow header keeps it. One table for the
/// header's shrinking, its hint and the help's legend, so what is kept and what is explained agree.
public enum PlanHeaderWords {
  /// Each word with what it counts; `kept`: what is failing and how many errors, kept when the
  /// header is narrow (the others give way first).
  public static let words: [(word: String, meaning: String, kept: Bool)] = [
    (word: "failing", meaning: "planned items a record broke (c lists them)", kept: true),
    (word: "errors", meaning: "plan and provider-rule violations, error severity (✗ rows, [ ])", kept: true),
    (word: "warnings", meaning: "violations of warning severity", kept: true),
    (word: "blocked", meaning: "planned items only ever blocked (consent, disabled)", kept: true),
    (word: "passed", meaning: "planned items seen and never broken", kept: false),
    (word: "not seen", meaning: "planned items no record has shown yet", kept: false),
  ]

  /// The word a clause (`4 failing`, `1 error`, `re-checking 45%`) counts, singular or plural.
  static func word(of clause: Substring) -> (word: String, meaning: String, kept: Bool)? {
    let text = clause.drop { $0.isNumber || $0 == "," || $0 == " " }
    return words.first { text == $0.word || $0.word.hasSuffix("s") && text == $0.word.dropLast() }
  }

  /// The clauses a narrow header keeps of the plan's text: `plan: 4 failing, 3 errors` of
  /// `plan Podcasts v3: 30 passed, 4 failing, 7 not seen, 3 errors`; a clause the table does not
  /// know (a reload's progress) is kept. `nil` when nothing would be left out.
  static func essentials(of text: String) -> String? {
    guard text.hasPrefix("plan "), let colon = text.firstIndex(of: ":") else { return nil }
    let clauses = text[text.index(after: colon)...].split(separator: ",").map {
      $0.trimmingPrefix(" ")
    }
    let kept = clauses.filter { word(of: $0)?.kept ?? true }
    guard kept.count < clauses.count else { return nil }
    return "plan: " + kept.joined(separator: ", ")
  }

  /// The words the plan's text shows, for the one-line hint: `failing: planned items a record
  /// broke (c lists them) · errors: …`.
  static func legend(of text: String) -> String {
    let shown = words.filter { entry in
      text.contains(" \(entry.word)")
        || entry.word.hasSuffix("s") && text.contains(" \(entry.word.dropLast())")
    }
    return shown.filter(\.kept).map { "\($0.word): \($0.meaning)" }.joined(separator: " · ")
  }
}
