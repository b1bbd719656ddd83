import AnalyticsHub
import AnalyticsProviders
import Foundation
import TagscopeRecording

/// Adobe Experience Platform Edge's consent requests (`POST /ee/v1/privacy/set-consent`, also
/// after a location hint), as the hub records a consent decision: each element of `consent` is a
/// `consent` record whose properties are the hub's ``ConsentChange`` for provider `adobe`
/// (`scope: provider:adobe`, `granted`), so the plan's consent check judges the wire calls that
/// follow it; its call is `setConsent` with the element as sent.
///
/// Read in adobe/aepsdk-edge-android @ f607561cf7301e22deaabdcdf838844127e52186
/// (`EdgeConsentUpdate.asJsonObject`, `RequestBuilder.getConsentPayload`: `consent` of one
/// `{standard: "Adobe", version: "2.0", value: <the consents>}`, `identityMap` at the top,
/// `query.consent.operation: "update"`, `meta.konductorConfig`) and Adobe's Edge Network API
/// contract (`ConsentReplaceRequest`, `AdobeConsentV1`/`V2`, `ConsentChoice`). The Adobe 2.0
/// standard's `value.collect.val` decides: `y` granted, `n` withdrawn; version 1.0's
/// `value.general`: `in`, `out`. Another value (`p` pending, `u` unknown…) or another standard
/// (IAB TCF's string) is recorded without `granted`, listed in `problems`: the consent check then
/// says it could not read the decision. A key Tagscope does not know is kept out of the call,
/// under the record's `unread` by its place (`x`, `consent[0].extra`), and reported
/// (``FieldAccount``). Answered as Edge answers an interact (streamed).
enum AdobeEdgeConsent {
  /// The request keys the Edge extension writes.
  static let requestKeys: Set<String> = ["consent", "identityMap", "meta", "query"]
  /// The keys of one consent element (the contract's `ConsentChoice`; an IAB TCF element's
  /// `gdprApplies` and `gdprContainsPersonalData` too).
  static let entryKeys: Set<String> = [
    "standard", "version", "value", "gdprApplies", "gdprContainsPersonalData",
  ]

  /// The records of a set-consent request's `fields`, and Edge's answer.
  static func reply(_ fields: Properties, request: ReceivedRequest) -> SDKReply {
    guard let entries = Payload.array(fields["consent"]), !entries.isEmpty else {
      return AdobeEdgeEndpoint.fail(
        400, "The request must be an object with a non-empty consent array", .invalidPayload)
    }
    // A key Tagscope does not know is kept under the record's `unread` and reported, not in the
    // call: the request's once, with its first record.
    var own = FieldAccount()
    own.check(fields, at: "", understood: requestKeys, transport: [])
    AdobeEdgeEndpoint.checkQuery(request, into: &own)
    var shared: Properties = [:]
    for (key, value) in fields where key != "consent" && requestKeys.contains(key) {
      shared.appendUnchecked(key, value)
    }
    // The identity map is at the request's top here, not under `xdm` as on interact.
    let identity = AdobeEdgeEndpoint.identity(
      request: ["xdm": .object(["identityMap": fields["identityMap"] ?? .object([:])])])
    let config = AdobeEdgeEndpoint.datastream(request).map(PropertyValue.string)
    var records: [IngestedEvent] = []
    for (index, element) in entries.enumerated() {
      guard case .object(let entry) = element else {
        return AdobeEdgeEndpoint.fail(400, "consent[\(index)] must be an object", .invalidPayload)
      }
      var account = FieldAccount()
      account.check(entry, at: "consent[\(index)]", understood: entryKeys, transport: [])
      let carried =
        account.isEmpty
        ? entry : Properties(entry.filter { entryKeys.contains($0.key) }.map { ($0.key, $0.value) })
      var problems: [String] = []
      var properties: Properties = ["scope": .string(ConsentScope.provider(Vendors.adobe).label)]
      switch decision(entry) {
      case .success(let granted): properties["granted"] = .bool(granted)
      case .failure(let problem): problems.append("consent[\(index)]\(problem.text)")
      }
      var annotations: Properties = index == 0 ? ["request": .object(shared)] : [:]
      if let config { annotations["config_id"] = config }
      if index == 0,
        let path = AdobeEdgeEndpoint.keptPath(request.path, sdkPath: AdobeEdgeEndpoint.consentPath)
      {
        annotations["path"] = path
      }
      annotations["consent_index"] = .int(index)
      if !problems.isEmpty { annotations["problems"] = .array(problems.map(PropertyValue.string)) }
      let value = Payload.object(entry["value"])
      var violations: [RuleViolation] = []
      let time = SentTime.iso8601(
        Payload.object(value["metadata"])["time"], field: "consent[\(index)].value.metadata.time",
        provider: Vendors.adobe.rawValue, violations: &violations)
      var record = IngestedEvent(
        provider: Vendors.adobe.rawValue, kind: .consent, name: "consent", properties: properties, time: time,
        identity: identity, call: CallDescription(method: "setConsent", name: nil, parameters: carried),
        violations: violations, raw: JSONText.string(entry), recordsRaw: false, annotations: annotations)
      account.add(to: &record)
      records.append(record)
    }
    own.add(to: &records)
    let requestID = JSONText.value(.string(request.queryValue("requestId") ?? UUID().uuidString.lowercased()))
    return SDKReply(
      status: .ok, contentType: "application/json",
      body: "\u{0}{\"requestId\":\(requestID),\"handle\":[]}\n", events: records)
  }

  /// Why a consent element decides nothing Tagscope reads, after its place.
  struct Undecided: Error {
    /// `.value.collect.val: "p" is not y or n, no decision recorded`.
    var text: String
  }

  /// The decision of one consent element: the Adobe standard's collect consent.
  static func decision(_ entry: Properties) -> Result<Bool, Undecided> {
    let standard = Payload.text(entry["standard"])
    let version = Payload.text(entry["version"])
    let value = Payload.object(entry["value"])
    guard standard == "Adobe" else {
      return .failure(
        Undecided(
          text: ".standard: \(standard.map { "\"\($0)\"" } ?? "none"), not Adobe's: no decision recorded"))
    }
    if version == "1.0" {
      let general = Payload.text(value["general"])
      if general == "in" { return .success(true) }
      if general == "out" { return .success(false) }
      return .failure(
        Undecided(
          text:
            ".value.general: \(general.map { "\"\($0)\"" } ?? "none"), not in or out: no decision recorded"))
    }
    // The Edge Consent extension sends 2.0 (`EdgeJson.Consent.VERSION_VALUE`); another version's
    // value is not read as 2.0's.
    guard version == "2.0" else {
      return .failure(
        Undecided(
          text: ".version: \(version.map { "\"\($0)\"" } ?? "none"), not 1.0 or 2.0: no decision recorded"))
    }
    let collect = Payload.text(Payload.object(value["collect"])["val"])
    if collect == "y" { return .success(true) }
    if collect == "n" { return .success(false) }
    return .failure(
      Undecided(
        text: ".value.collect.val: \(collect.map { "\"\($0)\"" } ?? "none"), not y or n: no decision recorded"
      ))
  }
}
