import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import TagscopeBasics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a system call failed, in plain words (`connection refused`, `no such file or directory`,
/// `the client sent plain HTTP, not TLS`): what a message puts after the thing the user gave,
/// never the call's Swift signature, an errno number, a BoringSSL code or a source file.
public enum SystemErrorWords {
  /// The reason `error` gives, in plain words.
  public static func reason(_ error: any Error) -> String {
    switch error {
    case let error as IOError: return words(errno: error.errnoCode)
    case let error as NIOConnectionError:
      if let first = error.connectionErrors.first { return reason(first.error) }
      return "\(error.host) does not resolve to an address"
    case ChannelError.connectTimeout: return "no answer before the connect timeout"
    case SocketAddressError.unknown, is SocketAddressError.UnknownHost, is UnresolvedHost:
      return "the name does not resolve"
    case NIOSSLError.handshakeFailed(let boring): return tlsWords("\(boring)")
    case NIOSSLError.uncleanShutdown: return "the connection closed in the middle of TLS"
    case let error as BoringSSLError: return tlsWords("\(error)")
    case let error as POSIXError: return words(errno: error.code.rawValue)
    case let error as SystemError: return error.reason
    default: break
    }
    return posixCode(error).map { words(errno: $0) } ?? "\(error)"
  }

  /// Why a folder could not be made, in words: a file in its place or on its path said so.
  public static func reasonMakingFolder(_ error: any Error) -> String {
    switch posixCode(error) {
    case EEXIST?: "a file is there, not a folder"
    case ENOTDIR?: "a part of the path is a file, not a folder"
    default: reason(error)
    }
  }

  /// The POSIX error code of a Foundation error (its own, or the one beneath it).
  private static func posixCode(_ error: any Error) -> Int32? {
    let nsError = error as NSError
    if nsError.domain == NSPOSIXErrorDomain { return Int32(nsError.code) }
    guard let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? any Error else { return nil }
    let beneath = underlying as NSError
    return beneath.domain == NSPOSIXErrorDomain ? Int32(beneath.code) : nil
  }

  /// `strerror`'s words for `code`, starting in lower case.
  public static func words(errno code: Int32) -> String {
    SystemError.reason(errno: code)
  }

  /// The reason of a BoringSSL error (`…:OPENSSL_internal:HTTP_REQUEST at …`) in words.
  static func tlsWords(_ description: String) -> String {
    guard let marker = description.range(of: "OPENSSL_internal:") else { return "TLS failed" }
    let code = description[marker.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
    switch code {
    case "HTTP_REQUEST", "HTTPS_PROXY_REQUEST": return "the client sent plain HTTP, not TLS"
    case "TLSV1_ALERT_UNKNOWN_CA", "SSLV3_ALERT_BAD_CERTIFICATE", "SSLV3_ALERT_CERTIFICATE_UNKNOWN",
      "TLSV1_ALERT_ACCESS_DENIED", "TLSV1_ALERT_DECRYPT_ERROR":
      return "the client refused the proxy's certificate"
    case "CERTIFICATE_VERIFY_FAILED": return "the certificate could not be verified"
    case "WRONG_VERSION_NUMBER": return "not TLS, or a TLS version the other side does not speak"
    default: return "TLS failed (" + code.lowercased().replacingOccurrences(of: "_", with: " ") + ")"
    }
  }
}
