import AnalyticsHub
import Foundation
import TagscopeBasics
import TagscopeRecording
import TagscopeVendors

/// One mParticle request gathered back from its records (``Vendor/RebuildBody/gatheredBatches``):
/// the request's first record keeps its path, the first record of each of its batches the
/// batch's own fields, each record its event (the Events API's form in its call, a mobile SDK's
/// short-key message in its `raw`); a batch without events is one record of its own, which adds
/// none.
struct HARGatheredBatches: HARGathering {
  typealias NotRebuilt = HARRequestRebuild.NotRebuilt

  /// One batch: its own fields and its events under their key (`events`, or `msgs`).
  private struct Batch {
    var fields: Properties
    var key: String?
    var events: [PropertyValue] = []
  }

  private let rebuild: Vendor.Rebuild
  private let provider: String
  /// The source of the batch being gathered (each batch of a bulk request is its device's).
  private var source: String?
  private let firstSeq: UInt64
  private let names: (batch: String, path: String, events: String, messages: String)
  private let eventTime: [String]
  private let url: String
  private let bulk: Bool
  private let header: (name: String, value: String)?
  private var batches: [Batch] = []
  private(set) var progress: HARGatheredProgress

  /// The request `record` starts (its output keeps the request's path and its first batch's
  /// fields), or why it cannot.
  static func start(_ record: Record, _ output: ProviderOutput, _ rebuild: Vendor.Rebuild)
    -> Result<Self, NotRebuilt>
  {
    guard
      case .gatheredBatches(
        let batch, let pathKey, let events, let messages, let bulkSuffix, let credential, let hosts, let time) =
        rebuild.body
    else { return .failure(NotRebuilt(reason: "its vendor's requests are not gathered in batches")) }
    guard let path = output.extra[pathKey]?.stringValue else {
      return .failure(
        NotRebuilt(
          reason:
            "it keeps no `\(pathKey)`: its request's path is kept by the first record of its request, which is not exported before it"
        ))
    }
    guard path.hasPrefix("/") else {
      return .failure(NotRebuilt(reason: "its `\(pathKey)` is not a path: \(path)"))
    }
    let key = output.extra[credential]?.stringValue ?? ""
    let origin =
      hosts.first { !key.isEmpty && path.contains($0.pathPart.replacingOccurrences(of: "KEY", with: key)) }?
      .origin ?? HARRequestRebuild.origin(of: rebuild.url)
    var header: (name: String, value: String)?
    if key.isEmpty || !path.contains("/" + key + "/") {
      header = ("Authorization", "Basic " + Data((key + ":").utf8).base64EncodedString())
    }
    var gathered = HARGatheredBatches(
      rebuild: rebuild, provider: output.provider, source: record.source, firstSeq: record.seq,
      names: (batch, pathKey, events, messages), eventTime: time, url: origin + path,
      bulk: path.hasSuffix(bulkSuffix), header: header, progress: HARGatheredProgress(first: record, output))
    if let refusal = gathered.add(record, output) { return .failure(refusal) }
    return .success(gathered)
  }

  func continues(with record: Record, _ output: ProviderOutput) -> Bool {
    guard output.provider == provider, output.extra[names.path] == nil else { return false }
    // A bulk request's batches after its first start with a record keeping their fields, each
    // batch of its own device.
    if output.extra[names.batch] != nil { return bulk }
    return record.source == source
  }

  mutating func add(_ record: Record, _ output: ProviderOutput) -> NotRebuilt? {
    if let refusal = progress.refusalBefore { return refusal }
    let refusal = addEvent(record, output)
    return progress.settle(record, refusal)
  }

  private mutating func addEvent(_ record: Record, _ output: ProviderOutput) -> NotRebuilt? {
    guard let call = output.calls.first else { return NotRebuilt(reason: "it has no call") }
    guard output.extra["unread"] == nil else { return HARRequestRebuild.unread }
    if case .object(let fields)? = output.extra[names.batch] {
      batches.append(Batch(fields: fields))
      source = record.source
    }
    guard var batch = batches.popLast() else {
      return NotRebuilt(reason: "it keeps no `\(names.batch)`: its batch's own fields are not kept")
    }
    defer { batches.append(batch) }
    // A batch without events is kept by one record of its own (`batchOnly`): no event to add.
    if output.extra[MParticleEndpoint.batchOnlyKey] == .bool(true) {
      progress.take(record, ownTime: false)
      return nil
    }
    let raw = record.raw ?? ""
    let key = raw.isEmpty ? names.events : names.messages
    guard batch.key == nil || batch.key == key else {
      return NotRebuilt(reason: "its event is not of the form of the events before it in its batch")
    }
    batch.key = key
    if raw.isEmpty {
      batch.events.append(.object(call.parameters))
    } else {
      guard case .object(let message)? = try? JSONParser.parse(raw) else {
        return NotRebuilt(reason: "its raw is not the message its SDK sent")
      }
      batch.events.append(.object(message))
    }
    var own: PropertyValue? = .object(call.parameters)
    for key in eventTime { own = own.map(Payload.object)?[key] }
    progress.take(record, ownTime: own?.doubleValue != nil)
    return nil
  }

  var request: Result<HARRequestRebuild, NotRebuilt> {
    let written = batches.map { batch -> PropertyValue in
      var fields = batch.fields
      if let key = batch.key { fields[key] = .array(batch.events) }
      return .object(fields)
    }
    let body = bulk ? JSONText.value(.array(written)) : written.first.map(JSONText.value) ?? "{}"
    var request = HARRequestRebuild(
      method: "POST", url: url, mimeType: rebuild.mimeType, body: body,
      comment: "rebuilt by tagscope export from record \(firstSeq): " + rebuild.summary)
    if let header { request.headers.append(header) }
    return .success(request)
  }
}
