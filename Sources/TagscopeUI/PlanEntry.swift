import TagscopeRecording
import TagscopeTimeline

/// A plan entry drafted from the records of an unplanned tag, to preview before it is added to
/// the plan file (`a`, then `y`).
public struct PlanEntryPreview: Sendable, Hashable {
  /// The plan file it would be added to.
  public var planFile: String
  /// The plan section's key (`actions`) and the tag's name.
  public var section: String
  public var name: String
  /// `action notEnoughStorage`: the tag as coverage names it.
  public var label: String
  /// The entry's YAML lines, indented for its section, as they would be written.
  public var text: String
  /// The screens the entry names (a plan's `screens` section must list them).
  public var screens: [String]
  /// Records it was drafted from.
  public var records: Int

  public init(
    planFile: String, section: String, name: String, label: String, text: String, screens: [String],
    records: Int
  ) {
    self.planFile = planFile
    self.section = section
    self.name = name
    self.label = label
    self.text = text
    self.screens = screens
    self.records = records
  }

  /// What the preview shows: the section key, then the entry.
  public var lines: [String] {
    ["\(section):"] + text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
  }
}

/// Why no entry can be drafted or added (no plan file, the tag is planned, the file changed…).
public struct PlanEntryFailure: Error, Sendable, Hashable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// The plan-entry overlay: loading, then the preview scrolled to `scroll`.
public struct PlanEntryView: Sendable, Hashable {
  /// The record whose tag is drafted.
  public var index: Int
  public var preview: PlanEntryPreview?
  public var scroll = 0
}

extension State {
  /// `a`: drafts the selected record's tag for the plan, when the plan does not have it.
  mutating func startPlanEntry() -> [Effect] {
    guard let index = selectedIndex else {
      notice = "nothing selected"
      return []
    }
    guard info.planSummary != nil else {
      notice = "no plan loaded: start with --plan FILE to draft entries into it"
      return []
    }
    overlay = .planEntry(PlanEntryView(index: index))
    return [.draftPlanEntry(index)]
  }

  mutating func planEntryDrafted(index: Int, _ result: Result<PlanEntryPreview, PlanEntryFailure>) {
    guard case .planEntry(var view) = overlay, view.index == index else { return }
    switch result {
    case .success(let preview):
      view.preview = preview
      overlay = .planEntry(view)
    case .failure(let failure):
      overlay = .none
      notice = Sanitizer.clean(failure.description, limit: 300)
    }
  }

  /// `y` adds the previewed entry; `esc` closes; `j`/`k` scroll.
  mutating func planEntryKey(_ key: Key, _ view: PlanEntryView) -> [Effect] {
    var view = view
    switch key {
    case .character("q"):
      shouldQuit = true
      return []
    case .escape, .backspace, .character("n"), .character("a"):
      overlay = .none
      return []
    case .character("y"), .enter:
      guard let preview = view.preview else { return [] }
      overlay = .none
      return [.addPlanEntry(preview)]
    case .character("j"), .down: view.scroll += 1
    case .character("k"), .up: view.scroll -= 1
    case .character("g"), .home: view.scroll = 0
    default: break
    }
    view.scroll = max(0, min(view.scroll, (view.preview?.lines.count ?? 0) - 1))
    overlay = .planEntry(view)
    return []
  }

  mutating func planEntryAdded(_ result: Result<String, PlanEntryFailure>) {
    switch result {
    case .success(let message): notice = Sanitizer.clean(message, limit: 400)
    case .failure(let failure): notice = Sanitizer.clean("not added: \(failure.description)", limit: 400)
    }
  }
}

extension FrameView {
  /// The preview in the overlay box: the entry's lines, then what `y` does.
  func drawPlanEntry(_ view: PlanEntryView, into grid: inout Grid) {
    let box = overlayBox
    grid.fill(box)
    grid.box(box)
    grid.resolveLines(style: Style(color: .cyan))
    var title = Segments()
    title.add(" Add to the plan ", .focusedTitle)
    if let preview = view.preview {
      title.add(" ")
      let records = preview.records == 1 ? "1 record" : "\(Format.grouped(preview.records)) records"
      title.add(Sanitizer.clean("\(preview.label) · drafted from \(records)", limit: 200), .bold)
      title.add(" ")
    }
    title.draw(into: &grid, column: box.x + 2, row: box.y, width: box.width - 4)
    guard let preview = view.preview else {
      var loading = Segments()
      loading.add("drafting from the records of this tag…", Style(color: .yellow))
      loading.draw(into: &grid, column: box.x + 2, row: box.y + 1, width: box.width - 4)
      return
    }
    let rows = box.height - 4
    for (offset, line) in preview.lines.dropFirst(view.scroll).prefix(rows).enumerated() {
      var segments = Segments()
      segments.add(Sanitizer.clean(line, limit: 1_000), line.contains("#") ? Style(color: .green) : .plain)
      segments.draw(into: &grid, column: box.x + 2, row: box.y + 1 + offset, width: box.width - 4)
    }
    var footer = Segments()
    footer.add("y", .bold)
    footer.add(Sanitizer.clean(" add it to \(preview.planFile) (the rest of the file unchanged) · "))
    footer.add("esc", .bold)
    footer.add(" cancel · j k scroll")
    footer.draw(into: &grid, column: box.x + 2, row: box.y + box.height - 2, width: box.width - 4)
  }
}
