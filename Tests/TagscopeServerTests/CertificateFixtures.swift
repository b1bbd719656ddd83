import Crypto
import Foundation
import SwiftASN1
import X509
import XCTest

@testable import TagscopeServer

/// Certificates the CA tests plant in a CA directory: roots and leaves with one thing wrong.
enum CertificateFixtures {
  /// The P-256 key stored in `file`.
  static func key(in file: URL) throws -> P256.Signing.PrivateKey {
    try P256.Signing.PrivateKey(pemRepresentation: String(contentsOf: file, encoding: .utf8))
  }

  /// A root (self-signed by `signer`, `key`'s public key) with `extensions`, valid from `from` to
  /// `until` days from now.
  static func root(
    key: P256.Signing.PrivateKey, signer: P256.Signing.PrivateKey? = nil, extensions: Certificate.Extensions,
    from: Double = -1, until: Double = 365
  ) throws -> String {
    let subject = try DistinguishedName { CommonName("Planted Root") }
    let certificate = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
      notValidBefore: Date().addingTimeInterval(from * 86_400),
      notValidAfter: Date().addingTimeInterval(until * 86_400), issuer: subject, subject: subject,
      signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
      issuerPrivateKey: Certificate.PrivateKey(signer ?? key))
    return try certificate.serializeAsPEM().pemString + "\n"
  }

  /// A root's usual extensions: a CA that may sign certificates.
  static func authorityExtensions() throws -> Certificate.Extensions {
    try Certificate.Extensions {
      Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
      Critical(KeyUsage(keyCertSign: true, cRLSign: true))
    }
  }

  /// A leaf for `host` issued under `authority`'s subject, signed by `signer`, carrying
  /// `leafKey`'s public key, valid from `from` to `until` days from now.
  static func leaf(
    host: String, authority: CertificateAuthority, signer: P256.Signing.PrivateKey,
    leafKey: P256.Signing.PrivateKey, from: Double = -1, until: Double = 300
  ) throws -> String {
    let extensions = try Certificate.Extensions {
      Critical(BasicConstraints.notCertificateAuthority)
      try ExtendedKeyUsage([.serverAuth])
      SubjectAlternativeNames([.dnsName(host)])
    }
    let certificate = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(),
      publicKey: Certificate.PublicKey(leafKey.publicKey),
      notValidBefore: Date().addingTimeInterval(from * 86_400),
      notValidAfter: Date().addingTimeInterval(until * 86_400), issuer: authority.certificate.subject,
      subject: try DistinguishedName { CommonName(host) }, signatureAlgorithm: .ecdsaWithSHA256,
      extensions: extensions, issuerPrivateKey: Certificate.PrivateKey(signer))
    return try certificate.serializeAsPEM().pemString + "\n"
  }

  /// Asserts that `leaf` is `authority`'s, for exactly `name`, valid now, its key the one it carries.
  static func assertGenuine(
    _ leaf: CertificateAuthority.Leaf, of authority: CertificateAuthority, naming name: GeneralName,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let certificate = try Certificate(pemEncoded: leaf.certificatePEM)
    XCTAssertEqual(certificate.issuer, authority.certificate.subject, file: file, line: line)
    XCTAssertTrue(
      authority.certificate.publicKey.isValidSignature(certificate.signature, for: certificate),
      "not signed by the root", file: file, line: line)
    XCTAssertEqual(
      try certificate.extensions.subjectAlternativeNames.map(Array.init), [name], file: file, line: line)
    XCTAssertTrue(
      certificate.notValidBefore <= Date() && Date() < certificate.notValidAfter, file: file, line: line)
    let key = try P256.Signing.PrivateKey(pemRepresentation: leaf.privateKeyPEM)
    XCTAssertEqual(certificate.publicKey, Certificate.PublicKey(key.publicKey), file: file, line: line)
  }

  /// Whether `file` is a regular file (not a link), without following it.
  static func isRegularFile(_ file: URL) -> Bool {
    (try? FileManager.default.attributesOfItem(atPath: file.path)[.type] as? FileAttributeType)
      == .typeRegular
  }
}
