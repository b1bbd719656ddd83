import Foundation

/// The certificate authority's files, read and written without following a symbolic link and
/// without blocking on a FIFO or a device: nothing planted in the CA directory is read or written
/// through.
enum CAFiles {
  /// What a path names, its last component not followed.
  enum Kind: Equatable, CustomStringConvertible {
    case missing, regular, symbolicLink, directory, fifo, device, socket

    var description: String {
      switch self {
      case .missing: "missing"
      case .regular: "a regular file"
      case .symbolicLink: "a symbolic link"
      case .directory: "a directory"
      case .fifo: "a FIFO"
      case .device: "a device"
      case .socket: "a socket"
      }
    }

    init(mode: mode_t) {
      switch mode & 0o170_000 {
      case 0o100_000: self = .regular
      case 0o120_000: self = .symbolicLink
      case 0o040_000: self = .directory
      case 0o010_000: self = .fifo
      case 0o140_000: self = .socket
      default: self = .device
      }
    }
  }

  /// A regular file's contents and permission bits.
  struct Contents {
    let text: String
    let permissions: mode_t
  }

  /// The largest file the directory holds (a PEM key or certificate is a few hundred bytes).
  static let maximumBytes = 1 << 16

  /// What `file` is, without following it.
  static func kind(of file: URL) -> Kind {
    var info = stat()
    guard lstat(file.path, &info) == 0 else { return .missing }
    return Kind(mode: info.st_mode)
  }

  /// The contents of `file`, or `nil` when there is none; a file that is not a regular one (a
  /// link, a FIFO, a directory, a device) or cannot be read is refused with `fix` in the message.
  static func read(_ file: URL, fix: String) throws -> Contents? {
    let kind = kind(of: file)
    if kind == .missing { return nil }
    guard kind == .regular else {
      throw CertificateAuthority.Failure(description: "\(file.path): is \(kind), not a regular file; \(fix)")
    }
    let descriptor = open(file.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw CertificateAuthority.Failure(description: "\(file.path): cannot open (\(errorText())); \(fix)")
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, Kind(mode: info.st_mode) == .regular else {
      throw CertificateAuthority.Failure(description: "\(file.path): is not a regular file; \(fix)")
    }
    guard Int(info.st_size) <= maximumBytes else {
      throw CertificateAuthority.Failure(
        description: "\(file.path): \(info.st_size) bytes, more than a PEM key or certificate; \(fix)")
    }
    var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
    var count = 0
    while count < bytes.count {
      let got = bytes.withUnsafeMutableBytes { buffer in
        Foundation.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
      }
      if got < 0, errno == EINTR { continue }
      guard got >= 0 else {
        throw CertificateAuthority.Failure(description: "\(file.path): cannot read (\(errorText())); \(fix)")
      }
      if got == 0 { break }
      count += got
    }
    guard count <= maximumBytes, let text = String(bytes: bytes[..<count], encoding: .utf8) else {
      throw CertificateAuthority.Failure(description: "\(file.path): not UTF-8 PEM text; \(fix)")
    }
    return Contents(text: text, permissions: info.st_mode & 0o7777)
  }

  /// Writes `text` as the new file `file` with exactly `permissions`, unless `file` exists already
  /// (another process wrote it first, or it is the user's): that one is left alone.
  static func create(_ text: String, at file: URL, permissions: mode_t) throws {
    let temporary = try writeTemporary(text, beside: file, permissions: permissions)
    defer { unlink(temporary) }
    // link(2) never replaces nor follows the name it creates.
    if link(temporary, file.path) != 0, errno != EEXIST {
      throw CertificateAuthority.Failure(description: "\(file.path): cannot write (\(errorText()))")
    }
  }

  /// Replaces `file` by `text` at once (a new file renamed over it): a reader sees the old file or
  /// the new one; a symbolic link in its place is replaced, never followed.
  static func replace(_ text: String, at file: URL, permissions: mode_t) throws {
    let temporary = try writeTemporary(text, beside: file, permissions: permissions)
    guard rename(temporary, file.path) == 0 else {
      let reason = errorText()
      unlink(temporary)
      throw CertificateAuthority.Failure(
        description: "\(file.path): cannot replace (\(reason)); remove it and the leaf is written again")
    }
  }

  /// A new file next to `file`, holding `text` and synced, with exactly `permissions`.
  private static func writeTemporary(_ text: String, beside file: URL, permissions: mode_t) throws -> String {
    let suffix = String(UInt64.random(in: .min ... .max), radix: 16)
    let temporary =
      file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).new-\(suffix)").path
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions)
    guard descriptor >= 0 else {
      throw CertificateAuthority.Failure(description: "\(file.path): cannot write (\(errorText()))")
    }
    var written = fchmod(descriptor, permissions) == 0
    let bytes = Array(text.utf8)
    var offset = 0
    while written, offset < bytes.count {
      let count = bytes.withUnsafeBytes {
        Foundation.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
      }
      if count < 0, errno == EINTR { continue }
      written = count > 0
      offset += max(count, 0)
    }
    written = written && fsync(descriptor) == 0
    let reason = errorText()
    close(descriptor)
    guard written else {
      unlink(temporary)
      throw CertificateAuthority.Failure(description: "\(file.path): cannot write (\(reason))")
    }
    return temporary
  }

  private static func errorText() -> String { String(cString: strerror(errno)) }
}
