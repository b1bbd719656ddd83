/// Where ``PrivacyScan``'s walk reports what it finds: the path to the value being walked is
/// kept step by step, and made into text only when something is reported.
protocol PrivacySink {
  /// Whether the walk may stop (nothing more is wanted).
  var isDone: Bool { get }
  /// The path to the value being walked, as text.
  var path: String { get }
  /// Steps into the value named `key`.
  mutating func enter(key: String)
  /// Steps into the element at `index`.
  mutating func enter(index: Int)
  /// Steps back out.
  mutating func leave()
  /// `kind` was found in the value being walked, of `length` characters.
  mutating func report(_ kind: PIIKind, length: Int)
  /// `kind` was found at `path` (a place walked earlier) in a value of `length` characters.
  mutating func report(_ kind: PIIKind, at path: String, length: Int)
}

/// Whether anything is found at all: no path kept, the walk stops at the first finding.
struct PrivacyProbe: PrivacySink {
  private(set) var found = false

  var isDone: Bool { found }
  var path: String { "" }
  @inline(__always) mutating func enter(key: String) {}
  @inline(__always) mutating func enter(index: Int) {}
  @inline(__always) mutating func leave() {}
  mutating func report(_ kind: PIIKind, length: Int) { found = true }
  mutating func report(_ kind: PIIKind, at path: String, length: Int) { found = true }
}

/// Every finding with its path (`user.contacts[1]`), handed to `report`.
struct PrivacyTrail: PrivacySink {
  enum Step {
    case key(String)
    case index(Int)
  }
  let base: String
  let report: (PIIKind, String, Int) -> Void
  var steps: [Step] = []

  var isDone: Bool { false }

  var path: String {
    var text = base
    for step in steps {
      switch step {
      case .key(let name): text += text.isEmpty ? name : ".\(name)"
      case .index(let index): text += "[\(index)]"
      }
    }
    return text
  }

  mutating func enter(key: String) { steps.append(.key(key)) }
  mutating func enter(index: Int) { steps.append(.index(index)) }
  mutating func leave() { steps.removeLast() }
  mutating func report(_ kind: PIIKind, length: Int) { report(kind, path, length) }
  mutating func report(_ kind: PIIKind, at path: String, length: Int) { report(kind, path, length) }
}
