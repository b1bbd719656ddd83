import Crypto
import Foundation
import NIOConcurrencyHelpers
import SwiftASN1
import X509

/// The proxy's own certificate authority: a P-256 key and a self-signed root kept in one directory
/// of the user's (`ca.pem`, `ca-key.pem` readable by the owner only), created on first use, and the
/// leaf certificates it mints for the hosts the proxy intercepts, cached in `hosts/`.
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

  /// Opens the authority in `directory`, creating the directory (owner only), the key and the root
  /// certificate the first time; `name` goes into the root's subject.
  public init(directory: URL, name: String = "Tagscope Proxy CA") throws {
    self.directory = directory
    let manager = FileManager.default
    do {
      try manager.createDirectory(
        at: directory.appendingPathComponent("hosts"), withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
      try manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
    } catch {
      throw Failure(
        description: "\(directory.path): cannot create the CA directory (\(error.localizedDescription))")
    }
    let key = try Self.loadOrCreateKey(at: directory.appendingPathComponent("ca-key.pem"))
    keyBytes = key.rawRepresentation
    leafKeyBytes = try Self.loadOrCreateKey(at: directory.appendingPathComponent("leaf-key.pem"))
      .rawRepresentation
    let certificateFile = directory.appendingPathComponent("ca.pem")
    if let existing = try? String(contentsOf: certificateFile, encoding: .utf8) {
      do {
        let loaded = try Certificate(pemEncoded: existing)
        guard loaded.publicKey == Certificate.PublicKey(key.publicKey) else {
          throw Failure(description: "\(certificateFile.path): not the certificate of ca-key.pem")
        }
        certificate = loaded
        certificatePEM = existing
        return
      } catch let failure as Failure {
        throw failure
      } catch {
        throw Failure(description: "\(certificateFile.path): not a PEM certificate (\(error))")
      }
    }
    let root = try Self.makeRoot(key: key, name: name)
    let pem = try root.serializeAsPEM().pemString + "\n"
    try Self.write(pem, to: certificateFile, permissions: 0o644)
    // Another process may have written its own first: the one on disk wins.
    let onDisk = (try? String(contentsOf: certificateFile, encoding: .utf8)) ?? pem
    certificate = (try? Certificate(pemEncoded: onDisk)) ?? root
    certificatePEM = onDisk
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

  /// The leaf for `host`, minted (and cached on disk) on first use.
  public func leaf(for host: String) throws -> Leaf {
    let host = host.lowercased()
    if let cached = leaves.withLockedValue({ $0[host] }) { return cached }
    let file = directory.appendingPathComponent("hosts").appendingPathComponent(Self.fileName(for: host))
    let keyPEM = leafKey.pemRepresentation
    if let pem = try? String(contentsOf: file, encoding: .utf8),
      let existing = try? Certificate(pemEncoded: pem),
      existing.issuer == certificate.subject, existing.notValidAfter > Date().addingTimeInterval(86_400)
    {
      let leaf = Leaf(certificatePEM: pem, privateKeyPEM: keyPEM)
      leaves.withLockedValue { $0[host] = leaf }
      return leaf
    }
    let minted = try mint(hosts: [host])
    try Self.write(minted.certificatePEM, to: file, permissions: 0o644)
    leaves.withLockedValue { $0[host] = minted }
    return minted
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
      notValidBefore: now.addingTimeInterval(-3_600), notValidAfter: now.addingTimeInterval(397 * 86_400),
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

  private static func makeRoot(key: P256.Signing.PrivateKey, name: String) throws -> Certificate {
    let now = Date()
    let host = ProcessInfo.processInfo.hostName
    let subject = try DistinguishedName {
      OrganizationName("Tagscope")
      CommonName("\(name) (\(host))")
    }
    let extensions = try Certificate.Extensions {
      Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
      Critical(KeyUsage(keyCertSign: true, cRLSign: true))
      SubjectKeyIdentifier(hash: Certificate.PublicKey(key.publicKey))
    }
    return try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
      notValidBefore: now.addingTimeInterval(-86_400),
      notValidAfter: now.addingTimeInterval(10 * 365 * 86_400),
      issuer: subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
      issuerPrivateKey: Certificate.PrivateKey(key))
  }

  private static func loadOrCreateKey(at file: URL) throws -> P256.Signing.PrivateKey {
    if let pem = try? String(contentsOf: file, encoding: .utf8) {
      do { return try P256.Signing.PrivateKey(pemRepresentation: pem) } catch {
        throw Failure(description: "\(file.path): not a P-256 private key in PEM (\(error))")
      }
    }
    let key = P256.Signing.PrivateKey()
    try write(key.pemRepresentation + "\n", to: file, permissions: 0o600)
    // Another process may have written its own first: the one on disk wins.
    if let pem = try? String(contentsOf: file, encoding: .utf8),
      let onDisk = try? P256.Signing.PrivateKey(pemRepresentation: pem)
    {
      return onDisk
    }
    return key
  }

  /// Writes a new file with `permissions` from its creation on; an existing file is left alone.
  private static func write(_ text: String, to file: URL, permissions: Int) throws {
    let temporary = file.path + ".new-\(ProcessInfo.processInfo.processIdentifier)"
    let created = FileManager.default.createFile(
      atPath: temporary, contents: Data(text.utf8), attributes: [.posixPermissions: permissions])
    guard created else { throw Failure(description: "\(file.path): cannot write") }
    // link(2) fails if the name exists: the first writer's file stays.
    _ = temporary.withCString { from in file.path.withCString { to in link(from, to) } }
    unlink(temporary)
    guard FileManager.default.fileExists(atPath: file.path) else {
      throw Failure(description: "\(file.path): cannot write")
    }
  }

  private static func generalName(_ host: String) -> GeneralName {
    if let address = addressBytes(host) { return .ipAddress(ASN1OctetString(contentBytes: address[...])) }
    return .dnsName(host)
  }

  /// A host's leaf file name: the host itself when it is a plain DNS name (it always is after the
  /// proxy's checks), otherwise its characters outside `[a-z0-9.-]` replaced.
  static func fileName(for host: String) -> String {
    let safe = host.map { character -> Character in
      character.isASCII && (character.isLetter || character.isNumber || character == "." || character == "-")
        ? character : "_"
    }
    return String(safe).trimmingCharacters(in: CharacterSet(charactersIn: ".")) + ".pem"
  }
}

/// The bytes of an IPv4 or IPv6 address written in text, or `nil` for a host name.
private func addressBytes(_ text: String) -> [UInt8]? {
  var v4 = in_addr()
  if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
  var v6 = in6_addr()
  let trimmed = text.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
  if inet_pton(AF_INET6, trimmed, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
  return nil
}
