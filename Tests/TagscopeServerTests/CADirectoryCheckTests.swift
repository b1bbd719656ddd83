import Crypto
import Foundation
import TagscopeTestSupport
import X509
import XCTest

@testable import TagscopeServer

/// What the proxy's CA refuses to trust in its directory (issue 42, item 5): each refusal names
/// the file and the fix, and what it creates is the owner's only.
final class CADirectoryCheckTests: XCTestCase {
  private var temporary: TemporaryDirectory!
  private var folder: URL { temporary.file("ca") }
  private func file(_ name: String) -> URL { folder.appendingPathComponent(name) }

  override func setUpWithError() throws { temporary = try TemporaryDirectory() }
  override func tearDown() { temporary = nil }

  /// Opening the authority fails, the message naming `file` and containing `words`.
  private func assertRefused(
    _ file: URL, _ words: String, line: UInt = #line
  ) {
    XCTAssertThrowsError(try CertificateAuthority(directory: folder), line: line) { error in
      let message = "\(error)"
      XCTAssertTrue(message.contains(file.path), message, line: line)
      XCTAssertTrue(message.contains(words), message, line: line)
    }
  }

  private func permissions(_ file: URL) throws -> Int? {
    (try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)?.intValue
  }

  func testNewFilesAreTheOwnersOnly() throws {
    _ = try CertificateAuthority(directory: folder)
    XCTAssertEqual(try permissions(folder), 0o700)
    XCTAssertEqual(try permissions(file("hosts")), 0o700)
    XCTAssertEqual(try permissions(file("ca-key.pem")), 0o600)
    XCTAssertEqual(try permissions(file("leaf-key.pem")), 0o600)
    XCTAssertEqual(try permissions(file("ca.pem")), 0o644)
  }

  // MARK: Private keys

  func testAPrivateKeyOthersMayReadIsRefused() throws {
    _ = try CertificateAuthority(directory: folder)
    for (name, mode) in [
      ("ca-key.pem", 0o644), ("ca-key.pem", 0o640), ("leaf-key.pem", 0o604), ("ca-key.pem", 0o620),
    ] {
      XCTAssertEqual(chmod(file(name).path, mode_t(mode)), 0)
      assertRefused(file(name), "chmod 600 \(file(name).path)")
      XCTAssertEqual(chmod(file(name).path, 0o600), 0)
    }
    XCTAssertNoThrow(try CertificateAuthority(directory: folder))
  }

  func testAPrivateKeyThatIsALinkIsRefused() throws {
    _ = try CertificateAuthority(directory: folder)
    for name in ["ca-key.pem", "leaf-key.pem"] {
      let elsewhere = temporary.file(name)
      try FileManager.default.moveItem(at: file(name), to: elsewhere)
      try FileManager.default.createSymbolicLink(at: file(name), withDestinationURL: elsewhere)
      assertRefused(file(name), "is a symbolic link")
      try FileManager.default.removeItem(at: file(name))
      try FileManager.default.moveItem(at: elsewhere, to: file(name))
    }
  }

  /// A root whose key went missing is refused, and no key is made in its place (it could never
  /// match the root, and would be in the way of the real one put back).
  func testAMissingKeyBesideItsRootIsRefusedNotMade() throws {
    let old = try CertificateAuthority(directory: folder).leaf(for: "api.segment.io")
    try FileManager.default.removeItem(at: file("ca-key.pem"))
    assertRefused(file("ca-key.pem"), "missing, while ca.pem is there")
    XCTAssertFalse(FileManager.default.fileExists(atPath: file("ca-key.pem").path))
    // The fix the message gives works; the old root's leaf is minted again.
    try FileManager.default.removeItem(at: file("ca.pem"))
    try FileManager.default.removeItem(at: file("leaf-key.pem"))
    let authority = try CertificateAuthority(directory: folder)
    let leaf = try authority.leaf(for: "api.segment.io")
    try CertificateFixtures.assertGenuine(leaf, of: authority, naming: .dnsName("api.segment.io"))
    XCTAssertNotEqual(leaf.certificatePEM, old.certificatePEM)
  }

  // MARK: The root's file

  func testARootThatIsNotARegularFileIsRefused() throws {
    _ = try CertificateAuthority(directory: folder)
    let root = file("ca.pem")
    let copy = temporary.file("ca.pem")
    try FileManager.default.moveItem(at: root, to: copy)

    try FileManager.default.createSymbolicLink(at: root, withDestinationURL: copy)
    assertRefused(root, "is a symbolic link")
    try FileManager.default.removeItem(at: root)

    XCTAssertEqual(mkfifo(root.path, 0o644), 0)
    assertRefused(root, "is a FIFO")
    try FileManager.default.removeItem(at: root)

    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: false)
    assertRefused(root, "is a directory")
    try FileManager.default.removeItem(at: root)

    try bindSocket(at: root)
    assertRefused(root, "is a socket")
    try FileManager.default.removeItem(at: root)

    let hosts = file("hosts")
    try FileManager.default.moveItem(at: copy, to: root)
    try FileManager.default.removeItem(at: hosts)
    try FileManager.default.createSymbolicLink(at: hosts, withDestinationURL: temporary.url)
    assertRefused(hosts, "is a symbolic link")
    try FileManager.default.removeItem(at: hosts)
    try "".write(to: hosts, atomically: false, encoding: .utf8)
    assertRefused(hosts, "is a regular file, not a directory")
  }

  /// Leaves a Unix socket's file at `file`.
  private func bindSocket(at file: URL) throws {
    #if canImport(Glibc)
      let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    XCTAssertGreaterThanOrEqual(descriptor, 0)
    defer { close(descriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let path = Array(file.path.utf8)
    XCTAssertLessThan(path.count, MemoryLayout.size(ofValue: address.sun_path))
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      buffer.copyBytes(from: path)
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    XCTAssertEqual(bound, 0)
  }

  /// The Android copy of the root is the current root's: a copy of an earlier root of the same
  /// subject is replaced, a link in its place is replaced not followed, a linked folder refused.
  func testTheAndroidCopyIsTheCurrentRoots() throws {
    let earlier = try CertificateAuthority(directory: folder)
    try ProxyTrustGuide.writeAndroidCopy(of: earlier)
    for name in ["ca.pem", "ca-key.pem"] { try FileManager.default.removeItem(at: file(name)) }
    let authority = try CertificateAuthority(directory: folder)
    XCTAssertEqual(authority.androidCopyFile, earlier.androidCopyFile)
    try ProxyTrustGuide.writeAndroidCopy(of: authority)
    XCTAssertEqual(
      try String(contentsOf: authority.androidCopyFile, encoding: .utf8), authority.certificatePEM)

    let outside = temporary.file("outside.pem")
    try earlier.certificatePEM.write(to: outside, atomically: false, encoding: .utf8)
    try FileManager.default.removeItem(at: authority.androidCopyFile)
    try FileManager.default.createSymbolicLink(at: authority.androidCopyFile, withDestinationURL: outside)
    try ProxyTrustGuide.writeAndroidCopy(of: authority)
    XCTAssertTrue(CertificateFixtures.isRegularFile(authority.androidCopyFile))
    XCTAssertEqual(try String(contentsOf: outside, encoding: .utf8), earlier.certificatePEM)

    let android = authority.androidCopyFile.deletingLastPathComponent()
    try FileManager.default.removeItem(at: android)
    try FileManager.default.createSymbolicLink(at: android, withDestinationURL: temporary.url)
    XCTAssertThrowsError(try ProxyTrustGuide.writeAndroidCopy(of: authority)) { error in
      XCTAssertTrue("\(error)".contains("\(android.path): is a symbolic link"), "\(error)")
    }
  }

  // MARK: The root's content

  func testARootThatIsNotAUsableCAOfTheKeyIsRefused() throws {
    _ = try CertificateAuthority(directory: folder)
    let key = try CertificateFixtures.key(in: file("ca-key.pem"))
    let other = P256.Signing.PrivateKey()
    let roots: [(String, String)] = [
      (
        "not a CA certificate",
        try CertificateFixtures.root(
          key: key,
          extensions: try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(keyCertSign: true))
          })
      ),
      ("not a CA certificate", try CertificateFixtures.root(key: key, extensions: Certificate.Extensions())),
      (
        "may not sign certificates",
        try CertificateFixtures.root(
          key: key,
          extensions: try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            Critical(KeyUsage(digitalSignature: true, cRLSign: true))
          })
      ),
      (
        "not the certificate of ca-key.pem",
        try CertificateFixtures.root(key: other, extensions: try CertificateFixtures.authorityExtensions())
      ),
      (
        "does not verify",
        try CertificateFixtures.root(
          key: key, signer: other, extensions: try CertificateFixtures.authorityExtensions())
      ),
      (
        "expired",
        try CertificateFixtures.root(
          key: key, extensions: try CertificateFixtures.authorityExtensions(), from: -30, until: -1)
      ),
      (
        "not valid before",
        try CertificateFixtures.root(
          key: key, extensions: try CertificateFixtures.authorityExtensions(), from: 1, until: 30)
      ),
      ("not a PEM certificate", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"),
    ]
    for (words, pem) in roots {
      try pem.write(to: file("ca.pem"), atomically: false, encoding: .utf8)
      assertRefused(file("ca.pem"), words)
      assertRefused(file("ca.pem"), "remove ca.pem")
    }
    // The fix the message gives works: a new root is made.
    try FileManager.default.removeItem(at: file("ca.pem"))
    XCTAssertNoThrow(try CertificateAuthority(directory: folder))
    // A planted root that is a sound CA of the key is the user's own choice, and kept.
    let sound = try CertificateFixtures.root(
      key: key, extensions: try CertificateFixtures.authorityExtensions())
    try sound.write(to: file("ca.pem"), atomically: false, encoding: .utf8)
    XCTAssertEqual(try CertificateAuthority(directory: folder).certificatePEM, sound)
  }
}
