import TaggingPlan
import TagscopeVendors

/// mParticle data plans as the Data Planning API and the UI's download give them: a data plan
/// (`data_plan_name`, `data_plan_versions[]`, the highest version with a document imported), one
/// version (`version`, `version_document`), or a bare `{"data_points": […]}`.
///
/// A `custom_event` data point becomes a `calls` entry named by `criteria.event_name` with
/// `method: logEvent`, a `screen_view` one an entry named by `criteria.screen_name` with
/// `method: logScreen`, a `product_action` one an entry named by `criteria.action` with
/// `method: logCommerceEvent`, a `promotion_action` and a `product_impression` one an entry named
/// by ``Vendor/MParticleCommerceName`` with `method: logCommerceEvent` — the names and methods `listen`
/// gives mParticle's events; a `user_attributes` one is the `user_attribute_change` method entry
/// (``MParticleUserAttributes``), a `user_identities` one the entries of the IDSync calls and the
/// `user_identity_change` message (``MParticleUserIdentities``). The
/// parameters are the event's custom attributes (`data.custom_attributes` of the validator's
/// schema), whose `additionalProperties` becomes the call's; the catalogue's `propertiesAt` is
/// `data.custom_attributes`, where an event sent to the Events API holds them, and its values
/// arrive as text (`valuesAsText: true`): mParticle's iOS and Android SDKs send every custom
/// attribute value as a string (mParticle/mparticle-android-sdk pull request 130: values are
/// "stringified" with `toString()` before they reach the server; mParticle/react-native-mparticle
/// pull request 49: "we only accept String values in the native SDKs"), so a data plan's `number`
/// or `boolean` attribute can only be met by its text there. A custom event's
/// `criteria.custom_event_type` (navigation, other…), which mParticle matches a data point by
/// with the name, becomes the entry's `messageParams`: the message's `data.custom_event_type`
/// must be that type (``MParticleEventType``). Other data point
/// types are warned about. The messages the SDKs send
/// on their own (session start and end, app state transitions…) are known `methods` entries.
struct MParticleImporter {
  private var draft: ImportDraft
  /// What the import may expand to, shared by all its documents.
  var budget = ExpansionBudget(sourceBytes: 0)

  init(provider: String, unplanned: UnplannedCalls) {
    draft = ImportDraft(provider: provider, unplanned: unplanned)
    draft.catalogue.propertiesAt = SDKMessagePaths.mParticleAttributes
    draft.catalogue.valuesAsText = true
  }

  /// Why `root` is an mParticle data plan (the keys that say so); `nil` when it is not.
  static func evidence(_ root: SourceNode) -> String? {
    let keys =
      ["data_plan_versions", "version_document"].filter { root[$0] != nil }
      + (root["data_points"]?.elements != nil ? ["data_points[]"] : [])
    return keys.isEmpty ? nil : "mParticle data plan: \(keys.joined(separator: ", "))"
  }

  mutating func read(_ document: SourceDocument) throws(ImportError) {
    let root = document.root
    draft.offerName(root["data_plan_name"]?.string ?? root["data_plan_id"]?.string)
    var versionNode = root
    var path = JSONPath.root
    if let versions = root["data_plan_versions"]?.elements {
      let withDocuments = versions.enumerated().filter { $0.element["version_document"] != nil }
      guard
        let latest = withDocuments.max(by: {
          ($0.element["version"]?.number ?? 0, -$0.offset) < ($1.element["version"]?.number ?? 0, -$1.offset)
        })
      else {
        throw document.error(
          root,
          "no data plan version has a version_document (a list of data plans leaves them out: export one plan)"
        )
      }
      versionNode = latest.element
      path = path.key("data_plan_versions").index(latest.offset)
      for (offset, version) in versions.enumerated() where offset != latest.offset {
        KeyLedger.leaveOut(every: version, because: "data plan versions not imported (a higher one is)")
      }
      if withDocuments.count > 1 {
        let list = withDocuments.map { $0.element["version"].flatMap(\.number).map(NumberText.yaml) ?? "?" }
        draft.warn(
          document.warning(
            latest.element, path,
            "the plan has versions \(list.joined(separator: ", ")) (\(path)): only the highest is imported"))
      }
      draft.offerName(versionNode["data_plan_id"]?.string)
    }
    for node in [root, versionNode] {
      for member in node.members ?? [] where Self.metadataKeys.contains(member.key) {
        KeyLedger.leaveOut(member, because: "data plan metadata (ids, versions, dates, authors)")
      }
    }
    var pointsNode = versionNode
    if let versionDocument = versionNode["version_document"] {
      pointsNode = versionDocument
      path = path.key("version_document")
    }
    guard let points = pointsNode["data_points"]?.elements else {
      throw document.error(
        pointsNode, "not an mParticle data plan: expected version_document.data_points, a list")
    }
    for (index, point) in points.enumerated() {
      try dataPoint(point, document, path: path.key("data_points").index(index))
    }
  }

  /// The keys of a data plan or version that describe it.
  private static let metadataKeys: Set<String> = [
    "data_plan_id", "data_plan_name", "data_plan_description", "version", "version_description",
    "activated_environment", "created_on", "created_by", "last_modified_on", "last_modified_by",
  ]

  mutating func finish() -> ImportDraft {
    for builtIn in Self.builtIns where !plannedMethods.contains(builtIn.key) {
      draft.addMethod(builtIn)
    }
    if let batchEntry { draft.addMethod(batchEntry) }
    return draft
  }

  /// The built-in methods a `user_attributes` or `user_identities` data point's entries replace.
  private var plannedMethods: Set<String> = []
  /// The entry a batch's own user attributes and identities are checked against
  /// (``TaggingPlan/CallCatalogue/batchMethod``), once per batch: the parameters of the first
  /// `user_attributes` and the first `user_identities` data point (a later one of the same type
  /// is a duplicate, warned about by its message entries); `nil` without either.
  private var batchEntry: CatalogueEntry?

  /// Adds the batch parameters of a `type` data point at `origin` to ``batchEntry``.
  private mutating func addToBatch(_ params: [NamedConstraints], type: String, origin: EntryOrigin) {
    guard var entry = batchEntry else {
      var entry = CatalogueEntry(
        key: CallCatalogue.batchMethod,
        description: "a batch's own user attributes and identities, checked once per batch",
        params: params, origin: origin)
      entry.origin?.summary = "\(type) of a batch"
      entry.propertiesAt = "."
      batchEntry = entry
      return
    }
    let known = Set(entry.params.map(\.name))
    guard !params.contains(where: { known.contains($0.name) }) else { return }
    entry.params += params
    if let first = entry.origin?.summary.split(separator: " ").first {
      entry.origin?.summary = "\(first), \(type) of a batch"
    }
    batchEntry = entry
  }

  /// A `user_attributes` or `user_identities` data point (`type`): its validator's schema (the
  /// attributes or identities by name) as the `methods` entries of the messages that carry them
  /// (``MParticleUserAttributes``, ``MParticleUserIdentities``).
  private mutating func userData(
    _ type: String, _ point: SourceNode, _ document: SourceDocument, path: JSONPath
  ) {
    if let transformations = point.members?.first(where: { $0.key == "active_transformation_ids" }) {
      KeyLedger.leaveOut(transformations, because: "mParticle's transformation ids (Tagscope applies none)")
    }
    let origin = EntryOrigin(file: document.file, location: point.location, path: path, summary: type)
    let what = type == "user_identities" ? "identities" : "attributes"
    var schema = PropertyConstraints()
    if let validator = point["validator"] {
      let validatorPath = path.key("validator")
      if validator["type"]?.string == "json_schema", let definition = validator["definition"] {
        let definitionPath = validatorPath.key("definition")
        var converter = SchemaConverter(
          file: document.file, document: definition, at: definitionPath, budget: budget)
        schema = converter.constraints(definition, path: definitionPath)
        for warning in converter.warnings { draft.warn(warning) }
        if type == "user_identities" {
          for warning in MParticleIdentityPII.warnings(definition, document, path: definitionPath) {
            draft.warn(warning)
          }
        }
        if let required = definition.member("required"), !(required.value.arrayElements ?? []).isEmpty {
          let here = definitionPath.key("required")
          let why =
            type == "user_identities" ? "a call carries some identities" : "a message sets one attribute"
          draft.warn(
            document.warning(
              required.value, here, "the user \(what) required (\(here)) are not checked: \(why)"))
        }
      } else {
        let here = validatorPath.key("type")
        draft.warn(
          document.warning(
            validator, here, "a validator other than json_schema (\(here)) is not checked by Tagscope"))
      }
    }
    let description = point["description"]?.string.flatMap { $0.isEmpty ? nil : $0 }
    let entries =
      type == "user_identities"
      ? MParticleUserIdentities.entries(schema, description: description, origin: origin)
      : [
        MParticleUserAttributes.entry(
          schema, valuesAsText: draft.catalogue.valuesAsText, description: description, origin: origin)
      ]
    for entry in entries {
      plannedMethods.insert(entry.key)
      draft.addMethod(entry)
    }
    addToBatch(
      type == "user_identities"
        ? MParticleUserIdentities.batchParams(schema)
        : MParticleUserAttributes.batchParams(schema, valuesAsText: draft.catalogue.valuesAsText),
      type: type, origin: origin)
  }

  /// The messages mParticle's SDKs send on their own (sessions, app state, user changes…), which a
  /// data plan does not plan: mParticle matches data points to custom events, screen views and
  /// commerce events only (mParticle/mparticle-web-sdk `src/kitBlocking.ts`, `getMatchKey`). Each
  /// is a `methods` entry, so such a message `listen` records (its method the Events API's
  /// `event_type`, or the IDSync call: `identify`, `login`, `logout`, `modify`) is known, not
  /// unplanned.
  private static var builtIns: [CatalogueEntry] {
    [
      "session_start", "session_end", "application_state_transition", "first_run", "breadcrumb",
      "opt_out", "crash_report", "push_registration", "push_message", "network_performance",
      "user_identity_change", "user_attribute_change",
    ].map { type in
      CatalogueEntry(
        key: type, description: "mParticle's SDKs send \(type) on their own: a data plan does not plan it",
        origin: nil)
    }
      + ["identify", "login", "logout", "modify"].map { call in
        CatalogueEntry(
          key: call, description: "mParticle's SDKs call IDSync \(call): a data plan does not plan it",
          origin: nil)
      }
  }

  private mutating func dataPoint(_ point: SourceNode, _ document: SourceDocument, path: JSONPath)
    throws(ImportError)
  {
    guard point.members != nil else { throw document.error(point, "a data point must be an object") }
    guard let match = point["match"], let type = match["type"]?.string else {
      throw document.error(point, "the data point \(path) has no match.type")
    }
    let criteria = match["criteria"]
    let name: String
    let method: String
    var summary: String
    switch type {
    case "custom_event":
      guard let eventName = criteria?["event_name"]?.string, !eventName.isEmpty else {
        throw document.error(match, "the custom_event data point \(path) has no criteria.event_name")
      }
      name = eventName
      method = "logEvent"
      summary = "custom_event \"\(eventName)\""
      if let eventType = criteria?["custom_event_type"]?.string {
        summary += " (\(eventType))"
        MParticleEventType.widen(&draft.catalogue, name: eventName, with: eventType, from: path)
      }
    case "screen_view":
      guard let screenName = criteria?["screen_name"]?.string, !screenName.isEmpty else {
        throw document.error(match, "the screen_view data point \(path) has no criteria.screen_name")
      }
      name = screenName
      method = "logScreen"
      summary = "screen_view \"\(screenName)\""
    case "product_action":
      guard let action = criteria?["action"]?.string, !action.isEmpty else {
        throw document.error(match, "the product_action data point \(path) has no criteria.action")
      }
      name = action
      method = "logCommerceEvent"
      summary = "product_action \"\(action)\""
    case "promotion_action":
      guard let action = criteria?["action"]?.string, !action.isEmpty else {
        throw document.error(match, "the promotion_action data point \(path) has no criteria.action")
      }
      name = Vendor.MParticleCommerceName.promotion(action)
      method = "logCommerceEvent"
      summary = "promotion_action \"\(action)\""
    case "product_impression":
      // No criteria: an empty object read (a key in it is reported, not carried).
      _ = criteria?.members
      name = Vendor.MParticleCommerceName.impression
      method = "logCommerceEvent"
      summary = "product_impression"
    case "user_attributes", "user_identities":
      _ = criteria?.members
      userData(type, point, document, path: path)
      return
    default:
      let here = path.keys("match", "type")
      draft.warn(
        document.warning(
          match, here,
          "the data point type \(type) (\(here)) is not imported: custom_event, screen_view, product_action, "
            + "promotion_action, product_impression, user_attributes and user_identities are"
        ))
      KeyLedger.leaveOut(every: point, because: "data points of types not imported")
      return
    }
    if let transformations = point.members?.first(where: { $0.key == "active_transformation_ids" }) {
      KeyLedger.leaveOut(transformations, because: "mParticle's transformation ids (Tagscope applies none)")
    }
    var entry = CatalogueEntry(
      key: name, method: method, description: point["description"]?.string.flatMap { $0.isEmpty ? nil : $0 },
      origin: EntryOrigin(file: document.file, location: point.location, path: path, summary: summary))
    if let validator = point["validator"] {
      attributes(validator, document, path: path.key("validator"), into: &entry)
    }
    if type == "custom_event", let eventType = criteria?["custom_event_type"]?.string {
      entry.messageParams = [MParticleEventType.rule([eventType])]
    }
    draft.addCall(entry)
  }

  /// The custom attributes the validator's schema describes, as the entry's parameters.
  private mutating func attributes(
    _ validator: SourceNode, _ document: SourceDocument, path: JSONPath, into entry: inout CatalogueEntry
  ) {
    guard validator["type"]?.string == "json_schema", let definition = validator["definition"] else {
      let here = path.key("type")
      draft.warn(
        document.warning(
          validator, here, "a validator other than json_schema (\(here)) is not checked by Tagscope"))
      return
    }
    let definitionPath = path.key("definition")
    warnOthers(definition, keeping: "data", document, path: definitionPath)
    guard let data = definition["properties"]?["data"] else { return }
    let dataPath = definitionPath.keys("properties", "data")
    warnOthers(data, keeping: "custom_attributes", document, path: dataPath)
    guard let attributes = data["properties"]?["custom_attributes"] else { return }
    var converter = SchemaConverter(
      file: document.file, document: definition, at: definitionPath, budget: budget)
    let object = converter.constraints(attributes, path: dataPath.keys("properties", "custom_attributes"))
    for warning in converter.warnings { draft.warn(warning) }
    entry.carry(object)
    let here = dataPath.keys("properties", "custom_attributes")
    for warning in CatalogueEntry.leftOutWarnings(object, node: attributes, file: document.file, path: here) {
      draft.warn(warning)
    }
  }

  /// Warns about the properties of `schema` other than `keeping` and its keywords other than
  /// `properties`, `required`, `additionalProperties`, `type` and annotations.
  private mutating func warnOthers(
    _ schema: SourceNode, keeping: String, _ document: SourceDocument, path: JSONPath
  ) {
    for member in schema.members ?? [] {
      let here = path.key(member.key)
      switch member.key {
      case "properties":
        for property in member.value.members ?? [] where property.key != keeping {
          let place = here.key(property.key)
          draft.warn(
            document.warning(property, place, "\(property.key) (\(place)) is not imported: \(keeping) is"))
        }
      case "required", "additionalProperties", "type", "description": KeyLedger.current?.carry(member)
      default:
        if SchemaConverter.annotations.contains(member.key) {
          KeyLedger.leaveOut(member, because: KeyLedger.annotations)
          continue
        }
        draft.warn(document.warning(member, here, "\(member.key) (\(here)) is not checked by Tagscope"))
      }
    }
  }
}
