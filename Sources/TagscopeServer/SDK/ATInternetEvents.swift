import AnalyticsHub
import AnalyticsProviders
import Foundation
import TagscopeRecording
import TagscopeVendors

extension ATInternetHitEndpoint {
  /// A hit of Piano-style events (`col=2`): atinternet-android-sdk @
  /// 493ce155b39bbd4b3c5faec78f3359977f0dcbf4 `Events.java` sends them as `events`, a JSON array of
  /// `{"name", "data"}` (the data's nested objects its keys joined by `_`, `PROPERTY_SEPARATOR`;
  /// a key both a value and a parent holds the value as `$`), and the page they happened on as
  /// `context`, `[{"data": {…}}]`. Each event is recorded as Piano Analytics' SDK records it
  /// (``PianoEndpoint``): the `sendEvent` call by its name with the app's properties flattened as
  /// the collection flattens them, the SDK's apart; the hit's own parameters and the page context
  /// kept beside it. An `events` that is not that array (a part of a hit split in parts, `mh`) is
  /// kept as sent and reported on a record of the hit.
  static func events(
    _ text: String, context: String?, sdk: Properties, identity: DeviceIdentity, site: String, raw: String,
    account: FieldAccount
  ) -> SDKReply {
    var account = account
    let parsed = try? JSONParser.parse(Array(text.utf8))
    guard case .array(let elements)? = parsed, !elements.isEmpty else {
      account.note("events", .string(text))
      return reply([
        record(
          PianoProperties([:]), name: "events", place: "events", account: account, identity: identity,
          site: site, raw: raw, sdk: sdk)
      ])
    }
    var pageContext: PropertyValue?
    if let context {
      if let parsed = try? JSONParser.parse(Array(context.utf8)) {
        pageContext = parsed
      } else {
        account.note("context", .string(context))
      }
    }
    var records: [IngestedEvent] = []
    // Each flattened key is made whole: a long parent over many children costs its length each.
    var keyBytes = max(64 * 1024, 8 * text.utf8.count)
    for (index, element) in elements.enumerated() {
      let place = "events[\(index)]"
      guard case .object(let event) = element, let name = Payload.text(event["name"]), !name.isEmpty else {
        var unread = FieldAccount()
        unread.note(place, element)
        records.append(
          record(
            PianoProperties([:]), name: "events", place: place, account: unread, identity: identity,
            site: site, raw: raw, sdk: sdk))
        continue
      }
      var own = FieldAccount()
      own.check(event, at: place, understood: PianoEndpoint.eventFields, transport: [])
      // Data that is no object, or whose keys pass their bound, is kept as sent and reported.
      let object = event["data"].flatMap(Payload.objectOrNil)
      let data = flattened(object ?? [:], budget: &keyBytes)
      if data == nil || object == nil, let sent = event["data"] { own.note("\(place).data", sent) }
      let split = PianoProperties(data ?? [:])
      for (sent, value) in split.repeated { own.note("\(place).data.\(sent)", value) }
      var piano = record(
        split, name: name, place: place, account: own, identity: identity, site: site, raw: raw, sdk: sdk)
      if let pageContext { piano.annotations.appendUnchecked("context", pageContext) }
      records.append(piano)
    }
    account.add(to: &records)
    return reply(records)
  }

  /// `data` with its nested objects' keys joined by `_` (`{"av": {"content": "x"}}` →
  /// `av_content`), a `$` key standing for its parent's own value; `nil` when its keys would take
  /// more than `budget` bytes more (what they take is taken from it).
  static func flattened(_ data: Properties, budget: inout Int) -> Properties? {
    var flat = Properties()
    func add(_ object: Properties, prefix: String, budget: inout Int) -> Bool {
      for (key, value) in object {
        let name = key == "$" ? prefix : prefix.isEmpty ? key : "\(prefix)_\(key)"
        budget -= name.utf8.count
        guard budget >= 0 else { return false }
        if case .object(let inner) = value, !inner.isEmpty {
          guard add(inner, prefix: name, budget: &budget) else { return false }
        } else {
          flat.appendUnchecked(name, value)
        }
      }
      return true
    }
    return add(data, prefix: "", budget: &budget) ? flat : nil
  }

  /// The record of event `name` at `place`
  /// (``PianoProperties/record(name:identity:raw:credentials:place:)``), with the hit's own SDK
  /// parameters beside it and its fields not understood; without a time of its own, the hit's
  /// (``time(_:violations:)``).
  private static func record(
    _ split: PianoProperties, name: String, place: String, account: FieldAccount, identity: DeviceIdentity,
    site: String, raw: String, sdk: Properties
  ) -> IngestedEvent {
    var event = split.record(
      name: name, identity: identity, raw: raw, credentials: ["s": .string(site)], place: place)
    if event.time == nil { event.time = time(sdk, violations: &event.violations) }
    event.annotations.appendUnchecked("sdk_parameters", .object(sdk))
    account.add(to: &event)
    return event
  }

  private static func reply(_ events: [IngestedEvent]) -> SDKReply {
    SDKReply(status: .ok, contentType: "image/gif", body: pixel, events: events)
  }
}
