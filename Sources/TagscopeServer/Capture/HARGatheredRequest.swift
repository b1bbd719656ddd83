import AnalyticsHub
import TagscopeRecording
import TagscopeVendors

/// One request an SDK sent for several records, gathered back from them
/// (``Vendor/RebuildBody/gatheredRequest``): its first record keeps the request's own fields, the
/// records after it (same vendor, same source, keeping none) add their events and attributes.
struct HARGatheredRequest {
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
  private let names: (request: String, events: String, attributes: String)
  private let header: (name: String, value: String)?
  private var events: [PropertyValue] = []
  private var attributes: [AttributeObject] = []
  /// The entry's time: that of its first record whose time is not its SDK's own (the entry's when
  /// imported), else its first record's.
  private(set) var time: Int64
  private var timeIsEntrys = false
  /// The vendor's answer, as the first record keeps it.
  let status: PropertyValue?

  /// The request `record` starts (its output keeps the request's own fields), or why it cannot.
  static func start(_ record: Record, _ output: ProviderOutput, _ rebuild: Vendor.Rebuild)
    -> Result<Self, NotRebuilt>
  {
    guard
      case .gatheredRequest(let request, let events, let attributes, let credential, let header) = rebuild
        .body
    else { return .failure(NotRebuilt(reason: "its vendor's requests are not gathered")) }
    guard case .object(let fields)? = output.extra[request] else {
      return .failure(
        NotRebuilt(
          reason:
            "it keeps no `\(request)`: its request's own fields are kept by the first record of its request, which is not exported before it"
        ))
    }
    let key = fields[credential] == nil ? output.extra[credential].flatMap(\.stringValue) : nil
    var gathered = HARGatheredRequest(
      rebuild: rebuild, provider: output.provider, source: record.source, firstSeq: record.seq,
      fields: fields,
      names: (request, events, attributes), header: key.map { (header, $0) }, time: record.timeMilliseconds,
      status: output.extra["response_status"])
    if let refusal = gathered.add(record, output) { return .failure(refusal) }
    return .success(gathered)
  }

  /// Whether `record` is one of this request's records after its first.
  func continues(with record: Record, _ output: ProviderOutput) -> Bool {
    output.provider == provider && record.source == source && output.extra[names.request] == nil
  }

  /// Adds `record`'s event or attribute; or says why it cannot (the request goes without it).
  mutating func add(_ record: Record, _ output: ProviderOutput) -> NotRebuilt? {
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
      ownTime = event["time"]?.doubleValue != nil
      events.append(.object(event))
    case .attribute(let key, let value, let custom, let owner):
      add(key, value, custom: custom, owner: owner)
    }
    if !ownTime && !timeIsEntrys {
      time = record.timeMilliseconds
      timeIsEntrys = true
    }
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
  var request: HARRequestRebuild {
    var body = fields
    if !events.isEmpty { body[names.events] = .array(events) }
    if !attributes.isEmpty {
      body[names.attributes] = .array(
        attributes.map { object in
          var fields = Properties()
          if !object.custom.isEmpty { fields["custom"] = .object(object.custom) }
          fields.merge(object.standard.map { ($0.key, $0.value) })
          fields.merge(object.owner.map { ($0.key, $0.value) })
          return .object(fields)
        })
    }
    var request = HARRequestRebuild.post(
      rebuild, JSONText.string(body), "rebuilt by tagscope export from record \(firstSeq): " + rebuild.summary
    )
    if let header { request.headers.append(header) }
    return request
  }
}
