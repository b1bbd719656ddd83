import AnalyticsHub
import Foundation
import SwiftProtobuf
import TagscopeRecording
import TagscopeVendors

/// One Firebase upload gathered back from its records (``Vendor/RebuildBody/gatheredUpload``):
/// each record at the place it keeps (`bundle 2 event 3`), its bundle's context from the first
/// record of the bundle. Each message is read back as the upload's decoder reads it before it is
/// taken: a record that would read back otherwise is not rebuilt.
struct HARGatheredUpload: HARGathering {
  typealias NotRebuilt = HARRequestRebuild.NotRebuilt

  /// A record's place in its upload.
  struct Place: Equatable {
    var bundle: Int
    var isProperty: Bool
    var ordinal: Int

    /// The place `text` names (`bundle 1 event 2`, `bundle 1 user property 1`).
    init?(_ text: String) {
      let words = text.split(separator: " ")
      guard words.count >= 4, words[0] == "bundle", let bundle = Int(words[1]), bundle > 0,
        let ordinal = Int(words[words.count - 1]), ordinal > 0
      else { return nil }
      switch words[2..<(words.count - 1)].joined(separator: " ") {
      case "event": isProperty = false
      case "user property": isProperty = true
      default: return nil
      }
      (self.bundle, self.ordinal) = (bundle, ordinal)
    }

    /// Whether `next` is the place right after this one in an upload (a bundle with no
    /// records may lie between).
    func isFollowed(by next: Place) -> Bool {
      if next.bundle > bundle { return next.ordinal == 1 }
      guard next.bundle == bundle else { return false }
      if next.isProperty == isProperty { return next.ordinal == ordinal + 1 }
      return next.isProperty && next.ordinal == 1
    }
  }

  private let rebuild: Vendor.Rebuild
  private let provider: String
  private let source: String?
  private let firstSeq: UInt64
  private let placeKey: String
  private var batch = Tagscope_Firebase_Batch()
  private var last: Place
  /// The context of the bundle the last record was in, as its records read back with it.
  private var common: (bundle: Int, properties: Properties)?
  private(set) var progress: HARGatheredProgress

  /// The upload `record` starts (its place the first of its upload's records), or why it cannot.
  static func start(_ record: Record, _ output: ProviderOutput, _ rebuild: Vendor.Rebuild)
    -> Result<Self, NotRebuilt>
  {
    guard case .gatheredUpload(let placeKey) = rebuild.body else {
      return .failure(NotRebuilt(reason: "its vendor's requests are not uploads"))
    }
    guard let text = output.extra[placeKey]?.stringValue else {
      return .failure(
        NotRebuilt(
          reason: "it keeps no `\(placeKey)` in an upload: a debug log line's record, which has no request"))
    }
    guard text != FirebaseUploadRecords.requestPlace else {
      return .failure(
        NotRebuilt(
          reason:
            "it stands for an upload holding no event or user property (a request record), whose bytes it does not keep"
        ))
    }
    guard let place = Place(text), place.ordinal == 1 else {
      return .failure(
        NotRebuilt(
          reason:
            "its `\(placeKey)` (\(text)) is not the first of an upload's records, which is not exported before it"
        ))
    }
    var gathered = HARGatheredUpload(
      rebuild: rebuild, provider: output.provider, source: record.source, firstSeq: record.seq,
      placeKey: placeKey, last: place, progress: HARGatheredProgress(first: record, output, whole: "upload"))
    if let refusal = gathered.place(record, output, at: place) { return .failure(refusal) }
    return .success(gathered)
  }

  func continues(with record: Record, _ output: ProviderOutput) -> Bool {
    guard output.provider == provider, record.source == source,
      let place = output.extra[placeKey]?.stringValue.flatMap(Place.init)
    else { return false }
    return last.isFollowed(by: place)
  }

  mutating func add(_ record: Record, _ output: ProviderOutput) -> NotRebuilt? {
    guard let text = output.extra[placeKey]?.stringValue, let place = Place(text) else {
      return NotRebuilt(reason: "it keeps no `\(placeKey)` in an upload")
    }
    return self.place(record, output, at: place)
  }

  private mutating func place(_ record: Record, _ output: ProviderOutput, at place: Place) -> NotRebuilt? {
    last = place
    if let refusal = progress.refusalBefore { return refusal }
    let refusal = addMessage(record, output, at: place)
    return progress.settle(record, refusal)
  }

  private mutating func addMessage(_ record: Record, _ output: ProviderOutput, at place: Place) -> NotRebuilt?
  {
    guard output.extra["unknown_fields"] == nil else {
      return NotRebuilt(
        reason:
          "its upload held fields the schema does not know (unknown_fields), which a record keeps only the names of"
      )
    }
    guard output.extra["unread"] == nil else { return HARRequestRebuild.unread }
    let part: FirebaseRecordRebuild.Part
    switch FirebaseRecordRebuild.part(of: output, time: record.timeMilliseconds) {
    case .success(let got): part = got
    case .failure(let refusal): return refusal
    }
    // Bundles with no records before this one's are sent empty, so that its number reads back.
    while batch.bundle.count < place.bundle {
      switch FirebaseRecordRebuild.bundle(output.extra) {
      case .success(let bundle):
        batch.bundle.append(batch.bundle.count == place.bundle - 1 ? bundle : .init())
      case .failure(let refusal): return refusal
      }
    }
    // A bundle's context is read once, with its first record: the records after it add messages.
    if common?.bundle != place.bundle {
      common = (place.bundle, FirebaseUploadRecords.common(batch.bundle[place.bundle - 1], unknownNote: nil))
    }
    let common = self.common?.properties ?? [:]
    let placeText = output.extra[placeKey]?.stringValue ?? ""
    let identity = DeviceIdentity()
    let again: IngestedEvent
    switch part {
    case .event(let event):
      again = FirebaseUploadRecords.record(event, identity: identity, common: common, place: placeText)
    case .property(let property):
      again = FirebaseUploadRecords.record(property, identity: identity, common: common, place: placeText)
    }
    // What the decoder makes of the message is what the record keeps, or it is not taken.
    let differs = again.annotations.first { output.extra[$0.key] != $0.value }?.key
    guard again.call == output.calls.first, differs == nil else {
      return NotRebuilt(
        reason:
          "its \(differs.map { "`\($0)`" } ?? "call") would not read back the same from the message rebuilt")
    }
    switch part {
    case .event(let event): batch.bundle[place.bundle - 1].event.append(event)
    case .property(let property): batch.bundle[place.bundle - 1].userProperty.append(property)
    }
    return nil
  }

  var request: Result<HARRequestRebuild, NotRebuilt> {
    let protobuf: [UInt8]
    do {
      protobuf = try batch.serializedBytes()
    } catch {
      return .failure(NotRebuilt(reason: "its upload could not be written as protobuf: \(error)"))
    }
    var request = HARRequestRebuild(
      method: "POST", url: rebuild.url, mimeType: rebuild.mimeType,
      body: Data(GzipStored.gzip(protobuf)).base64EncodedString(),
      comment: "rebuilt by tagscope export from record \(firstSeq): " + rebuild.summary)
    request.bodyEncoding = "base64"
    request.headers.append(("Content-Encoding", "gzip"))
    return .success(request)
  }
}
