import Foundation
import TagscopeVendors
import XCTest

/// A vendor's id or alias is written as a string in at most two source files: its descriptor in
/// `Sources/TagscopeVendors` and, where it has one, its in-app provider's rules file. Everything
/// else names it through the registry (`Vendors.segment`, `Vendor.segment`).
final class QuotedVendorIDTests: XCTestCase {
  /// The repository, found from this file (`Tests/AnalyticsProvidersTests/…`).
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Files allowed to quote a word that is also a vendor id, and why.
  static let exceptions: [String: Set<String>] = [
    // Benchmarks build their inputs from literal SDK payloads and plans (explicit exception).
    "Sources/TagscopeBench/": ["*"],
    // A recording segment's number (`"segment": N`), no vendor.
    "Sources/TagscopeLive/QueryService.swift": ["segment"],
    "Sources/TagscopeServer/API/OpenAPIDocument.swift": ["segment"],
    // The `batch` member of Segment's and PostHog's bodies, no vendor.
    "Sources/TagscopeServer/SDK/SegmentEndpoint.swift": ["batch"],
    "Sources/TagscopeServer/SDK/PostHogEndpoint.swift": ["batch"],
    "Sources/TagscopeServer/SDK/PostHogEndpoint+Batch.swift": ["batch"],
    "Sources/TagscopeServer/HTTP/EndpointRouter.swift": ["batch"],
    "Sources/TagscopeServer/Capture/HARRequestRebuild.swift": ["batch"],
    // The `batch` member of the bodies their HAR export rebuilds (`Vendor.Rebuild`), no vendor.
    "Sources/TagscopeVendors/SegmentVendor.swift": ["batch"],
    "Sources/TagscopeVendors/PostHogVendor.swift": ["batch"],
    "Sources/TagscopeVendors/RudderStackVendor.swift": ["batch"],
    // The `batch` annotation an mParticle batch's first record keeps its batch's own fields in, no
    // vendor.
    "Sources/TagscopeServer/SDK/MParticleEndpoint.swift": ["batch"],
    "Sources/TagscopeVendors/MParticleVendor.swift": ["batch"],
    // The catalogue entry (a method) and output field a batch's own fields are checked by, no vendor.
    "Sources/TaggingPlan/CallCatalogue.swift": ["batch"],
  ]

  /// Every Swift file under `Sources/`, by its path from the repository.
  static func sources() throws -> [(path: String, text: String)] {
    let sources = root.appendingPathComponent("Sources")
    guard let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else {
      throw CocoaError(.fileNoSuchFile)
    }
    var files: [(path: String, text: String)] = []
    for case let url as URL in walker where url.pathExtension == "swift" {
      let path = String(url.path.dropFirst(root.path.count + 1))
      files.append((path, try String(contentsOf: url, encoding: .utf8)))
    }
    return files.sorted { $0.path < $1.path }
  }

  /// Where each quoted vendor id or alias is written outside its descriptor, its provider's rules
  /// file and the exceptions: `file:line: "id"`.
  static func strays() throws -> [String] {
    let files = try sources()
    var found: [String] = []
    for vendor in Vendors.all {
      let id = vendor.id.rawValue
      let descriptor = files.filter {
        $0.path.hasPrefix("Sources/TagscopeVendors/") && $0.text.contains("id: \"\(id)\"")
      }.map(\.path)
      let rules = files.filter {
        $0.path.hasSuffix("Rules.swift") && $0.text.contains("providerID: ProviderID = \"\(id)\"")
      }.map(\.path)
      XCTAssertEqual(descriptor.count, 1, "\(id): one descriptor file")
      for name in [id] + vendor.aliases {
        let allowed = Set(descriptor + (name == id ? rules : []))
        for file in files
        where quotes(file.text, name) && !allowed.contains(file.path)
          && !isException(file.path, name)
        {
          for (index, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
          where quotes(line, name) {
            found.append("\(file.path):\(index + 1): \"\(name)\"")
          }
        }
      }
    }
    return found
  }

  /// Whether `text` quotes `name` alone (`"segment"`) or as one of the ids a path two SDKs share
  /// joins with `|` (`"segment|mparticle"`).
  static func quotes<Text: StringProtocol>(_ text: Text, _ name: String) -> Bool {
    text.contains("\"\(name)\"") || text.contains("\"\(name)|") || text.contains("|\(name)\"")
  }

  static func isException(_ path: String, _ name: String) -> Bool {
    exceptions.contains { prefix, names in
      path.hasPrefix(prefix) && (names.contains("*") || names.contains(name))
    }
  }

  func testNoQuotedVendorIDOutsideItsDescriptorAndProvider() throws {
    let strays = try Self.strays()
    XCTAssertEqual(strays, [], "quoted vendor ids outside the registry:\n" + strays.joined(separator: "\n"))
  }

  func testTheScanSeesTheSources() throws {
    let files = try Self.sources()
    XCTAssertTrue(files.contains { $0.path == "Sources/TagscopeVendors/SegmentVendor.swift" })
    XCTAssertTrue(files.contains { $0.path == "Sources/SegmentProvider/SegmentRules.swift" })
  }
}
