/// What one import may produce beyond what its sources spell out, shared by every event of every
/// document: the schema nodes visited through `$ref`s (and RudderStack's custom types and nested
/// property references), and the bytes `{{ .NAME }}` placeholders add. A small source whose
/// references each name the next twice, or a variable's value repeated in every description, then
/// costs at most a multiple of the source's size, however many events share it.
final class ExpansionBudget {
  /// Expanded nodes always allowed, whatever the sources' size.
  static let minimumNodes = 20_000
  /// Source bytes per expanded node allowed beyond the minimum. An expanded node costs about
  /// 275 bytes along the import (its constraints, its text, the check of the plan written): at
  /// 128 source bytes each, the expansions add at most about 2 bytes of memory per source byte,
  /// within the import's bound of 20 (a dense source's own events take most of it).
  static let bytesPerNode = 128
  /// Substituted bytes always allowed (a real project's placeholders add a few KiB: ids, names).
  static let minimumBytes = 256 << 10
  /// Substituted bytes allowed for every byte of the sources (each costs memory again in the
  /// plan written and in the plan loaded to check it).
  static let bytesPerSourceByte = 1

  /// The bytes of the sources.
  let sourceBytes: Int
  /// The expanded nodes allowed.
  let nodeLimit: Int
  /// The substituted bytes allowed.
  let byteLimit: Int
  /// The expanded nodes so far.
  private(set) var nodes = 0
  /// The substituted bytes so far.
  private(set) var bytes = 0

  /// The budget of sources of `sourceBytes` bytes in all.
  init(sourceBytes: Int) {
    self.sourceBytes = max(0, sourceBytes)
    nodeLimit = Self.minimumNodes + max(0, sourceBytes) / Self.bytesPerNode
    byteLimit =
      Self.minimumBytes
      + max(0, sourceBytes).multipliedReportingOverflow(by: Self.bytesPerSourceByte)
      .partialValue
  }

  /// Spends one expanded node; `false` when the budget has none left.
  func spendNode() -> Bool {
    guard nodes < nodeLimit else { return false }
    nodes += 1
    return true
  }

  /// Whether the expanded nodes are all spent.
  var nodesSpent: Bool { nodes >= nodeLimit }

  /// Whether a substitution was refused for passing the budget.
  private(set) var bytesExceeded = false

  /// Spends `count` substituted bytes; `false` (nothing spent) when that would pass the budget.
  func spendBytes(_ count: Int) -> Bool {
    guard count <= byteLimit - bytes else {
      bytesExceeded = true
      return false
    }
    bytes += count
    return true
  }

  /// `the import's expansions passed N nodes (…)`: why something is left out.
  var nodesMessage: String {
    "the import's references expand past \(nodeLimit) nodes (the budget of its \(sourceDescription))"
  }

  /// `the import's placeholders add more than N bytes (…)`.
  var bytesMessage: String {
    "the import's {{ .NAME }} placeholders would add more than \(byteLimit) bytes (the budget of its \(sourceDescription))"
  }

  private var sourceDescription: String { "\(sourceBytes) bytes of sources" }
}
