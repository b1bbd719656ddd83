import Crypto
import Foundation
import NIOConcurrencyHelpers
import SwiftASN1
import X509

/// The proxy's own certificate authority: a P-256 key and a self-signed root kept in one directory
/// of the user's (`ca.pem`, `ca-key.pem` and `leaf-key.pem` readable by the owner only), created on
/// first use and checked on every start, and the leaf certificates it mints for the hosts the proxy
/// intercepts, cached in `hosts/` one file per exact name and checked before each reuse.
///
/// Leaves follow what Apple and Android require of a TLS server certificate: the host as a subject
/// alternative name, `serverAuth` extended key usage, ECDSA with SHA-256, at most 397 days.
public final class CertificateAuthority: Sendable {
  /// The directory that holds the authority and its leaves; nothing is written outside it.
  public let directory: URL
  /// The root certificate, PEM.
  public let certificatePEM: String
  /// The root certificate.
  public let certificate: Certificate
  private let keyBytes: Data
  /// The key every leaf shares (one per directory, like the root's, generated on first use).
  private let leafKeyBytes: Data
  private let cache: LeafCertificateCache
  private let leaves = NIOLockedValueBox<[String: Leaf]>([:])

  /// A minted leaf: its certificate and key, PEM.
  public struct Leaf: Sendable {
    /// The certificate, PEM.
    public let certificatePEM: String
    /// The private key, PEM (PKCS #8).
    public let privateKeyPEM: String
  }

  /// What went wrong with the authority's directory.
  public struct Failure: Error, CustomStringConvertible {
    /// What, naming the file.
    public let description: String
  }

  /// Opens the authority in `directory`, creating the directory (owner only), the keys (mode 0600)
  /// and the root certificate the first time. What it finds there is checked first (see
  /// `CADirectoryCheck`): a key others may read, a link or FIFO in a file's place, a root that is
  /// not a CA, not of `ca-key.pem` or expired is refused, the message naming the file and the fix.
  /// `name` goes into a new root's subject.
  public init(directory: URL, name: String = "Tagscope Proxy CA") throws {
    self.directory = directory
    try CADirectoryCheck.prepare(directory)
    let key = try CADirectoryCheck.privateKey(
      at: directory.appendingPathComponent("ca-key.pem"), of: directory.appendingPathComponent("ca.pem"))
    keyBytes = key.rawRepresentation
    leafKeyBytes = try CADirectoryCheck.privateKey(at: directory.appendingPathComponent("leaf-key.pem"))
      .rawRepresentation
    (certificate, certificatePEM) = try CADirectoryCheck.root(
      at: directory.appendingPathComponent("ca.pem"), key: key, name: name, now: Date())
    cache = LeafCertificateCache(folder: directory.appendingPathComponent("hosts"))
  }

  /// The root's common name, as a device lists it among trusted certificates.
  public var commonName: String {
    for name in certificate.subject {
      for attribute in name where attribute.type == .RDNAttributeType.commonName {
        return attribute.value.description
      }
    }
    return "\(certificate.subject)"
  }

  /// The root certificate's file.
  public var certificateFile: URL { directory.appendingPathComponent("ca.pem") }

  /// The leaf for `requested` (a DNS name in any case, its trailing dot dropped, or an IP
  /// address), minted on first use and cached on disk under the exact name; a cached leaf the
  /// current root did not sign for exactly that name, or out of date, is minted again. A name no
  /// certificate can carry is refused, saying why.
  public func leaf(for requested: String) throws -> Leaf {
    let host: String
    switch LeafCertificateCache.canonicalHost(requested) {
    case .success(let name): host = name
    case .failure(let problem):
      throw Failure(description: "not a host name a certificate can name: \(problem)")
    }
    if let cached = leaves.withLockedValue({ $0[host] }) { return cached }
    let keyPEM = leafKey.pemRepresentation
    let name = Self.generalName(host)
    let leaf: Leaf
    if let pem = cache.cached(
      host: host, name: name, root: certificate, leafKey: Certificate.PublicKey(leafKey.publicKey),
      now: Date())
    {
      leaf = Leaf(certificatePEM: pem, privateKeyPEM: keyPEM)
    } else {
      leaf = try mint(hosts: [host])
      try cache.store(leaf.certificatePEM, host: host)
    }
    leaves.withLockedValue { $0[host] = leaf }
    return leaf
  }

  /// A leaf for all of `hosts` at once (not cached): the test vendor servers use one.
  public func mint(hosts: [String]) throws -> Leaf {
    let now = Date()
    let (key, leafKey) = (self.key, self.leafKey)
    let names = try DistinguishedName { CommonName(hosts.first ?? "localhost") }
    let extensions = try Certificate.Extensions {
      Critical(BasicConstraints.notCertificateAuthority)
      Critical(KeyUsage(digitalSignature: true))
      try ExtendedKeyUsage([.serverAuth])
      SubjectAlternativeNames(hosts.map(Self.generalName))
      SubjectKeyIdentifier(hash: Certificate.PublicKey(leafKey.publicKey))
      AuthorityKeyIdentifier(keyIdentifier: authorityKeyIdentifier)
    }
    let leaf = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(),
      publicKey: Certificate.PublicKey(leafKey.publicKey),
      notValidBefore: now.addingTimeInterval(-3_600),
      notValidAfter: min(now.addingTimeInterval(397 * 86_400), certificate.notValidAfter),
      issuer: certificate.subject, subject: names, signatureAlgorithm: .ecdsaWithSHA256,
      extensions: extensions, issuerPrivateKey: Certificate.PrivateKey(key))
    return Leaf(
      certificatePEM: try leaf.serializeAsPEM().pemString + "\n", privateKeyPEM: leafKey.pemRepresentation)
  }

  /// The root's DER bytes.
  public var certificateDER: [UInt8] {
    var serializer = DER.Serializer()
    try? serializer.serialize(certificate)
    return serializer.serializedBytes
  }

  /// The name Android gives the root in its system store (`/system/etc/security/cacerts/NAME`):
  /// OpenSSL's old subject hash (the first four bytes of the subject's DER MD5, little-endian) and `.0`.
  public var androidSystemFileName: String {
    var serializer = DER.Serializer()
    try? serializer.serialize(certificate.subject)
    let digest = Array(Insecure.MD5.hash(data: serializer.serializedBytes))
    let value = UInt32(digest[0]) | UInt32(digest[1]) << 8 | UInt32(digest[2]) << 16 | UInt32(digest[3]) << 24
    let hex = String(value, radix: 16)
    return String(repeating: "0", count: 8 - hex.count) + hex + ".0"
  }

  private var key: P256.Signing.PrivateKey {
    // The bytes came from a valid key.
    (try? P256.Signing.PrivateKey(rawRepresentation: keyBytes)) ?? P256.Signing.PrivateKey()
  }

  private var leafKey: P256.Signing.PrivateKey {
    (try? P256.Signing.PrivateKey(rawRepresentation: leafKeyBytes)) ?? P256.Signing.PrivateKey()
  }

  private var authorityKeyIdentifier: ArraySlice<UInt8> {
    SubjectKeyIdentifier(hash: Certificate.PublicKey(key.publicKey)).keyIdentifier
  }

  private static func generalName(_ host: String) -> GeneralName {
    if let address = IPAddressText(host) {
      return .ipAddress(ASN1OctetString(contentBytes: address.bytes[...]))
    }
    return .dnsName(host)
  }
}
