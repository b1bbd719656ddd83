import Foundation
import TaggingPlan
import TagscopeRecording

/// One tag's entry drafted from its records (`tagscope plan infer`, or the debugger's `a` key on
/// an unplanned record): the YAML to add to a plan's section, and the screens it names.
public struct PlanEntryDraft: Sendable, Hashable {
  /// The section it goes in.
  public var section: PlanSection
  /// The tag's name.
  public var name: String
  /// The entry's lines (`  name:  # 12 records` and what follows, indented for the section).
  public var text: String
  /// The screens its `screens:` and `when: {screen: …}` name: a plan with a `screens` section
  /// must list each.
  public var screens: [String]
  /// Records it was drafted from.
  public var records: Int

  public init(section: PlanSection, name: String, text: String, screens: [String], records: Int) {
    self.section = section
    self.name = name
    self.text = text
    self.screens = screens
    self.records = records
  }
}

extension PlanInference {
  /// The entry drafted for one tag of what was read, or `nil` when no record of it was read.
  public func entry(section: PlanSection, name: String) -> PlanEntryDraft? {
    guard let tag = tag(section: section, name: name) else { return nil }
    let writer = PlanDraftWriter(tags: [tag], files: [], records: tag.count, otherKinds: 0)
    return PlanEntryDraft(
      section: section, name: name, text: writer.entryText(tag), screens: writer.referencedScreens().sorted(),
      records: tag.count)
  }
}

/// Adds drafted entries to a plan file, leaving every other line as it was: the entry goes at the
/// end of its section (the section is added at the end of the file when missing), screens it
/// names that a `screens` section lacks are added to it, and the result must load as a plan
/// before the file is replaced.
public enum PlanFileEditor {
  /// What went wrong adding an entry.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// Adds `draft` to the plan file at `path`; returns the line of the new entry and the plan as
  /// the file now is (loaded to check the result before writing it).
  @discardableResult
  public static func add(_ draft: PlanEntryDraft, toPlanAt path: String) throws(Failure) -> (
    line: Int, plan: Plan
  ) {
    let text: String
    do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
      throw Failure(description: "\(path): cannot read the plan: \(error.localizedDescription)")
    }
    let plan: Plan
    do { plan = try PlanLoader.load(yaml: text, file: path) } catch {
      throw Failure(description: "\(error)")
    }
    guard !plan.entries.contains(where: { $0.section == draft.section && $0.name == draft.name }) else {
      throw Failure(description: "\(path): \(draft.section.noun) \(draft.name) is already planned")
    }
    var lines = text.components(separatedBy: "\n")
    if lines.last == "" { lines.removeLast() }
    if plan.sections.contains(.screens) {
      let known = Set(plan.entries.filter { $0.section == .screens }.map(\.name))
      let missing = draft.screens.filter {
        !known.contains($0) && !($0 == draft.name && draft.section == .screens)
      }
      if !missing.isEmpty {
        let added = missing.map {
          "\(YAMLText.key($0, indent: "  "))  # added with \(draft.section.noun) \(YAMLText.comment(draft.name))"
        }
        _ = insert(added, into: .screens, lines: &lines)
      }
    }
    let entryLines = draft.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      .filter { !$0.isEmpty }
    let line = insert(entryLines, into: draft.section, lines: &lines)
    let result = lines.joined(separator: "\n") + "\n"
    let grown: Plan
    do { grown = try PlanLoader.load(yaml: result, file: path) } catch {
      throw Failure(description: "the plan would not load with the entry (\(error)); nothing written")
    }
    do { try OutputFile.write(Data(result.utf8), to: path, replacing: true) } catch {
      throw Failure(description: "cannot write the plan: \(error)")
    }
    return (line, grown)
  }

  /// Inserts `entry` at the end of `section`'s block (before the next top-level key, after its
  /// last indented line), opening an inline `{}` section, or adds the section at the end; returns
  /// the 1-based line of the entry's first line.
  static func insert(_ entry: [String], into section: PlanSection, lines: inout [String]) -> Int {
    guard let start = lines.firstIndex(where: { topLevelKey($0) == section.key }) else {
      lines.append("\(section.key):")
      lines.append(contentsOf: entry)
      return lines.count - entry.count + 1
    }
    if let colon = lines[start].firstIndex(of: ":") {
      let value = lines[start][lines[start].index(after: colon)...].trimmingCharacters(in: .whitespaces)
      if value.hasPrefix("{}") {
        let rest = value.dropFirst(2).trimmingCharacters(in: .whitespaces)
        lines[start] = rest.isEmpty ? "\(section.key):" : "\(section.key):  \(rest)"
      }
    }
    var end = start + 1
    var lastContent = start
    while end < lines.count, topLevelKey(lines[end]) == nil, !isTopLevelContent(lines[end]) {
      if !lines[end].trimmingCharacters(in: .whitespaces).isEmpty,
        lines[end].first == " " || lines[end].first == "\t"
      {
        lastContent = end
      }
      end += 1
    }
    lines.insert(contentsOf: entry, at: lastContent + 1)
    return lastContent + 2
  }

  /// The key of a top-level mapping line (`actions:`, `plan: Podcasts`), else `nil`.
  static func topLevelKey(_ line: String) -> String? {
    guard let first = line.first, first != " ", first != "\t", first != "#", first != "-",
      let colon = line.firstIndex(of: ":")
    else { return nil }
    return String(line[..<colon]).trimmingCharacters(in: .whitespaces)
  }

  /// A line at column 0 that is not a comment or blank (a top-level item of any kind).
  static func isTopLevelContent(_ line: String) -> Bool {
    guard let first = line.first else { return false }
    return first != " " && first != "\t" && first != "#"
  }
}
