import Crypto
import Foundation
import TagscopeTestSupport
import X509
import XCTest

@testable import TagscopeServer

/// The proxy's cache of minted leaves (issue 42, item 5): one file per exact host name, and a
/// cached leaf served only when the current root signed it for that name, valid, with the leaf key.
final class CertificateCacheTests: XCTestCase {
  private var temporary: TemporaryDirectory!
  private var folder: URL { temporary.file("ca") }
  private let real = "www.google-analytics.com"

  override func setUpWithError() throws { temporary = try TemporaryDirectory() }
  override func tearDown() { temporary = nil }

  private func cachedFile(_ host: String) -> URL {
    folder.appendingPathComponent("hosts").appendingPathComponent(LeafCertificateCache.fileName(for: host))
  }

  // MARK: Poisoning by a near name

  /// `CONNECT .www.google-analytics.com:443` (and its siblings) mints nothing under the real
  /// host's name: after a restart the real host still gets a leaf naming exactly itself.
  func testDotAndPortVariantsAreRefusedAndNeverPoisonTheRealHost() throws {
    let authority = try CertificateAuthority(directory: folder)
    for variant in [
      ".\(real)", "..\(real)", "\(real)..", "www..google-analytics.com", "\(real):443", "\(real)/x",
      ".WWW.Google-Analytics.com", "", ".", "\(real)\u{0}", "\(real) ", "-www.google-analytics.com",
    ] {
      XCTAssertThrowsError(try authority.leaf(for: variant), variant) { error in
        XCTAssertTrue("\(error)".contains("not a host name"), "\(error)")
      }
    }
    let files = try FileManager.default.contentsOfDirectory(
      atPath: folder.appendingPathComponent("hosts").path)
    XCTAssertEqual(files, [])

    let restarted = try CertificateAuthority(directory: folder)
    let leaf = try restarted.leaf(for: "WWW.Google-Analytics.COM")
    try CertificateFixtures.assertGenuine(leaf, of: restarted, naming: .dnsName(real))
    // The fully qualified form is the same name: the same leaf.
    XCTAssertEqual(try restarted.leaf(for: "\(real).").certificatePEM, leaf.certificatePEM)
  }

  /// Names that used to share a file (`:` and `_`, an address and its other spellings) each keep
  /// their own leaf across a restart; different cases of one name share one.
  func testColonUnderscoreAndCaseVariantsKeepTheirOwnLeaves() throws {
    let loopback = GeneralName.ipAddress(
      .init(contentBytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]))
    let expected: [(String, GeneralName)] = [
      ("::1", loopback), ("__1", .dnsName("__1")), ("[0:0::1]", loopback),
      ("api_segment.io", .dnsName("api_segment.io")), ("api.segment.io", .dnsName("api.segment.io")),
      ("127.0.0.1", .ipAddress(.init(contentBytes: [127, 0, 0, 1]))),
      ("127_0_0_1", .dnsName("127_0_0_1")),
    ]
    let authority = try CertificateAuthority(directory: folder)
    for (host, name) in expected {
      try CertificateFixtures.assertGenuine(try authority.leaf(for: host), of: authority, naming: name)
    }
    XCTAssertEqual(
      try authority.leaf(for: "API.Segment.IO").certificatePEM,
      try authority.leaf(for: "api.segment.io").certificatePEM)

    let restarted = try CertificateAuthority(directory: folder)
    for (host, name) in expected.reversed() {
      try CertificateFixtures.assertGenuine(try restarted.leaf(for: host), of: restarted, naming: name)
    }
  }

  /// The file name encoding is reversible: no two names share a file, none is hidden or leaves
  /// the folder, none is too long for a file system.
  func testFileNamesAreDistinctPlainAndBounded() {
    let long = String(repeating: "a", count: 63)
    let hosts = [
      "a", ".a", "a.", "..a", "%2Ea", "a_b", "a:b", "a%3Ab", "A", "%41", "a/b", "a%2Fb", "..", ".", "",
      "\u{0}", "é", "%C3%A9", "%sha256-x", [long, long, long, long].joined(separator: "."),
      [long, long, long, long, "b"].joined(separator: "."), String(repeating: ":", count: 253),
      String(repeating: ";", count: 253),
    ]
    let names = hosts.map(LeafCertificateCache.fileName(for:))
    XCTAssertEqual(Set(names).count, hosts.count, "\(names)")
    for name in names {
      XCTAssertFalse(name.hasPrefix("."), name)
      XCTAssertFalse(name.contains("/") || name.contains("\u{0}"), name)
      XCTAssertLessThanOrEqual(name.utf8.count, 255, name)
    }
    XCTAssertEqual(LeafCertificateCache.fileName(for: "api.segment.io"), "api.segment.io.pem")
  }

  // MARK: Reuse and regeneration

  /// A second start serves the cached leaf as it is: the file is neither minted nor written again.
  func testCachedLeafIsReusedAcrossARestart() throws {
    let leaf = try CertificateAuthority(directory: folder).leaf(for: real)
    let file = cachedFile(real)
    let written = try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int

    let restarted = try CertificateAuthority(directory: folder)
    XCTAssertEqual(try restarted.leaf(for: real).certificatePEM, leaf.certificatePEM)
    XCTAssertEqual(
      try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int, written)
  }

  /// A cached leaf with any one thing wrong is minted again and its file replaced by the new leaf.
  func testTamperedCachedLeavesAreMintedAgain() throws {
    let authority = try CertificateAuthority(directory: folder)
    let caKey = try CertificateFixtures.key(in: folder.appendingPathComponent("ca-key.pem"))
    let leafKey = try CertificateFixtures.key(in: folder.appendingPathComponent("leaf-key.pem"))
    // Same subject, same name, another key: the old cache compared only the issuer's name.
    let foreign = try CertificateAuthority(directory: temporary.file("foreign"))
    let foreignKey = try CertificateFixtures.key(in: temporary.file("foreign/ca-key.pem"))
    let planted: [(String, String)] = [
      ("a foreign CA's leaf", try foreign.leaf(for: real).certificatePEM),
      (
        "signed by another key",
        try CertificateFixtures.leaf(host: real, authority: authority, signer: foreignKey, leafKey: leafKey)
      ),
      ("another host's leaf", try authority.mint(hosts: ["evil.test"]).certificatePEM),
      ("an extra name", try authority.mint(hosts: [real, "evil.test"]).certificatePEM),
      ("the leading-dot name", try authority.mint(hosts: [".\(real)"]).certificatePEM),
      (
        "another key",
        try CertificateFixtures.leaf(host: real, authority: authority, signer: caKey, leafKey: .init())
      ),
      (
        "expired",
        try CertificateFixtures.leaf(
          host: real, authority: authority, signer: caKey, leafKey: leafKey, from: -30, until: -1)
      ),
      (
        "not valid yet",
        try CertificateFixtures.leaf(
          host: real, authority: authority, signer: caKey, leafKey: leafKey, from: 1, until: 30)
      ),
      ("garbage", "-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n"),
      ("empty", ""),
    ]
    for (what, pem) in planted {
      try pem.write(to: cachedFile(real), atomically: false, encoding: .utf8)
      let restarted = try CertificateAuthority(directory: folder)
      let leaf = try restarted.leaf(for: real)
      try CertificateFixtures.assertGenuine(leaf, of: restarted, naming: .dnsName(real))
      XCTAssertNotEqual(leaf.certificatePEM, pem, what)
      XCTAssertEqual(try String(contentsOf: cachedFile(real), encoding: .utf8), leaf.certificatePEM, what)
    }
  }

  /// A link or a FIFO in a leaf's place is neither read nor written through: it is replaced by a
  /// file holding a new leaf, and the link's target is left as it was.
  func testLinkOrFIFOInALeafsPlaceIsReplacedNotFollowed() throws {
    let authority = try CertificateAuthority(directory: folder)
    let target = temporary.file("outside.pem")
    let genuine = try authority.leaf(for: real).certificatePEM
    try genuine.write(to: target, atomically: false, encoding: .utf8)
    let file = cachedFile(real)

    try FileManager.default.removeItem(at: file)
    try FileManager.default.createSymbolicLink(at: file, withDestinationURL: target)
    let afterLink = try CertificateAuthority(directory: folder).leaf(for: real)
    XCTAssertTrue(CertificateFixtures.isRegularFile(file))
    XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), afterLink.certificatePEM)
    XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), genuine)

    try FileManager.default.removeItem(at: file)
    XCTAssertEqual(mkfifo(file.path, 0o644), 0)
    let afterFIFO = try CertificateAuthority(directory: folder).leaf(for: real)
    XCTAssertTrue(CertificateFixtures.isRegularFile(file))
    XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), afterFIFO.certificatePEM)
  }
}
