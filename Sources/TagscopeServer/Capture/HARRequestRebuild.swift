import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeVendors

/// The request an SDK sent for a wire record, rebuilt from the record (a recording keeps the SDK's
/// messages, its credential and the vendor's answer, not the request) as its vendor's descriptor
/// says (``Vendor/Rebuild``): the vendor's own host and event path, and a body its decoder reads
/// back into the same record.
struct HARRequestRebuild {
  /// `request.method`.
  var method: String
  /// `request.url`.
  var url: String
  /// `request.postData.mimeType`.
  var mimeType: String
  /// `request.postData.text`.
  var body: String
  /// How it was rebuilt, for the entry's `comment`.
  var comment: String

  /// Headers the request needs besides its content type (Braze's `X-Braze-Api-Key`).
  var headers: [(name: String, value: String)] = []
  /// How ``body`` is written when its bytes are not text (`base64`: Firebase's gzip'd protobuf).
  var bodyEncoding: String?

  /// The body's size in bytes, as sent.
  var bodyBytes: Int {
    guard bodyEncoding == "base64" else { return body.utf8.count }
    return Base64.decode(body)?.count ?? 0
  }

  /// Why a record's request is not rebuilt, said for it on standard error.
  struct NotRebuilt: Error, Hashable {
    var reason: String
  }

  /// The rebuilds of the vendors whose requests are rebuilt, by provider id.
  private static let rebuilds: [String: [Vendor.Rebuild]] = Dictionary(
    uniqueKeysWithValues: Vendors.rebuilt.map { ($0.id.rawValue, $0.rebuild) })

  /// What the registry says of vendors whose records are never rebuilt, by provider id.
  private static let refusals: [String: String] = Dictionary(
    uniqueKeysWithValues: Vendors.all.compactMap { vendor in
      for rebuild in vendor.rebuild {
        if case .notRebuilt(let reason) = rebuild.body { return (vendor.id.rawValue, reason) }
      }
      return nil
    })

  /// The vendors whose requests are rebuilt.
  static var providers: Set<String> { Set(rebuilds.keys) }

  /// The rebuild of `output`'s record: its vendor's first whose call and marker it has.
  static func rebuild(for output: ProviderOutput) -> Result<Vendor.Rebuild, NotRebuilt> {
    guard let candidates = rebuilds[output.provider] else {
      return .failure(
        NotRebuilt(reason: refusals[output.provider] ?? "no request is rebuilt for \(output.provider)"))
    }
    let method = output.calls.first?.method
    if let rebuild = candidates.first(where: {
      ($0.method == nil || $0.method == method) && ($0.marker.map { output.extra[$0] != nil } ?? true)
    }) {
      return .success(rebuild)
    }
    let sameCall = candidates.filter { $0.method == nil || $0.method == method }
    guard !sameCall.isEmpty else {
      return .failure(NotRebuilt(reason: "\(output.provider) rebuilds no `\(method ?? "")` call"))
    }
    let markers = sameCall.compactMap(\.marker).map { "`\($0)`" }.joined(separator: " or ")
    return .failure(
      NotRebuilt(reason: "it keeps no \(markers), which each \(output.provider) record rebuilt keeps"))
  }

  /// The reason a record that kept fields its decoder did not read is not rebuilt.
  static let unread = NotRebuilt(
    reason: "it kept fields its decoder did not read (unread), which a rebuilt request would not carry")

  /// The request for `output`, an SDK's output of record `seq` whose `raw` is what listen kept of
  /// the request, as `rebuild` (not a gathered one) writes it; or why its record cannot give it.
  static func request(for output: ProviderOutput, raw: String, seq: UInt64, _ rebuild: Vendor.Rebuild)
    -> Result<HARRequestRebuild, NotRebuilt>
  {
    let note = "rebuilt by tagscope export from record \(seq): " + rebuild.summary
    let noCall = NotRebuilt(reason: "it has no call")
    let noRaw = NotRebuilt(reason: "it keeps no request (its raw is empty)")
    switch rebuild.body {
    case .jsonBatch(let key, let credentials):
      var body = Properties()
      for name in credentials { if let value = output.extra[name] { body[name] = value } }
      body[key] = .array(output.calls.map { .object($0.parameters) })
      return .success(post(rebuild, JSONText.string(body), note))
    case .formEvent(let field, let credential):
      guard let call = output.calls.first else { return .failure(noCall) }
      var properties = Properties()
      if let token = output.extra[credential] { properties[credential] = token }
      properties.merge(call.parameters.map { ($0.key, $0.value) })
      let event: Properties = ["event": .string(call.name ?? ""), "properties": .object(properties)]
      // A record keeps the message whole in `raw` when it holds more (mixpanel-swift's `$mp_metadata`).
      let message = raw.hasPrefix("{") ? raw : JSONText.string(event)
      return .success(post(rebuild, field + "=" + formEncoded(message), note))
    case .formMessage(let field):
      guard let call = output.calls.first else { return .failure(noCall) }
      return .success(post(rebuild, field + "=" + formEncoded(JSONText.string(call.parameters)), note))
    case .keptHit:
      guard !raw.isEmpty else { return .failure(noRaw) }
      let (query, body) = split(raw)
      return .success(
        HARRequestRebuild(
          method: "POST", url: rebuild.url + "?" + encodedQuery(query), mimeType: rebuild.mimeType,
          body: String(body), comment: note))
    case .keptPayloadData(let schema, let getPath):
      guard !raw.isEmpty else { return .failure(noRaw) }
      guard raw.hasPrefix("{") else {
        return .success(
          HARRequestRebuild(
            method: "GET", url: origin(of: rebuild.url) + getPath + "?" + encodedQuery(raw[...]),
            mimeType: "", body: "", comment: note))
      }
      let body = #"{"schema":"# + JSONText.quoted(schema) + #","data":["# + raw + "]}"
      return .success(post(rebuild, body, note))
    case .jsonEvent(let array, let name, let data, let added, let typed, let names):
      guard let call = output.calls.first else { return .failure(noCall) }
      guard output.extra["unread"] == nil else { return .failure(unread) }
      let event: Properties = [
        name: .string(call.name ?? ""), data: .object(eventData(call, output, added: added, typed: typed)),
      ]
      return .success(
        HARRequestRebuild(
          method: "POST", url: rebuild.url + query(names, of: output), mimeType: rebuild.mimeType,
          body: JSONText.string([array: .array([.object(event)])]), comment: note))
    case .flatEvent(let path, let name, let added, let fields, let unrebuilt):
      guard let call = output.calls.first else { return .failure(noCall) }
      guard output.extra["unread"] == nil else { return .failure(unread) }
      if let shared = unrebuilt.first(where: { output.extra[$0] != nil }) {
        return .failure(
          NotRebuilt(
            reason:
              "it keeps `\(shared)`, shared with the other records of its request, which a request of its one event would lose"
          ))
      }
      var event: Properties = [name: .string(call.name ?? "")]
      event.merge(call.parameters.map { ($0.key, $0.value) })
      for key in added {
        if case .object(let more)? = output.extra[key] { event.merge(more.map { ($0.key, $0.value) }) }
      }
      event.merge(fields.compactMap { key in output.extra[key].map { (key, $0) } })
      let body = path.reversed().reduce(PropertyValue.object(event)) { .object([$1: $0]) }
      return .success(post(rebuild, JSONText.value(body), note))
    case .keptRequest(let key):
      guard let call = output.calls.first else { return .failure(noCall) }
      guard output.extra["unread"] == nil else { return .failure(unread) }
      guard case .object(var fields)? = output.extra[key] else {
        return .failure(NotRebuilt(reason: "it keeps no `\(key)` (the request's own fields)"))
      }
      fields.merge(call.parameters.map { ($0.key, $0.value) })
      return .success(post(rebuild, JSONText.string(fields), note))
    case .contextDataHit(let variablesKey, let contextKey, let suitesKey, let modeKey, let path):
      guard let call = output.calls.first else { return .failure(noCall) }
      guard output.extra["unread"] == nil else { return .failure(unread) }
      guard output.extra["problems"] == nil else {
        return .failure(
          NotRebuilt(
            reason:
              "its hit did not read as the SDK writes one (problems), which a rebuilt hit would not show"))
      }
      guard case .object(let variables)? = output.extra[variablesKey],
        case .string(let suites)? = output.extra[suitesKey]
      else { return .failure(NotRebuilt(reason: "it keeps no `\(variablesKey)` and `\(suitesKey)`")) }
      var context = call.parameters
      if case .object(let sdk)? = output.extra[contextKey] { context.merge(sdk.map { ($0.key, $0.value) }) }
      guard let form = AdobeHitRebuild.form(variables: variables, contextData: context) else {
        return .failure(
          NotRebuilt(reason: "a context data key has an empty level (`a..b`), which would not read back"))
      }
      return .success(
        HARRequestRebuild(
          method: "POST",
          url: rebuild.url + suites + "/" + (output.extra[modeKey]?.stringValue ?? "0") + path,
          mimeType: rebuild.mimeType, body: form,
          comment: note))
    case .gatheredRequest, .gatheredEvents, .gatheredBodies, .gatheredBatches, .gatheredUpload:
      return .failure(NotRebuilt(reason: "its request is gathered from the records of one request"))
    case .notRebuilt(let reason):
      return .failure(NotRebuilt(reason: reason))
    }
  }

  /// `?` and each of `names` `output` keeps, as a query; empty when it keeps none.
  private static func query(_ names: [String], of output: ProviderOutput) -> String {
    let fields = names.compactMap { name in
      output.extra[name].map { formEncoded(name) + "=" + formEncoded(queryText($0)) }
    }
    return fields.isEmpty ? "" : "?" + fields.joined(separator: "&")
  }

  /// An event's data: `call`'s parameters then those `output` keeps under `added`, each key
  /// `output`'s `typed` object types written `<type>:<key>`.
  private static func eventData(
    _ call: CallDescription, _ output: ProviderOutput, added: String, typed: String
  )
    -> Properties
  {
    var fields = call.parameters.map { ($0.key, $0.value) }
    if case .object(let more)? = output.extra[added] { fields += more.map { ($0.key, $0.value) } }
    var types = Properties()
    if case .object(let kept)? = output.extra[typed] { types = kept }
    var data = Properties()
    for (key, value) in fields {
      if case .string(let type)? = types[key] { data[type + ":" + key] = value } else { data[key] = value }
    }
    return data
  }

  static func post(_ rebuild: Vendor.Rebuild, _ body: String, _ comment: String) -> HARRequestRebuild {
    HARRequestRebuild(
      method: "POST", url: rebuild.url, mimeType: rebuild.mimeType, body: body, comment: comment)
  }

  /// A query field's value as a record keeps it: a string as it is, any other value as JSON.
  private static func queryText(_ value: PropertyValue) -> String {
    if case .string(let text) = value { return text }
    return JSONText.value(value)
  }

  /// `raw` as listen keeps a hit: the query's fields, then the body after a newline.
  private static func split(_ raw: String) -> (query: Substring, body: Substring) {
    raw.firstIndex(of: "\n").map { (raw[..<$0], raw[raw.index(after: $0)...]) } ?? (raw[...], ""[...])
  }

  /// `url`'s scheme and host, without its path (`https://host`).
  static func origin(of url: String) -> String {
    guard let scheme = url.range(of: "://"), let slash = url[scheme.upperBound...].firstIndex(of: "/") else {
      return url
    }
    return String(url[..<slash])
  }

  /// A query listen keeps (`name=value&…`, values decoded) encoded again.
  private static func encodedQuery(_ query: Substring) -> String {
    query.split(separator: "&", omittingEmptySubsequences: true).map { field in
      guard let equals = field.firstIndex(of: "=") else { return formEncoded(String(field)) }
      return formEncoded(String(field[..<equals])) + "="
        + formEncoded(String(field[field.index(after: equals)...]))
    }.joined(separator: "&")
  }

  /// `text` percent-encoded for a form field (unreserved characters kept).
  static func formEncoded(_ text: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count * 3)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        bytes.append(byte)
      default:
        bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0f)]]
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
