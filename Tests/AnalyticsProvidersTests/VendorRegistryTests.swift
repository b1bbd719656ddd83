import AnalyticsHub
import AnalyticsProviders
import TagscopeVendors
import XCTest

/// The vendor registry: every descriptor holds what its paths need, and the in-app providers'
/// ids are their descriptors' ids.
final class VendorRegistryTests: XCTestCase {
  func testEveryDescriptorIsComplete() {
    XCTAssertFalse(Vendors.all.isEmpty)
    for vendor in Vendors.all {
      let id = vendor.id.rawValue
      XCTAssertFalse(id.isEmpty, vendor.name)
      XCTAssertEqual(id, id.lowercased(), "\(id): ids are lowercase")
      XCTAssertFalse(vendor.name.isEmpty, id)
      XCTAssertFalse(vendor.paths.isEmpty, "\(id) reaches Tagscope on no path")
      if vendor.paths.contains(.sdk) {
        XCTAssertFalse(vendor.endpoints.isEmpty, "\(id) is decoded from its SDK but has no endpoint")
        XCTAssertNotNil(vendor.messages, "\(id) is decoded from its SDK but says nothing of its messages")
      } else {
        XCTAssertTrue(vendor.endpoints.isEmpty, "\(id) has endpoints but no SDK path")
        XCTAssertTrue(vendor.proxyHosts.isEmpty, "\(id) has proxy hosts but no SDK path")
      }
      for endpoint in vendor.endpoints {
        XCTAssertTrue(endpoint.path.hasPrefix("/"), "\(id) \(endpoint.path)")
        XCTAssertFalse(endpoint.summary.isEmpty, "\(id) \(endpoint.path)")
        XCTAssertTrue(endpoint.shape.methods.contains("POST"), "\(id) \(endpoint.path) takes no POST")
        XCTAssertFalse(endpoint.shape.contentTypes.isEmpty, "\(id) \(endpoint.path)")
        XCTAssertFalse(endpoint.shape.encodings.isEmpty, "\(id) \(endpoint.path)")
        XCTAssertFalse(endpoint.shape.auth.isEmpty, "\(id) \(endpoint.path)")
      }
      for host in vendor.proxyHosts {
        XCTAssertEqual(host.pattern, host.pattern.lowercased(), "\(id) \(host.pattern)")
        XCTAssertFalse(host.sdk.isEmpty, "\(id) \(host.pattern)")
      }
      for format in vendor.importFormats {
        XCTAssertFalse(format.displayName.isEmpty || format.summary.isEmpty, "\(id) \(format.name)")
        XCTAssertFalse(format.evidenceKeys.isEmpty, "\(id) \(format.name) names no key it is told by")
      }
      if let style = vendor.callStyle {
        XCTAssertTrue(vendor.paths.contains(.inApp), "\(id) has a call style but no in-app provider")
        XCTAssertTrue(
          style.calls.contains { $0.method == style.defaultMethod }, "\(id): \(style.defaultMethod)")
      }
    }
  }

  func testIdsAliasesPathsAndHostsAreEachOnce() {
    let names = Vendors.all.flatMap { [$0.id.rawValue] + $0.aliases }
    XCTAssertEqual(Set(names).count, names.count, "an id or alias names two vendors")
    let hosts = Vendors.proxyHosts.map(\.pattern)
    XCTAssertEqual(Set(hosts).count, hosts.count, "a host is listed twice")
    // `/v1/identify` is Segment's identify and mParticle's IDSync identify: one router entry tells
    // them apart; every other path is one vendor's.
    var owners: [String: [String]] = [:]
    for vendor in Vendors.all {
      for endpoint in vendor.endpoints { owners[endpoint.path, default: []].append(vendor.id.rawValue) }
    }
    let shared = owners.filter { $0.value.count > 1 }
    XCTAssertEqual(Array(shared.keys), ["/v1/identify"], "\(shared)")
    XCTAssertEqual(Vendors.endpoints.count, owners.count)
  }

  func testInAppProvidersIdsAreTheirDescriptorsIds() {
    let inApp = Vendors.all.filter { $0.paths.contains(.inApp) }.map(\.id)
    XCTAssertEqual(ProviderRules.ruleSets.map { $0.providerID }, inApp)
    let typed: [(ProviderID, Vendor)] = [
      (FirebaseRules.providerID, .firebase), (AmplitudeRules.providerID, .amplitude),
      (SegmentRules.providerID, .segment), (PianoRules.providerID, .piano), (BrazeRules.providerID, .braze),
      (AdobeRules.providerID, .adobe), (BatchRules.providerID, .batch), (MixpanelRules.providerID, .mixpanel),
      (FPTIRules.providerID, .fpti),
    ]
    for (providerID, vendor) in typed { XCTAssertEqual(providerID, vendor.id) }
    XCTAssertEqual(Firebase.id, Vendors.firebase)
    // A vendor following another's rules names one that has rules.
    for vendor in Vendors.all {
      guard let rulesOf = vendor.rulesOf else { continue }
      XCTAssertTrue(inApp.contains(rulesOf), "\(vendor.id) follows \(rulesOf), which has no rules")
      XCTAssertEqual(ProviderRules.ruleSet(for: vendor.id.rawValue)?.providerID, rulesOf)
    }
  }

  func testLookupByIdAliasAndNearMiss() {
    XCTAssertEqual(Vendors.vendor(named: "AppBoy")?.id, Vendors.braze)
    XCTAssertEqual(Vendors.vendor(Vendors.posthog)?.messages?.trackMethod, "capture")
    XCTAssertNil(Vendors.vendor(ProviderID(rawValue: "appboy")), "an alias is no id")
    XCTAssertEqual(Vendors.suggestion(for: "segmnet"), Vendors.segment.rawValue)
    XCTAssertEqual(Vendors.importFormat(named: "iglu")?.vendor.id, Vendors.snowplow)
    XCTAssertNil(Vendors.importFormat(named: "jsonschema"))
  }

  func testTemplatePrefixesAreThoseOfItsPaths() {
    XCTAssertEqual(
      Vendor.mparticle.pathPrefixes(of: .mparticleNative, before: "KEY/events"),
      ["/v2/", "/nativeevents/v2/"])
    XCTAssertEqual(
      Vendor.mparticle.pathPrefixes(of: .mparticleIdentity, before: "identify"), ["/v1/", "/identity/v1/"])
  }

  func testCallTemplatesFillTheirPartsOnceAndCheckTheName() {
    let track = Vendor.CallTemplate("track", ".track(name: {name}, properties: {parameters})")
    // A part's own text is never read as a placeholder.
    XCTAssertEqual(
      track.render(["name": #""{parameters}""#, "parameters": #"["k": "{name}"]"#]),
      #".track(name: "{parameters}", properties: ["k": "{name}"])"#)
    XCTAssertNil(track.render(["parameters": "[:]"]), "a named call needs its name")
    let peopleSet = Vendor.CallTemplate("people.set", ".peopleSet({parameters})", name: .absent)
    XCTAssertNil(peopleSet.render(["name": "\"x\"", "parameters": "[:]"]))
    XCTAssertEqual(peopleSet.render(["parameters": "[:]"]), ".peopleSet([:])")
    XCTAssertEqual(
      Vendor.CallTemplate("m", "a{b", name: .any).render([:]), "a{b", "an open brace alone is kept")
  }
}
