import Crypto
import Foundation
import X509

/// What the certificate authority trusts in its directory, checked on every start: the
/// directory and its `hosts/` folder, the private keys (regular files the owner alone may read)
/// and the root (a regular file, a CA that may sign certificates, of `ca-key.pem`, valid now).
/// Anything else is refused with the file's name and the fix; missing files are created.
enum CADirectoryCheck {
  private typealias Failure = CertificateAuthority.Failure

  /// Creates `directory` (owner only) and its `hosts/` folder when missing; a `hosts` that is not
  /// a directory of its own (a link, a file) is refused.
  static func prepare(_ directory: URL) throws {
    do {
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
    } catch {
      throw Failure(
        description:
          "\(directory.path): cannot create the CA directory (\(SystemErrorWords.reasonMakingFolder(error)))")
    }
    let hosts = directory.appendingPathComponent("hosts")
    if CAFiles.kind(of: hosts) == .missing, mkdir(hosts.path, 0o700) != 0, errno != EEXIST {
      throw Failure(description: "\(hosts.path): cannot create (\(String(cString: strerror(errno))))")
    }
    let kind = CAFiles.kind(of: hosts)
    guard kind == .directory else {
      throw Failure(
        description:
          "\(hosts.path): is \(kind), not a directory; remove it (the leaves it caches are made again)")
    }
  }

  /// The P-256 key in `file`, created (mode 0600) the first time; when `certificate` (the one it
  /// signs) exists already, a missing key is refused, not made: the root could never match it.
  static func privateKey(at file: URL, of certificate: URL? = nil) throws -> P256.Signing.PrivateKey {
    if let certificate, CAFiles.kind(of: file) == .missing, CAFiles.kind(of: certificate) != .missing {
      throw Failure(
        description:
          "\(file.path): missing, while \(certificate.lastPathComponent) is there; put its key back, or remove \(certificate.lastPathComponent) to make a new CA (devices must then trust it again)"
      )
    }
    let fix =
      "a private key must be a regular file of the CA directory: put the key itself there, or remove \(file.lastPathComponent) to make a new CA"
    if let existing = try CAFiles.read(file, fix: fix) { return try key(existing, in: file) }
    try CAFiles.create(P256.Signing.PrivateKey().pemRepresentation + "\n", at: file, permissions: 0o600)
    // Another process may have written its own first: the one on disk wins.
    guard let onDisk = try CAFiles.read(file, fix: fix) else {
      throw Failure(description: "\(file.path): removed while being created")
    }
    return try key(onDisk, in: file)
  }

  private static func key(_ contents: CAFiles.Contents, in file: URL) throws -> P256.Signing.PrivateKey {
    guard contents.permissions & 0o077 == 0 else {
      let mode = String(contents.permissions, radix: 8)
      throw Failure(
        description:
          "\(file.path): mode \(mode) lets other users read or change the private key; run chmod 600 \(file.path)"
      )
    }
    do { return try P256.Signing.PrivateKey(pemRepresentation: contents.text) } catch {
      throw Failure(description: "\(file.path): not a P-256 private key in PEM (\(error))")
    }
  }

  /// The root in `file` and its PEM, made from `key` (subject `name`) the first time; a root that
  /// is not a regular file, not a CA, not `key`'s, or not valid at `now` is refused.
  static func root(
    at file: URL, key: P256.Signing.PrivateKey, name: String, now: Date
  ) throws -> (certificate: Certificate, pem: String) {
    let fix = "remove \(file.lastPathComponent) and a new root is made (devices must then trust it again)"
    if let existing = try CAFiles.read(file, fix: fix) {
      return (try check(existing.text, in: file, key: key, now: now, fix: fix), existing.text)
    }
    let made = try makeRoot(key: key, name: name, now: now)
    try CAFiles.create(try made.serializeAsPEM().pemString + "\n", at: file, permissions: 0o644)
    // Another process may have written its own first: the one on disk wins.
    guard let onDisk = try CAFiles.read(file, fix: fix) else {
      throw Failure(description: "\(file.path): removed while being created")
    }
    return (try check(onDisk.text, in: file, key: key, now: now, fix: fix), onDisk.text)
  }

  private static func check(
    _ pem: String, in file: URL, key: P256.Signing.PrivateKey, now: Date, fix: String
  ) throws -> Certificate {
    let root: Certificate
    do { root = try Certificate(pemEncoded: pem) } catch {
      throw Failure(description: "\(file.path): not a PEM certificate (\(error)); \(fix)")
    }
    let problem: String?
    if root.publicKey != Certificate.PublicKey(key.publicKey) {
      problem = "not the certificate of ca-key.pem (their keys differ)"
    } else if !isAuthority(root) {
      problem = "not a CA certificate (no basicConstraints CA:TRUE)"
    } else if (try? root.extensions.keyUsage)?.keyCertSign != true {
      problem = "may not sign certificates (no keyUsage keyCertSign)"
    } else if root.notValidAfter <= now {
      problem = "expired on \(root.notValidAfter)"
    } else if root.notValidBefore > now {
      problem = "not valid before \(root.notValidBefore)"
    } else if root.issuer != root.subject || !root.publicKey.isValidSignature(root.signature, for: root) {
      problem = "not self-signed by ca-key.pem (its signature does not verify)"
    } else {
      problem = nil
    }
    if let problem { throw Failure(description: "\(file.path): \(problem); \(fix)") }
    return root
  }

  /// Whether `root` says it is a CA (basicConstraints CA:TRUE).
  private static func isAuthority(_ root: Certificate) -> Bool {
    guard case .isCertificateAuthority? = try? root.extensions.basicConstraints else { return false }
    return true
  }

  private static func makeRoot(key: P256.Signing.PrivateKey, name: String, now: Date) throws -> Certificate {
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
}
