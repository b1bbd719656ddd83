import TaggingPlan

/// Writes the YAML of a drafted plan: sections in the plan's order, entries and everything in them
/// sorted, counts as comments, names quoted where YAML needs it.
struct PlanDraftWriter {
  /// Every tag's key, in the order written.
  var keys: [InferredTag.Key]
  /// The tag of `keys[i]`, built when asked (a draft of a million tags is not held whole).
  var tag: (Int) -> InferredTag
  var files: [String]
  var records: Int
  var otherKinds: Int

  init(
    keys: [InferredTag.Key], tag: @escaping (Int) -> InferredTag, files: [String], records: Int,
    otherKinds: Int
  ) {
    self.keys = keys
    self.tag = tag
    self.files = files
    self.records = records
    self.otherKinds = otherKinds
  }

  init(tags: [InferredTag], files: [String], records: Int, otherKinds: Int) {
    self.init(
      keys: tags.map(\.key), tag: { tags[$0] }, files: files, records: records, otherKinds: otherKinds)
  }

  /// Text handed on at most this many bytes at a time by ``write(name:to:)``.
  static let chunkBytes = 1 << 20

  func yaml(name: String) -> String {
    var text = ""
    write(name: name) { text += $0 }
    return text
  }

  /// Hands the YAML to `output` in chunks of about ``chunkBytes``, never holding all of it.
  func write(name: String, to output: (String) -> Void) {
    var out =
      "# Drafted by tagscope plan infer from \(comment(files.joined(separator: ", "))): \(records) records"
    out += otherKinds > 0 ? " (\(otherKinds) a plan does not describe: other kinds, or no name).\n" : ".\n"
    out += "# Review it: it plans what the app sent, bugs included.\n"
    out += "plan: \(scalar(name))\nunplanned: error\n"
    let screensUsed = referencedScreens()
    let screenTags = Set(keys.filter { $0.section == .screens }.map(\.name))
    for section in PlanSection.allCases {
      let entries = keys.indices.lazy.filter { keys[$0].section == section }.map(tag)
      let extraScreens = section == .screens ? screensUsed.subtracting(screenTags).sorted() : []
      guard !entries.isEmpty || !extraScreens.isEmpty else { continue }
      out += "\(section.key):\n"
      for tag in entries {
        out += entryText(tag)
        if out.utf8.count >= Self.chunkBytes {
          output(out)
          out = ""
        }
      }
      for screen in extraScreens {
        out += "\(YAMLText.key(screen, indent: "  "))  # seen only as the current screen of other tags\n"
      }
    }
    output(out)
  }

  /// Screens named by `screens:` lists and `when: {screen: …}`: the plan's `screens` section must
  /// list each of them.
  func referencedScreens() -> Set<String> {
    var used: Set<String> = []
    for index in keys.indices where keys[index].section != .timed {
      let tag = tag(index)
      if tag.section != .screens, let screens = screenList(tag) { used.formUnion(screens) }
      for provider in tag.providers.values {
        for screens in calls(provider).compactMap(\.places) { used.formUnion(screens) }
      }
    }
    return used
  }

  func entryText(_ tag: InferredTag) -> String {
    var out = "\(YAMLText.key(tag.name, indent: "  "))  # \(tag.count) record\(tag.count == 1 ? "" : "s")\n"
    if tag.properties.isEmpty {
      out += "    properties: {}\n"
    } else {
      out += "    properties:\n"
      for (name, property) in tag.properties.sorted(by: { $0.key < $1.key }) {
        let values = property.inferredEnum(name: name)
        out +=
          "\(YAMLText.key(name, indent: "      ")) \(constraints(property, count: tag.count, enum: values))"
        // An inferred enum says so: it is the likeliest line of a draft to be wrong.
        out +=
          values == nil
          ? "\n" : "  # enum inferred from \(property.present) record\(property.present == 1 ? "" : "s")\n"
      }
    }
    if tag.section != .screens, tag.section != .timed, let screens = screenList(tag) {
      out += "    screens: [\(screens.map(scalar).joined(separator: ", "))]\n"
    }
    let providers = tag.providers.sorted { $0.key < $1.key }
    guard !providers.isEmpty else { return out }
    out += "    providers:\n"
    for (id, provider) in providers {
      out += expectation(id, provider, timed: tag.section == .timed)
    }
    return out
  }

  /// The screens a tag happened on, when every record of it had one.
  private func screenList(_ tag: InferredTag) -> [String]? {
    guard !tag.screens.contains(nil) else { return nil }
    return tag.screens.compactMap { $0 }.sorted()
  }

  private func constraints(_ property: InferredTag.Property, count: Int, enum values: [String]?) -> String {
    var parts: [String] = []
    let types = property.typeNames
    parts.append(
      types.count == 1 ? "type: \(scalar(types[0]))" : "type: [\(types.map(scalar).joined(separator: ", "))]")
    if property.present == count { parts.append("required: true") }
    if let values { parts.append("enum: [\(values.map(scalar).joined(separator: ", "))]") }
    return "{\(parts.joined(separator: ", "))}"
  }

  /// One planned call, or `none`, with the places it applies to (`nil`: everywhere).
  struct PlannedCall {
    var places: [String]?
    var call: InferredTag.Call?
    var parameters: [String]
    var count: Int
  }

  /// A provider's calls: one applying everywhere it made calls, or one per call with the screens
  /// (phases) it appeared on, and `none` where it only dropped the tag.
  private func calls(_ provider: InferredTag.Provider) -> [PlannedCall] {
    let everywhere = provider.places
    var planned: [PlannedCall] = []
    for (call, seen) in provider.calls.sorted(by: {
      ($0.key.name ?? "", $0.key.method) < ($1.key.name ?? "", $1.key.method)
    }) {
      let conditional = !seen.places.isSuperset(of: everywhere) && !seen.places.contains("")
      planned.append(
        PlannedCall(
          places: conditional ? seen.places.sorted() : nil, call: call,
          parameters: (seen.parameters ?? []).sorted(), count: seen.count))
    }
    let silent = everywhere.subtracting(provider.placesWithCalls)
    if !planned.isEmpty, !silent.isEmpty, !silent.contains("") {
      planned.append(PlannedCall(places: silent.sorted(), call: nil, parameters: [], count: 0))
    }
    return planned
  }

  private func expectation(_ id: String, _ provider: InferredTag.Provider, timed: Bool) -> String {
    let prefix = YAMLText.key(id, indent: "      ")
    if provider.places.isEmpty {
      return "      # \(comment(id)): blocked every time (\(provider.blocked)×): not planned\n"
    }
    if provider.calls.isEmpty {
      return "\(prefix) none  # no call in \(provider.outputs - provider.blocked) outputs\n"
    }
    let planned = calls(provider)
    if planned.count == 1, planned[0].places == nil {
      return "\(prefix) \(call(planned[0], timed: timed))  # \(calls(planned[0].count))\n"
    }
    var out = "\(prefix)\n"
    for item in planned {
      let note = item.call == nil ? "dropped there" : calls(item.count)
      out += "        - \(call(item, timed: timed))  # \(note)\n"
    }
    return out
  }

  private func calls(_ count: Int) -> String { count == 1 ? "1 call" : "\(count) calls" }

  private func call(_ planned: PlannedCall, timed: Bool) -> String {
    var parts: [String] = []
    if let places = planned.places {
      let key = timed ? "phase" : "screen"
      let value = places.count == 1 ? scalar(places[0]) : "[\(places.map(scalar).joined(separator: ", "))]"
      parts.append("when: {\(key): \(value)}")
    }
    guard let call = planned.call else { return "{\((parts + ["none: true"]).joined(separator: ", "))}" }
    parts.append("method: \(scalar(call.method))")
    if let name = call.name { parts.append("name: \(scalar(name))") }
    if !planned.parameters.isEmpty {
      parts.append("params: [\(planned.parameters.map(scalar).joined(separator: ", "))]")
    }
    return "{\(parts.joined(separator: ", "))}"
  }

  func scalar(_ text: String) -> String { YAMLText.scalar(text) }

  /// Text inside a `#` comment: one line, printable.
  func comment(_ text: String) -> String { YAMLText.comment(text) }
}
