import AnalyticsHub
import TagscopeBasics
import TagscopeRecording
import TagscopeVendors

/// One request an SDK sent for several records, gathered back from them
/// (``Vendor/RebuildBody/gatheredRequest``, ``Vendor/RebuildBody/gatheredEvents``): its first
/// record keeps the request's own fields, the records after it (same vendor, same source, keeping
/// none) add their events (and Braze's attributes).
struct HARGatheredRequest: HARGathering {
  typealias NotRebuilt = HARRequestRebuild.NotRebuilt

  /// The attributes of one object of the request's `attributes`.
  private struct AttributeObject {
    var owner: Properties
    var custom = Properties()
    var standard = Properties()
  }

  private let rebuild: Vendor.Rebuild
  private let provider: String
  private let source: String?
  private let firstSeq: UInt64
  private let fields: Properties
  private let names: (request: String, events: String, attributes: String, custom: String)
  /// Where an event keeps its own time (``Vendor/RebuildBody``'s `eventTime`).
  private let eventTime: [String]
  /// The record field holding each event's index in the request (Edge's `event_index`), if any.
  private let index: String?
  /// Whether each record's `raw` keeps the request with its own event (GA4's Measurement
  /// Protocol), not its fields apart.
  private let fromRaw: Bool
  private let query: String
  /// The path its first record keeps, sent to instead of its rebuild URL's.
  private let path: String?
  /// Whether the request holds one event under its events' key, not an array.
  private let single: Bool
  private let header: (name: String, value: String)?
  private var events: [PropertyValue] = []
  private var attributes: [AttributeObject] = []
  private(set) var progress: HARGatheredProgress

  /// The request `record` starts (its output keeps the request's own fields), or why it cannot.
  static func start(_ record: Record, _ output: ProviderOutput, _ rebuild: Vendor.Rebuild)
    -> Result<Self, NotRebuilt>
  {
    let request: String
    var names = (request: "", events: "", attributes: "", custom: "")
    var eventTime: [String] = []
    var index: String?
    var query = ""
    var header: (name: String, value: String)?
    var path: String?
    var single = false
    switch rebuild.body {
    case .gatheredRequest(
      let requestKey, let events, let attributes, let custom, let credential, let headerName, let time):
      request = requestKey
      names = (requestKey, events, attributes, custom)
      eventTime = time
      if case .object(let fields)? = output.extra[request], fields[credential] == nil,
        let key = output.extra[credential]?.stringValue
      {
        header = (headerName, key)
      }
    case .gatheredEvents(
      let requestKey, let required, let events, let indexKey, let fields, let time, let pathKey, let forms):
      request = requestKey
      eventTime = time
      index = indexKey
      let keptPath = output.extra[pathKey]?.stringValue
      if let keptPath {
        guard keptPath.hasPrefix("/") else {
          return .failure(NotRebuilt(reason: "its `\(pathKey)` is not a path: \(keptPath)"))
        }
        path = keptPath
      }
      let form = keptPath.flatMap { kept in forms.first { kept.hasSuffix($0.pathSuffix) } }
      names = (requestKey, form?.events ?? events, "", "")
      single = form?.single ?? false
      if keptPath == nil, let required, case .object(let kept)? = output.extra[request], kept[required] == nil
      {
        return .failure(
          NotRebuilt(
            reason:
              "its request's `\(request)` has no `\(required)`, which the SDK always sends to the path it keeps none for: not a request of the SDK"
          ))
      }
      query = queryString(form?.query ?? fields, of: output)
    case .gatheredBodies(let events, let indexKey, let fields, let time):
      guard let kept = envelope(record.raw ?? "", events) else {
        return .failure(NotRebuilt(reason: "its raw is not the request with its own event"))
      }
      var gathered = HARGatheredRequest(
        rebuild: rebuild, provider: output.provider, source: record.source, firstSeq: record.seq,
        fields: kept.fields, names: ("", events, "", ""), eventTime: time, index: indexKey, fromRaw: true,
        query: queryString(fields, of: output), path: nil, single: false, header: nil,
        progress: HARGatheredProgress(first: record, output))
      if let refusal = gathered.add(record, output) { return .failure(refusal) }
      return .success(gathered)
    default:
      return .failure(NotRebuilt(reason: "its vendor's requests are not gathered"))
    }
    guard case .object(let fields)? = output.extra[request] else {
      return .failure(
        NotRebuilt(
          reason:
            "it keeps no `\(request)`: its request's own fields are kept by the first record of its request, which is not exported before it"
        ))
    }
    var gathered = HARGatheredRequest(
      rebuild: rebuild, provider: output.provider, source: record.source, firstSeq: record.seq,
      fields: fields,
      names: names, eventTime: eventTime, index: index, fromRaw: false, query: query, path: path,
      single: single, header: header, progress: HARGatheredProgress(first: record, output))
    if let refusal = gathered.add(record, output) { return .failure(refusal) }
    return .success(gathered)
  }

  /// Whether `rebuild` gathers the records of one request.
  static func gathers(_ rebuild: Vendor.Rebuild) -> Bool {
    switch rebuild.body {
    case .gatheredRequest, .gatheredEvents, .gatheredBodies: return true
    default: return false
    }
  }

  /// `?` and each of `fields` `output` keeps, under its query name; empty when it keeps none.
  private static func queryString(_ fields: [Vendor.QueryField], of output: ProviderOutput) -> String {
    let written = fields.compactMap { field in
      output.extra[field.field].map {
        HARRequestRebuild.formEncoded(field.name) + "=" + HARRequestRebuild.formEncoded(queryText($0))
      }
    }
    return written.isEmpty ? "" : "?" + written.joined(separator: "&")
  }

  /// The request `raw` keeps with one event under `events`: its fields (`events` empty, in its
  /// place), and that event.
  private static func envelope(_ raw: String, _ events: String) -> (fields: Properties, event: PropertyValue)?
  {
    guard case .object(var fields)? = try? JSONParser.parse(raw), case .array(let list)? = fields[events],
      list.count == 1
    else { return nil }
    fields[events] = .array([])
    return (fields, list[0])
  }

  /// The value at `path` (object keys) in `value`, if any.
  private static func value(at path: [String], in value: PropertyValue) -> PropertyValue? {
    var current: PropertyValue? = value
    for key in path { current = current.map(Payload.object)?[key] }
    return path.isEmpty ? nil : current
  }

  /// Whether `value` is a time an event keeps of its own: a number (seconds, microseconds) or an
  /// ISO 8601 timestamp.
  private static func isTime(_ value: PropertyValue?) -> Bool {
    if value?.doubleValue != nil { return true }
    if case .string(let stamp)? = value { return ISO8601Timestamp.date(from: stamp) != nil }
    return false
  }

  /// A query field's value as a record keeps it: a string as it is, any other value as JSON.
  private static func queryText(_ value: PropertyValue) -> String {
    if case .string(let text) = value { return text }
    return JSONText.value(value)
  }

  /// Whether `record` is one of this request's records after its first.
  func continues(with record: Record, _ output: ProviderOutput) -> Bool {
    guard output.provider == provider else { return false }
    // A Server API collect's events each name their own user: its index, not its source, says
    // a record is of the request.
    if !fromRaw, let index {
      return output.extra[names.request] == nil && output.extra[index]?.intValue == events.count
    }
    guard record.source == source else { return false }
    guard fromRaw else { return output.extra[names.request] == nil }
    // A record past the first of its request keeps its index; it is gathered by the same rebuild.
    guard let index, output.extra[index] != nil,
      case .success(let same) = HARRequestRebuild.rebuild(for: output), same == rebuild
    else { return false }
    return true
  }

  /// Adds `record`'s event or attribute; or says why it cannot (the request goes without it, and
  /// without the records after it).
  mutating func add(_ record: Record, _ output: ProviderOutput) -> NotRebuilt? {
    if let refusal = progress.refusalBefore { return refusal }
    let refusal = addPart(record, output)
    return progress.settle(record, refusal)
  }

  private mutating func addPart(_ record: Record, _ output: ProviderOutput) -> NotRebuilt? {
    if fromRaw, let index { return addKeptEvent(record, output, at: index) }
    if let index {
      return addEvent(record, output, at: index)
    }
    let part: BrazeRecordRebuild.Part
    switch BrazeRecordRebuild.part(of: output) {
    case .success(let got): part = got
    case .failure(let refusal): return refusal
    }
    var ownTime = false
    switch part {
    case .event(let event):
      guard attributes.isEmpty else {
        return NotRebuilt(reason: "an event after its request's attributes, which its SDK never sends")
      }
      ownTime = Self.isTime(Self.value(at: eventTime, in: .object(event)))
      events.append(.object(event))
    case .attribute(let key, let value, let custom, let owner):
      add(key, value, custom: custom, owner: owner)
    }
    progress.take(record, ownTime: ownTime)
    return nil
  }

  /// Adds the event `record`'s raw keeps with the request, when the request is this one's and the
  /// event keeps its place in it (`index`, absent for the first).
  private mutating func addKeptEvent(_ record: Record, _ output: ProviderOutput, at index: String)
    -> NotRebuilt?
  {
    guard let kept = Self.envelope(record.raw ?? "", names.events) else {
      return NotRebuilt(reason: "its raw is not the request with its own event")
    }
    guard kept.fields == fields else {
      return NotRebuilt(reason: "its request's fields are not those of the records before it in its request")
    }
    guard (output.extra[index]?.intValue ?? 0) == events.count else {
      return NotRebuilt(
        reason: "its `\(index)` is not \(events.count), its place after the records before it in its request")
    }
    events.append(kept.event)
    let own = Self.value(at: eventTime, in: kept.event) ?? Self.value(at: eventTime, in: .object(fields))
    progress.take(record, ownTime: Self.isTime(own))
    return nil
  }

  /// Adds the event `output`'s call holds whole, when it keeps its place in the request (`index`).
  private mutating func addEvent(_ record: Record, _ output: ProviderOutput, at index: String) -> NotRebuilt?
  {
    guard let call = output.calls.first else { return NotRebuilt(reason: "it has no call") }
    guard output.extra["unread"] == nil else { return HARRequestRebuild.unread }
    guard !single || events.isEmpty else {
      return NotRebuilt(reason: "its request's path takes one event, which the record before it is")
    }
    guard output.extra[index]?.intValue == events.count else {
      return NotRebuilt(
        reason: "its `\(index)` is not \(events.count), its place after the records before it in its request")
    }
    events.append(.object(call.parameters))
    progress.take(record, ownTime: Self.isTime(Self.value(at: eventTime, in: .object(call.parameters))))
    return nil
  }

  /// Adds an attribute to the last object when it reads back in the same order, else to a new one.
  private mutating func add(_ key: String, _ value: PropertyValue, custom: Bool, owner: Properties) {
    if var last = attributes.last, last.owner == owner,
      custom ? last.standard.isEmpty && last.custom[key] == nil : last.standard[key] == nil
    {
      if custom { last.custom[key] = value } else { last.standard[key] = value }
      attributes[attributes.count - 1] = last
      return
    }
    var object = AttributeObject(owner: owner)
    if custom { object.custom[key] = value } else { object.standard[key] = value }
    attributes.append(object)
  }

  /// The request gathered so far.
  var request: Result<HARRequestRebuild, NotRebuilt> {
    var body = fields
    if single, let event = events.first {
      body[names.events] = event
    } else if !events.isEmpty {
      body[names.events] = .array(events)
    }
    if !attributes.isEmpty {
      body[names.attributes] = .array(
        attributes.map { object in
          var fields = Properties()
          if !object.custom.isEmpty { fields[names.custom] = .object(object.custom) }
          fields.merge(object.standard.map { ($0.key, $0.value) })
          fields.merge(object.owner.map { ($0.key, $0.value) })
          return .object(fields)
        })
    }
    var request = HARRequestRebuild.post(
      rebuild, JSONText.string(body), "rebuilt by tagscope export from record \(firstSeq): " + rebuild.summary
    )
    if let path { request.url = HARRequestRebuild.origin(of: rebuild.url) + path }
    request.url += query
    if let header { request.headers.append(header) }
    return .success(request)
  }
}
