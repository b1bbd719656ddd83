import Crypto
import Foundation
import X509

/// The leaves minted for intercepted hosts, cached in `hosts/` one file per exact host name, so
/// that a restart serves the same ones.
///
/// Two different names never share a file (``fileName(for:)`` is injective), and a cached leaf is
/// served only when the current root signed it for exactly that name, it is valid now and for a
/// day more, and it carries the leaf key; anything else is minted again and replaces the file.
struct LeafCertificateCache {
  /// The `hosts/` folder.
  let folder: URL

  /// `host` as one leaf names it: an IP address written canonically (IPv6 with or without
  /// brackets), or a DNS name as the proxy's one host rule (``HostName``) takes it, lowercased and
  /// without its trailing dot; or why a certificate cannot name it.
  static func canonicalHost(_ host: String) -> Result<String, HostProblem> {
    if let address = IPAddressText(host) { return .success(address.canonical) }
    return HostName.check(Substring(host), bracketed: false)
  }

  /// The file of `host`'s leaf: letters, digits, `-`, `_` and `.` (but a leading one) as they
  /// are, every other byte as `%XX`, the empty name `%`: reversible, so two names never share a
  /// file. A name too long for a file becomes `%sha256-HEX` of it (no escape starts `%s`).
  static func fileName(for host: String) -> String {
    var name = ""
    for (offset, byte) in host.utf8.enumerated() {
      let plain =
        (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x5F
        || (byte == 0x2E && offset > 0)
      if plain {
        name.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        let hex = String(byte, radix: 16, uppercase: true)
        name += "%" + (hex.count == 1 ? "0" : "") + hex
      }
    }
    if name.isEmpty { return "%.pem" }
    guard name.utf8.count <= 200 else {
      let digest = SHA256.hash(data: Data(host.utf8)).map { String(format: "%02x", $0) }.joined()
      return "%sha256-\(digest).pem"
    }
    return name + ".pem"
  }

  /// The file that caches `host`'s leaf.
  func file(for host: String) -> URL { folder.appendingPathComponent(Self.fileName(for: host)) }

  /// The cached leaf of `host` (canonical) in PEM, when it is still the right one: signed by
  /// `root`, naming exactly `name`, valid from `now` to a day later, with `leafKey`'s public key.
  func cached(
    host: String, name: GeneralName, root: Certificate, leafKey: Certificate.PublicKey, now: Date
  ) -> String? {
    guard let contents = try? CAFiles.read(file(for: host), fix: ""),
      let leaf = try? Certificate(pemEncoded: contents.text),
      leaf.issuer == root.subject, root.publicKey.isValidSignature(leaf.signature, for: leaf),
      leaf.publicKey == leafKey,
      let names = try? leaf.extensions.subjectAlternativeNames, Array(names) == [name],
      leaf.notValidBefore <= now, leaf.notValidAfter > now.addingTimeInterval(86_400),
      let pem = try? leaf.serializeAsPEM().pemString
    else { return nil }
    return pem + "\n"
  }

  /// Stores `pem` as `host`'s leaf, replacing whatever was there at once.
  func store(_ pem: String, host: String) throws {
    try CAFiles.replace(pem, at: file(for: host), permissions: 0o644)
  }
}

/// An IPv4 or IPv6 address written in text (IPv6 possibly in brackets).
struct IPAddressText {
  /// The address's bytes (4 or 16).
  let bytes: [UInt8]
  /// The address as `inet_ntop` writes it.
  let canonical: String

  init?(_ text: String) {
    var v4 = in_addr()
    var v6 = in6_addr()
    let trimmed =
      text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
    let family: Int32
    if inet_pton(AF_INET, text, &v4) == 1 {
      family = AF_INET
      bytes = withUnsafeBytes(of: &v4) { Array($0) }
    } else if inet_pton(AF_INET6, trimmed, &v6) == 1 {
      family = AF_INET6
      bytes = withUnsafeBytes(of: &v6) { Array($0) }
    } else {
      return nil
    }
    var buffer = [CChar](repeating: 0, count: 64)
    let written = bytes.withUnsafeBytes { address in
      inet_ntop(family, address.baseAddress, &buffer, socklen_t(buffer.count))
    }
    guard written != nil else { return nil }
    canonical = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
