import TaggingPlan

/// Writes the tour: a function sending every tag of the plan once with sample values, on each
/// screen its expectations name (timed events started and stopped, then started and cancelled),
/// so a recording of it covers the plan. The round trip's traffic (`--tour`).
struct TourWriter {
  var model: TaxonomyModel
  var access: String

  func write(into writer: inout SourceWriter) {
    writer.doc(
      "Sends every tag of plan \(model.plan.title) once with sample values that meet its constraints,",
      "on each screen its provider expectations name: traffic whose recording covers the plan.")
    writer.block("\(access)enum \(model.tourName)") { body in
      body.doc("Sends the tour's tags to `hub`, in plan order.")
      body.block("\(access)static func run(on hub: AnalyticsHub<\(model.taxonomyName)>)") { function in
        let screens = model.tagTypes.first { $0.section == .screens }
        for type in model.tagTypes {
          for tag in type.cases {
            for screen in visits(tag, screens: screens) {
              if let screen { function.line("hub.send(screen: \(value(screen)))") }
              send(type, value(tag), into: &function)
            }
          }
        }
      }
    }
  }

  private func send(_ type: TagType, _ value: String, into writer: inout SourceWriter) {
    switch type.section {
    case .screens: writer.line("hub.send(screen: \(value))")
    case .actions: writer.line("hub.send(userAction: \(value))")
    case .events: writer.line("hub.send(event: \(value))")
    case .states: writer.line("hub.send(state: \(value))")
    case .timed:
      writer.line("hub.start(timedEvent: \(value))")
      writer.line("hub.stop(timedEvent: \(value))")
      writer.line("hub.start(timedEvent: \(value))")
      writer.line("hub.cancel(timedEvent: \(value))")
    }
  }

  /// `.playPodcast(podcastId: "p0", …)`.
  private func value(_ tag: TagCase) -> String {
    let parameters = tag.parameters
    guard !parameters.isEmpty else { return ".\(tag.name)" }
    return ".\(tag.name)("
      + parameters.map { "\($0.argumentLabel): \(Samples.expression($0))" }.joined(separator: ", ") + ")"
  }

  /// The screens to send `tag` on (`nil`: wherever the tour is).
  private func visits(_ tag: TagCase, screens: TagType?) -> [TagCase?] {
    guard let entry = tag.entry, entry.section != .screens, let screens else { return [nil] }
    func screen(_ name: String) -> TagCase? { screens.cases.first { $0.tagName == name } }
    if let allowed = entry.screens { return allowed.compactMap(screen) }
    var conditional: [String] = []
    var fallback = false
    for plan in entry.providers {
      for call in plan.calls {
        if let named = call.condition?.screens {
          for name in named where !conditional.contains(name) { conditional.append(name) }
        } else {
          fallback = true
        }
      }
    }
    var visits: [TagCase?] = conditional.compactMap(screen)
    if fallback || visits.isEmpty {
      visits.append(screens.cases.first { !conditional.contains($0.tagName) })
    }
    return visits
  }
}
