import AnalyticsHub
import AnalyticsProviders
import NIOHTTP1
import XCTest

@testable import TagscopeServer

/// What the vendor registry says `listen` and the proxy serve is what they serve: every endpoint
/// path is routed by listen's router to its vendor's decoder with the methods it lists, and every
/// proxy host is one the proxy's host table decrypts.
final class VendorRoutingTests: XCTestCase {
  /// A path an SDK sends for a registry path (`KEY` and `MPID` filled in).
  func concrete(_ path: String) -> String {
    path.replacingOccurrences(of: "KEY", with: "k3y").replacingOccurrences(of: "MPID", with: "123")
  }

  func testEveryEndpointPathIsRoutedToItsVendorWithItsMethods() {
    var checked = 0
    for vendor in Vendors.all {
      for endpoint in vendor.endpoints {
        let path = concrete(endpoint.path)
        guard case .endpoint(let decoder) = EndpointRouter.route(method: .POST, path: path) else {
          XCTFail("\(vendor.id) \(endpoint.path): POST \(path) is not routed to an endpoint")
          continue
        }
        let providers = decoder.provider.split(separator: "|").map(String.init)
        // RudderStack's requests go to Segment's decoder, which records them as RudderStack's by
        // their messages.
        let decodes = vendor.id == Vendors.rudderstack ? Vendors.segment : vendor.id
        XCTAssertTrue(providers.contains(decodes.rawValue), "\(endpoint.path) goes to \(decoder.provider)")
        let get = EndpointRouter.route(method: .GET, path: path)
        if endpoint.shape.takesGET {
          guard case .endpoint = get else { return XCTFail("\(endpoint.path) takes GET, but \(get)") }
        } else {
          guard case .methodNotAllowed = get else {
            return XCTFail("\(endpoint.path) takes no GET, but \(get)")
          }
        }
        checked += 1
      }
    }
    XCTAssertEqual(checked, Vendors.all.map(\.endpoints.count).reduce(0, +))
  }

  func testTheRouterServesOnlyRegistryPaths() {
    let registry = Set(Vendors.endpoints.map(\.path))
    for path in EndpointRouter.paths.map(\.path) { XCTAssertTrue(registry.contains(path), path) }
    XCTAssertEqual(ListenEndpoints.eventPaths.map(\.path), Vendors.endpoints.map(\.path))
    guard case .notFound = EndpointRouter.route(method: .POST, path: "/v9/nothing") else {
      return XCTFail("an unknown path is routed")
    }
  }

  func testEveryProxyHostIsDecrypted() {
    let hosts = InterceptedHosts()
    for vendor in Vendors.all {
      for host in vendor.proxyHosts {
        let name = host.pattern.hasPrefix("*.") ? "x" + host.pattern.dropFirst() : host.pattern
        XCTAssertTrue(hosts.contains(name), "\(vendor.id): \(name) is not intercepted")
        XCTAssertTrue(hosts.contains(name.uppercased() + "."), "\(vendor.id): \(name) fully qualified")
      }
    }
    XCTAssertEqual(InterceptedHosts.builtIn.map(\.pattern), Vendors.proxyHosts.map(\.pattern))
    XCTAssertFalse(hosts.contains("example.com"))
  }

  func testMessageIDsAreReadWhereTheDescriptorSays() {
    for vendor in Vendors.all {
      guard let place = vendor.messages?.messageID.first(where: { $0.rawMarker == nil }) else { continue }
      var parameters: Properties = [:]
      let keys = place.path.split(separator: ".").map(String.init)
      var value: PropertyValue = .string("m-1")
      for key in keys.reversed() { value = .object([key: value]) }
      if case .object(let object) = value { parameters = object }
      let call = CallDescription(method: place.method ?? "track", name: "e", parameters: parameters)
      XCTAssertEqual(
        RecordedMessages.messageIDs(provider: vendor.id.rawValue, call: call, raw: "{}"), ["m-1"],
        "\(vendor.id) \(place.path)")
    }
    let mobile = CallDescription(method: "logEvent", name: "e", parameters: [:])
    XCTAssertEqual(
      RecordedMessages.messageIDs(
        provider: Vendors.mparticle.rawValue, call: mobile, raw: #"{"dt":"e","id":"x"}"#),
      ["x"])
    let mixpanelPeople = CallDescription(method: "engage", name: "e", parameters: ["$insert_id": "m-1"])
    XCTAssertEqual(
      RecordedMessages.messageIDs(provider: Vendors.mixpanel.rawValue, call: mixpanelPeople, raw: ""), [])
    XCTAssertEqual(RecordedMessages.messageIDs(provider: Vendors.ga4.rawValue, call: mobile, raw: "{}"), [])
  }
}
