import Foundation

extension CertificateAuthority {
  /// The copy of the root under the name Android's system store needs (`android/HASH.0`).
  public var androidCopyFile: URL {
    directory.appendingPathComponent("android").appendingPathComponent(androidSystemFileName)
  }

  /// Writes ``androidCopyFile`` beside the CA: a copy of another root under that name (the CA was
  /// made again with the same subject) is replaced at once, never followed if it is a link; an
  /// `android` that is not a directory of its own is refused.
  public func writeAndroidCopy() throws {
    let folder = androidCopyFile.deletingLastPathComponent()
    if CAFiles.kind(of: folder) == .missing, mkdir(folder.path, 0o755) != 0, errno != EEXIST {
      throw Failure(description: "\(folder.path): cannot create (\(String(cString: strerror(errno))))")
    }
    let kind = CAFiles.kind(of: folder)
    guard kind == .directory else {
      throw Failure(
        description: "\(folder.path): is \(kind), not a directory; remove it and it is made again")
    }
    if let existing = try? CAFiles.read(androidCopyFile, fix: ""), existing.text == certificatePEM { return }
    try CAFiles.replace(certificatePEM, at: androidCopyFile, permissions: 0o644)
  }
}
