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

  func testWherePropertiesSitIsTheRegistrysWords() throws {
    let places = Vendors.propertiesPlaces()
    XCTAssertTrue(places.contains("`event_properties` for Amplitude"), places)
    XCTAssertTrue(places.contains("the parameters themselves for Mixpanel"), places)
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
