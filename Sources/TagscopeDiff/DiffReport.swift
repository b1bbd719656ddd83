import TaggingPlan
import TagscopeBasics
import TagscopeTimeline

/// A diff with what it was run on, rendered as text, JSON, JUnit or Markdown.
public struct DiffReport: Sendable {
  /// The differences.
  public var diff: RecordingDiff
  /// The recordings compared.
  public var baseFile: String
  public var newFile: String
  /// The changes that fail the run.
  public var failOn: Set<DiffChange>
  /// Unreadable lines of either recording, skipped (`file:line: reason`).
  public var problems: [String]

  public init(
    diff: RecordingDiff, baseFile: String, newFile: String, failOn: Set<DiffChange>, problems: [String]
  ) {
    self.diff = diff
    self.baseFile = baseFile
    self.newFile = newFile
    self.failOn = failOn
    self.problems = problems
  }

  /// Findings that fail the run.
  public var failures: [DiffFinding] { diff.findings(in: failOn) }

  /// Whether something at `--fail-on` changed.
  public var regressed: Bool { diff.findings.contains { failOn.contains($0.change) } }

  /// The findings grouped by tag, in the diff's order.
  var byTag: [(tag: TagSignature, findings: [DiffFinding])] {
    var groups: [(tag: TagSignature, findings: [DiffFinding])] = []
    for finding in diff.findings {
      if groups.last?.tag == finding.tag {
        groups[groups.count - 1].findings.append(finding)
      } else {
        groups.append((finding.tag, [finding]))
      }
    }
    return groups
  }

  /// `2 removed, 1 renamed` or `no change`.
  var countsLine: String {
    let counts = diff.counts
    return counts.isEmpty
      ? "no change" : counts.map { "\($0.count) \($0.change.rawValue)" }.joined(separator: ", ")
  }

  var verdict: String {
    let failing = failures.count
    return failing == 0
      ? "no regression" : "REGRESSED: \(failing) change\(failing == 1 ? "" : "s") at --fail-on"
  }

  // MARK: Text

  /// The longest change id: the text report's id column, never cut.
  static let idWidth = DiffChange.allCases.map(\.rawValue.count).max() ?? 0

  /// Grouped by tag; `✗` marks a change at `--fail-on`. Every recorded value is sanitized.
  public func text() -> String {
    var out = "tagscope diff \(TerminalText.sanitize(baseFile)) → \(TerminalText.sanitize(newFile))\n"
    out += "base: \(diff.baseRecords) records, \(diff.baseTags) tags · new: \(diff.newRecords) records, "
    out += "\(diff.newTags) tags\n"
    for group in byTag {
      out += "\n" + TerminalText.sanitize(group.tag.description) + "\n"
      for finding in group.findings {
        let mark = failOn.contains(finding.change) ? "✗" : "·"
        let id = finding.change.rawValue.padding(toLength: Self.idWidth, withPad: " ", startingAt: 0)
        out += "  \(mark) \(id) \(TerminalText.sanitize(finding.message))\n"
      }
    }
    out += "\n\(countsLine) · \(verdict)\n"
    return out
  }

  // MARK: Markdown

  /// For a pull-request comment: a verdict, counts, and a table of changes per tag; every recorded
  /// text goes through ``MarkdownText``.
  public func markdown() -> String {
    var out = "### tagscope diff: \(regressed ? "❌" : "✅") \(verdict)\n\n"
    out +=
      "\(MarkdownText.code(baseFile)) (\(diff.baseRecords) records) → \(MarkdownText.code(newFile)) (\(diff.newRecords) records): "
    out += "\(countsLine)\n"
    guard !diff.findings.isEmpty else { return out }
    out += "\n| | Tag | Change | Details |\n|---|---|---|---|\n"
    for finding in diff.findings {
      let mark = failOn.contains(finding.change) ? "❌" : "➕"
      out +=
        "| \(mark) | \(MarkdownText.escape(finding.tag.description)) | `\(finding.change.rawValue)` | \(MarkdownText.escape(finding.message)) |\n"
    }
    if !problems.isEmpty { out += "\n\(problems.count) unreadable line(s) skipped.\n" }
    return out
  }
}
