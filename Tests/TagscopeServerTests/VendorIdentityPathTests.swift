import AnalyticsHub
import NIOHTTP1
import TagscopeRecording
import TagscopeVendors
import XCTest

@testable import TagscopeServer

/// Each identity path a vendor's descriptor declares is the one its decoder reads: a message with
/// only that field set (beside what the message needs to be one) names its user, device, session,
/// app, platform or model.
final class VendorIdentityPathTests: XCTestCase {
  /// One form of a vendor's messages: how a test sends one built around `root`, and what it
  /// needs besides when the field under test is neither the user nor the device.
  private struct Form {
    let vendor: Vendor
    let name: String
    let baseline: Properties
    let send: (Properties) -> SDKReply?
  }

  private typealias Fact = (
    name: String, declared: KeyPath<Vendor.IdentityFields, [String]>,
    decoded: KeyPath<DeviceIdentity, String?>
  )

  private static var facts: [Fact] {
    [
      ("user", \.user, \.userID), ("device", \.device, \.deviceID), ("session", \.session, \.sessionID),
      ("app", \.app, \.app), ("platform", \.platform, \.platform), ("model", \.model, \.model),
    ]
  }

  func testEveryDeclaredPathIsWhereTheDecoderReadsIt() {
    let forms = Self.forms
    for vendor in Vendors.all where vendor.paths.contains(.sdk) {
      for fields in vendor.identity {
        guard let form = forms.first(where: { $0.vendor.id == vendor.id && $0.name == fields.form }) else {
          XCTFail("\(vendor.id.rawValue) \(fields.form): no message of this form is sent by the test")
          continue
        }
        for (fact, declared, decoded) in Self.facts {
          for path in fields[keyPath: declared] {
            let place = "\(vendor.id.rawValue) \(fields.form) \(fact) at \(path)"
            let value = "value-\(fact)-12345"
            var root = fact == "user" || fact == "device" ? Properties() : form.baseline
            root = Self.merge(root, Self.nested(path, .string(value)))
            let reply = form.send(root)
            XCTAssertTrue((200..<300).contains(reply?.status.code ?? 0), "\(place): \(reply?.body ?? "")")
            XCTAssertEqual(reply?.events.first?.identity[keyPath: decoded], value, place)
          }
        }
      }
    }
  }

  private static var forms: [Form] {
    let segment: (Properties) -> SDKReply? = { root in
      endpointReply("/v1/track", body: json(merge(["event": "E"], root)), authorization: "Basic a2V5Og==")
    }
    return [
      Form(vendor: .segment, name: "message", baseline: [:], send: segment),
      Form(vendor: .rudderstack, name: "message", baseline: [:], send: segment),
      Form(vendor: .amplitude, name: "event", baseline: ["device_id": "device-base"]) { root in
        endpointReply(
          "/2/httpapi", body: json(["api_key": "key", "events": [.object(merge(["event_type": "E"], root))]]))
      },
      Form(vendor: .ga4, name: "measurement protocol", baseline: ["client_id": "client-base"]) { root in
        var request = root
        request["params"] = nil
        request["events"] = [.object(["name": "E", "params": .object(Payload.object(root["params"]))])]
        return endpointReply(
          "/mp/collect", body: json(request), query: [("measurement_id", "G-TEST"), ("api_secret", "secret")])
      },
      Form(vendor: .ga4, name: "gtag", baseline: ["cid": "client-base"]) { root in
        let fields = root.compactMap { key, value in Payload.string(value).map { (name: key, value: $0) } }
        return endpointReply(
          "/g/collect", body: "", query: [("v", "2"), ("tid", "G-TEST"), ("en", "E")] + fields,
          contentType: "text/plain")
      },
      Form(vendor: .mparticle, name: "events api", baseline: [:]) { root in
        var batch = root
        batch["event"] = nil
        let data = merge(["event_name": "E", "custom_event_type": "other"], Payload.object(root["event"]))
        batch["events"] = [.object(["event_type": "custom_event", "data": .object(data)])]
        return endpointReply("/v2/events", body: json(batch), authorization: "Basic a2V5OnNlY3JldA==")
      },
      Form(vendor: .mparticle, name: "idsync", baseline: [:]) { root in
        var request = root
        request["identities"] = nil
        request["known_identities"] = .object(
          merge(Payload.object(root["known_identities"]), Payload.object(root["identities"])))
        return endpointReply("/v1/identify", body: json(request))
      },
      Form(vendor: .mixpanel, name: "track", baseline: ["properties": ["distinct_id": "base"]]) { root in
        let message = merge(["event": "E", "properties": ["token": "token"]], root)
        return endpointReply("/track", body: JSONText.value(.array([.object(message)])))
      },
      Form(vendor: .mixpanel, name: "profile", baseline: [:]) { root in
        let message = merge(["$token": "token", "$set": ["plan": "pro"]], root)
        return endpointReply("/engage", body: JSONText.value(.array([.object(message)])))
      },
      Form(vendor: .posthog, name: "event", baseline: ["distinct_id": "base"]) { root in
        endpointReply("/capture", body: json(merge(["api_key": "key", "event": "E"], root)))
      },
      Form(vendor: .adobe, name: "edge", baseline: [:]) { root in
        // `ECID[0]` is the array's first element; `authenticatedIdentity` the decoder's name for
        // the identity map's signed-in entry.
        var xdm = Payload.object(root["xdm"])
        var map = Payload.object(xdm["identityMap"])
        if let first = map["ECID[0]"] {
          map["ECID[0]"] = nil
          map["ECID"] = [first]
        }
        if case .object(var user)? = root["authenticatedIdentity"] {
          user["authenticatedState"] = "authenticated"
          map["Email"] = [.object(user)]
        }
        xdm["identityMap"] = .object(map)
        let request: Properties = ["events": [["xdm": ["eventType": "E"]]], "xdm": .object(xdm)]
        return endpointReply("/ee/v1/interact", body: json(request))
      },
      Form(vendor: .adobe, name: "hit", baseline: [:]) { root in
        // `authenticatedCustomerID` the decoder's name for the synced id sent authenticated.
        var fields = root.compactMap { key, value in
          key == AdobeAnalyticsHit.authenticatedKey ? nil : Payload.string(value).map { "&\(key)=\($0)" }
        }
        if let user = Payload.string(root[AdobeAnalyticsHit.authenticatedKey]) {
          fields.append("&cid.&userid.&id=\(user)&as=1&.userid&.cid")
        }
        return endpointReply(
          "/b/ss/rsid/0/IOSN030002030100/s1", body: "ndh=1&pageName=p" + fields.joined(),
          contentType: "application/x-www-form-urlencoded")
      },
      Form(vendor: .firebase, name: "bundle", baseline: ["app_instance_id": "device-base"]) { root in
        firebaseUpload(root)
      },
      Form(vendor: .braze, name: "event", baseline: ["device_id": "device-base"]) { root in
        var event: Properties = ["name": "ce", "data": ["n": "E"]]
        event["session_id"] = root["session_id"]
        var request = merge(["api_key": "key"], root)
        request["session_id"] = nil
        request["events"] = [.object(event)]
        return endpointReply("/api/v3/data", body: json(request))
      },
      Form(vendor: .fpti, name: "event", baseline: [:]) { root in
        let event = merge(["event_name": "E"], root)
        return endpointReply("/v1/tracking/events", body: json(["events": ["event_params": .object(event)]]))
      },
      Form(vendor: .piano, name: "event", baseline: ["idclient": "visitor-base"]) { root in
        var data = root
        data["idclient"] = nil
        let visitor = Payload.string(root["idclient"]).map { [(name: "idclient", value: $0)] } ?? []
        let body = json(["events": [.object(["name": "E", "data": .object(data)])]])
        return endpointReply("/event", body: body, query: [(name: "s", value: "1")] + visitor)
      },
      Form(vendor: .piano, name: "hit", baseline: ["idclient": "visitor-base"]) { root in
        // An object (`stc`) goes as its JSON, as the SDK sends it.
        let fields = root.map { key, value in
          (name: key, value: Payload.string(value) ?? JSONText.value(value))
        }
        return endpointReply(
          "/hit.xiti", body: "", query: [("s", "1"), ("p", "home")] + fields, contentType: "text/plain")
      },
      Form(vendor: .snowplow, name: "payload", baseline: [:]) { root in
        var event: Properties = ["e": "se", "se_ca": "category", "se_ac": "action", "tv": "test", "eid": "1"]
        var contexts: [PropertyValue] = []
        for (key, value) in root {
          if case .object(let data) = value {
            let schema = "iglu:com.snowplowanalytics.snowplow/\(key)/jsonschema/1-0-0"
            contexts.append(.object(["schema": .string(schema), "data": .object(data)]))
          } else {
            event[key] = value
          }
        }
        let co = json([
          "schema": "iglu:com.snowplowanalytics.snowplow/contexts/jsonschema/1-0-0", "data": .array(contexts),
        ])
        if !contexts.isEmpty { event["co"] = .string(co) }
        let payload: Properties = [
          "schema": "iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4",
          "data": [.object(event)],
        ]
        return endpointReply("/com.snowplowanalytics.snowplow/tp2", body: json(payload))
      },
    ]
  }

  /// `{"a": {"b": value}}` for `a.b`.
  private static func nested(_ path: String, _ value: PropertyValue) -> Properties {
    let fields = path.split(separator: ".").map(String.init)
    var result = value
    for field in fields.reversed() { result = .object([field: result]) }
    return Payload.object(result)
  }

  /// `base` with `top`'s fields, objects merged field by field.
  private static func merge(_ base: Properties, _ top: Properties) -> Properties {
    var result = base
    for (key, value) in top {
      if case .object(let inner) = value, case .object(let existing)? = result[key] {
        result[key] = .object(merge(existing, inner))
      } else {
        result[key] = value
      }
    }
    return result
  }

  private static func json(_ properties: Properties) -> String { JSONText.value(.object(properties)) }

  /// A Firebase upload (`POST /a`, protobuf) of one bundle with one event, its fields set from
  /// `root` by their schema names, `user_property.NAME` and `param.NAME` (the event's).
  private static func firebaseUpload(_ root: Properties) -> SDKReply? {
    var bundle = Tagscope_Firebase_Bundle()
    bundle.protocolVersion = 1
    for (name, value) in root {
      guard let text = Payload.string(value) else { continue }
      switch name {
      case "app_instance_id": bundle.appInstanceID = text
      case "app_id": bundle.appID = text
      case "platform": bundle.platform = text
      case "device_model": bundle.deviceModel = text
      default: break
      }
    }
    for (name, value) in Payload.object(root["user_property"]) {
      var property = Tagscope_Firebase_UserProperty()
      property.name = name
      property.stringValue = Payload.string(value) ?? ""
      bundle.userProperty.append(property)
    }
    var event = Tagscope_Firebase_Event()
    event.name = "E"
    event.timestampMillis = 1_700_000_000_000
    for (name, value) in Payload.object(root["param"]) {
      var parameter = Tagscope_Firebase_EventParameter()
      parameter.name = name
      parameter.stringValue = Payload.string(value) ?? ""
      event.param.append(parameter)
    }
    bundle.event = [event]
    var batch = Tagscope_Firebase_Batch()
    batch.bundle = [bundle]
    guard let bytes: [UInt8] = try? batch.serializedBytes(),
      case .endpoint(let endpoint) = EndpointRouter.route(method: .POST, path: "/a")
    else { return nil }
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
    return endpoint.handle(
      ReceivedRequest(
        method: .POST, path: "/a", query: [], headers: headers, body: bytes, peerHost: "127.0.0.1"))
  }

}
