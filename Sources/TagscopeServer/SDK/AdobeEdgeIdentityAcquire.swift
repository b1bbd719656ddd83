import AnalyticsHub
import AnalyticsProviders
import Foundation
import TagscopeRecording

/// Adobe Experience Platform Edge's identity requests (`POST /ee/v1/identity/acquire`, also after
/// a location hint): the Web SDK's `getIdentity` asking Edge for the visitor's Experience Cloud ID
/// (ECID), not sending an event.
///
/// Read in adobe/alloy (`createGetIdentity`: `action: "identity/acquire"`; `createIdentityPayload`:
/// `{"query":{"identity":{"fetch":["ECID"]}}}`, with `meta` and `xdm.identityMap` as on interact;
/// the answer's `identity:result` handle, `[{"id": …, "namespace": {"code": "ECID"}}]`, read by
/// `getPayloadsByType("identity:result")`; code index ids 4533915259, 68859466845). The request is
/// one `identify` record (a kind plans do not judge as a tag) named `identity_acquire`, its call
/// `getIdentity` with the namespaces it fetches; who sent it is read as on interact; its `meta`
/// and `xdm` are kept under `request`, and a key Tagscope does not know under `unread`, reported
/// (``FieldAccount``). Answered as Edge answers an interact (streamed), with the ECID the request
/// names, or one of 38 digits made up for it (as Edge mints one).
enum AdobeEdgeIdentityAcquire {
  /// The request keys the Web SDK writes.
  static let requestKeys: Set<String> = ["query", "meta", "xdm"]

  /// The record of an identity request's `fields`, and Edge's answer.
  static func reply(_ fields: Properties, request: ReceivedRequest) -> SDKReply {
    let identityQuery = Payload.object(Payload.object(fields["query"])["identity"])
    guard let fetch = Payload.array(identityQuery["fetch"]), !fetch.isEmpty else {
      return AdobeEdgeEndpoint.fail(
        400, "The request must ask for identities: query.identity.fetch, a non-empty array", .invalidPayload)
    }
    var account = FieldAccount()
    account.check(fields, at: "", understood: requestKeys, transport: [])
    AdobeEdgeEndpoint.checkQuery(request, into: &account)
    var shared: Properties = [:]
    for (key, value) in fields where key != "query" && requestKeys.contains(key) {
      shared.appendUnchecked(key, value)
    }
    var annotations: Properties = [:]
    if !shared.isEmpty { annotations["request"] = .object(shared) }
    if let config = AdobeEdgeEndpoint.datastream(request) { annotations["config_id"] = .string(config) }
    let parameters: Properties = ["namespaces": .array(fetch)]
    let identity = AdobeEdgeEndpoint.identity(request: fields)
    var record = IngestedEvent(
      provider: Vendors.adobe.rawValue, kind: .identify, name: "identity_acquire", properties: parameters,
      time: nil, identity: identity,
      call: CallDescription(method: "getIdentity", name: nil, parameters: parameters),
      raw: "", recordsRaw: false, annotations: annotations)
    account.add(to: &record)
    let requestID = JSONText.value(.string(request.queryValue("requestId") ?? UUID().uuidString.lowercased()))
    let ecid = JSONText.value(.string(identity.deviceID ?? madeUpECID()))
    let handle = #"[{"payload":[{"id":\#(ecid),"namespace":{"code":"ECID"}}],"type":"identity:result"}]"#
    return SDKReply(
      status: .ok, contentType: "application/json",
      body: "\u{0}{\"requestId\":\(requestID),\"handle\":\(handle)}\n", events: [record])
  }

  /// An Experience Cloud ID's shape: 38 digits.
  static func madeUpECID() -> String {
    String((0..<38).map { _ in Character(String(Int.random(in: 0...9))) })
  }
}
