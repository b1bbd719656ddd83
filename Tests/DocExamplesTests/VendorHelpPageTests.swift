import AnalyticsProviders
import TaggingPlan
import TaggingPlanImport
import XCTest

/// Every SDK path, proxy host and import format `tagscope help listen|proxy|qa` names is the vendor
/// registry's, and every one of the registry's is named: the pages are generated from it, not
/// written twice.
final class VendorHelpPageTests: XCTestCase {
  /// The first word of each row of the table under `heading` (rows are indented two spaces; a
  /// word too long for its column has its summary on the next line, indented further).
  func tableKeys(_ page: String, under heading: String) -> [String] {
    let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(where: { $0 == heading }) else {
      XCTFail("no \(heading) on the page")
      return []
    }
    var keys: [String] = []
    for line in lines[(start + 1)...] {
      if !line.isEmpty, !line.hasPrefix(" "), line.uppercased() == line { break }
      guard line.hasPrefix("  "), !line.hasPrefix("   "), let word = line.split(separator: " ").first else {
        continue
      }
      keys.append(String(word))
    }
    return keys
  }

  func testListenListsTheRegistrysPathsAndNoOther() throws {
    let page = try BuiltProducts.run(["help", "listen"]).output
    XCTAssertEqual(tableKeys(page, under: "SDK ENDPOINTS"), Vendors.endpoints.map(\.path))
    for endpoint in Vendors.endpoints { XCTAssertTrue(page.contains(endpoint.summary), endpoint.summary) }
    // The retried messages listen knows by their id: the fields the registry names.
    for field in Vendors.messageIDFields { XCTAssertTrue(page.contains(field), "message id \(field)") }
  }

  /// Every SDK path's limits and every set-up request listen answers are the registry's, one row each.
  func testListenListsTheRegistrysLimitsAndSetupRequests() throws {
    let page = try BuiltProducts.run(["help", "listen"]).output
    XCTAssertEqual(tableKeys(page, under: "SDK SET-UP REQUESTS"), Vendors.setupRequests.map(\.path))
    XCTAssertEqual(tableKeys(page, under: "SDK LIMITS"), Vendors.limits.map { $0.paths[0] })
    let words = page.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    for limit in Vendors.limits {
      XCTAssertTrue(words.contains(limit.helpLine), limit.helpLine)
      for path in limit.paths { XCTAssertTrue(words.contains(path), path) }
    }
    for request in Vendors.setupRequests { XCTAssertTrue(words.contains(request.summary), request.summary) }
  }

  func testWherePropertiesSitIsTheRegistrysWords() throws {
    let places = Vendors.propertiesPlaces()
    XCTAssertTrue(places.contains("`event_properties` for Amplitude"), places)
    // Mixpanel's track calls, the in-app call models Adobe's hits and FPTI's events are recorded as.
    XCTAssertTrue(places.contains("; the parameters themselves for "), places)
    XCTAssertTrue(places.hasSuffix("Adobe Analytics, Mixpanel and PayPal FPTI"), places)
    XCTAssertTrue(PlanFormatReference.markdown.contains(places))
    let usage = try BuiltProducts.run(["plan", "import", "--help"]).output
    let words = usage.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    XCTAssertTrue(words.contains(Vendors.propertiesPlaces(quote: "")), "plan import --help")
  }

  func testProxyListsTheRegistrysHostsAndNoOther() throws {
    let page = try BuiltProducts.run(["help", "proxy"]).output
    XCTAssertEqual(tableKeys(page, under: "HOSTS DECRYPTED"), Vendors.proxyHosts.map(\.pattern))
    let usage = try BuiltProducts.run(["proxy", "run", "--help"])
    for host in Vendors.proxyHosts {
      XCTAssertTrue(usage.output.contains(host.pattern), "proxy run --help: \(host.pattern)")
    }
  }

  /// What the registry says of a vendor's traffic besides its hosts (Batch encrypted by its SDK,
  /// PayPal FPTI's web beacons not decoded, Adobe's own domains) is what `help proxy` says, vendor by vendor.
  func testProxySaysWhatTheRegistrySaysOfEachVendorsTraffic() throws {
    let page = try BuiltProducts.run(["help", "proxy"]).output
    let words = page.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    XCTAssertEqual(Vendors.wireNotes.map(\.name), ["Adobe Analytics", "Batch", "PayPal FPTI"])
    XCTAssertEqual(tableKeys(page, under: "OTHER HOSTS AND VENDORS"), ["Adobe", "Batch", "PayPal"])
    for (name, note) in Vendors.wireNotes {
      XCTAssertTrue(words.contains(note.split(whereSeparator: \.isWhitespace).joined(separator: " ")), name)
    }
    XCTAssertTrue(words.contains("encrypts every request body"), "Batch: why it is not decoded")
    XCTAssertTrue(words.contains("The mobile SDKs' FPTI events are decoded"), "FPTI: decoded")
  }

  /// The proxy's options for self-hosted collectors are the registry's: one per vendor that can
  /// be self-hosted, with its descriptor's words, and named where the help says what is decrypted.
  func testProxyOptionsForSelfHostedCollectorsAreTheRegistrys() throws {
    let usage = try BuiltProducts.run(["proxy", "run", "--help"]).output
    let words = usage.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    let registry = Vendors.selfHosted.map { "--" + $0.hosting.option }
    XCTAssertEqual(registry, ["--rudderstack-host", "--posthog-host", "--snowplow-collector"])
    for (vendor, hosting) in Vendors.selfHosted {
      XCTAssertTrue(words.contains("--\(hosting.option) <\(hosting.option)>"), "\(vendor.id): no option")
      XCTAssertTrue(words.contains("\(hosting.host) to intercept (repeatable)."), "\(vendor.id): its help")
    }
    XCTAssertTrue(words.contains("added with \(registry.joined(separator: ", ")) and --intercept"), usage)
    let options = words.components(separatedBy: " --").compactMap { option in
      option.hasSuffix("to intercept (repeatable).")
        ? option.split(separator: " ").first.map { "--\($0)" } : nil
    }
    XCTAssertEqual(options, registry, "the options adding a vendor's hosts to intercept")
  }

  /// A source showing each evidence key of the registry's import formats, the smallest that does.
  static let evidenceSources: [String: String] = [
    "tracking_plans[]": #"{"tracking_plans": []}"#,
    "rules.events": #"{"rules": {"events": [], "global": {}}}"#,
    "rules.global": #"{"rules": {"global": {}}}"#,
    "rules.identify": #"{"rules": {"identify": {}}}"#,
    "[].jsonSchema": #"[{"jsonSchema": {}}]"#,
    "rules[].jsonSchema": #"{"rules": [{"jsonSchema": {}}]}"#,
    "data.rules[]": #"{"data": {"rules": []}}"#,
    "rules_json_file": #"{"global": {}, "identify": {}}"#,
    "data_plan_versions": #"{"data_plan_versions": []}"#,
    "version_document": #"{"version_document": {}}"#,
    "data_points[]": #"{"data_points": []}"#,
    "self.vendor": #"{"self": {"vendor": "com.example", "name": "e"}}"#,
    "self.name": #"{"self": {"vendor": "com.example", "name": "e"}}"#,
    "version rudder/…": #"{"version": "rudder/v0.1", "kind": "events"}"#,
    "kind": #"{"version": "rudder/v0.1", "kind": "events"}"#,
    "rules.events[].rules": #"{"id": "tp_1", "rules": {"events": [{"name": "E", "rules": {}}]}}"#,
  ]

  /// The keys the registry says tell each import format are the ones its importer's evidence
  /// names, and every evidence an importer gives for these sources names one of its format's keys.
  func testImportEvidenceNamesTheRegistrysKeys() throws {
    for vendor in Vendors.all {
      for format in vendor.importFormats {
        let keys = format.evidenceKeys
        for key in keys {
          guard let text = Self.evidenceSources[key] else {
            XCTFail("\(format.name): no source shows \(key)")
            continue
          }
          let found = FormatEvidence.candidates(try DocumentReader.parse(text, file: "source.json"))
          let own = found.filter { $0.format.rawValue == format.name }
          let shown = key.split(separator: "…").first.map(String.init) ?? key
          XCTAssertTrue(own.contains { $0.reason.contains(shown) }, "\(format.name) \(key): \(found)")
          for evidence in found {
            let named = Vendors.importFormat(named: evidence.format.rawValue)?.format.evidenceKeys ?? []
            XCTAssertTrue(
              named.contains {
                evidence.reason.contains($0.split(separator: "…").first.map(String.init) ?? $0)
              },
              "\(evidence) names none of \(evidence.format.rawValue)'s registry keys")
          }
        }
      }
    }
  }

  func testPlanImportListsTheRegistrysFormats() throws {
    let page = try BuiltProducts.run(["help", "qa"]).output
    let formats = tableKeys(page, under: "PLAN IMPORT --FROM")
    XCTAssertEqual(formats, ImportFormat.allCases.map(\.rawValue))
    let registry = Vendors.all.flatMap { vendor in vendor.importFormats.map { (vendor, $0) } }
    for (vendor, format) in registry {
      let known = ImportFormat(rawValue: format.name)
      XCTAssertNotNil(known, "\(vendor.id)'s \(format.name) is no --from format")
      XCTAssertEqual(known?.defaultProvider, vendor.id.rawValue)
      XCTAssertEqual(known?.displayName, format.displayName)
      XCTAssertTrue(page.contains(format.summary), format.summary)
    }
    // Plain JSON Schema is the one format of no vendor (it names none: --provider says).
    XCTAssertEqual(Set(formats).subtracting(registry.map(\.1.name)), ["jsonschema"])
  }
}
