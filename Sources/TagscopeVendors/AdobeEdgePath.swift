extension Vendor {
  /// An Adobe Experience Platform Edge path read into its parts, the grammar of ``Vendor/adobe``'s
  /// Edge endpoints: `/ee` (or `/ee-pre-prd`), an optional location hint (`or2`), Media Edge's
  /// `va`, the API version (`v1`) and the operation after it (`interact`, `privacy/set-consent`,
  /// `sessionStart`).
  ///
  /// Read in adobe/aepsdk-edge-android @ f607561cf7301e22deaabdcdf838844127e52186 (`EdgeEndpoint`:
  /// the domain, `/ee` or `/ee-pre-prd`, `/<locationHint>`, then the request's own path, such as
  /// Media Edge's `/va/v1/sessionstart` (`EdgePathOverwriteTests`), or `/v1/<request type>`).
  public struct AdobeEdgePath: Equatable, Sendable {
    /// The API version segment as sent (`v1`, `v2`, `v3`…).
    public var version: String
    /// Whether the version follows Media Edge's `va` segment.
    public var isMedia: Bool
    /// What follows the version (`interact`, `identity/acquire`), never empty.
    public var operation: String

    /// The parts given.
    public init(version: String, isMedia: Bool, operation: String) {
      self.version = version
      self.isMedia = isMedia
      self.operation = operation
    }
  }
}

extension Vendor.AdobeEdgePath {
  /// The parts of `path` (a last `/` aside), or `nil` when it is not an Edge path: no `/ee` or
  /// `/ee-pre-prd` first, no `v<digits>` segment within a hint and `va` of it, or nothing after it.
  public init?(_ path: String) {
    let trimmed = path.count > 1 && path.hasSuffix("/") ? path.dropLast() : Substring(path)
    var parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)[...]
    guard parts.count >= 4, parts.removeFirst().isEmpty else { return nil }
    guard parts.first == "ee" || parts.first == "ee-pre-prd" else { return nil }
    parts.removeFirst()
    guard let index = parts.prefix(3).firstIndex(where: Self.isVersion) else { return nil }
    let before = parts[parts.startIndex..<index]
    let media = before.last == "va"
    let hints = media ? before.dropLast() : before
    guard hints.count <= 1, hints.allSatisfy(Self.isHint) else { return nil }
    let operation = parts[parts.index(after: index)...].joined(separator: "/")
    guard !operation.isEmpty else { return nil }
    version = String(parts[index])
    isMedia = media
    self.operation = operation
  }

  /// `v` and digits.
  private static func isVersion(_ part: Substring) -> Bool {
    part.count > 1 && part.first == "v" && part.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
  }

  /// A location hint: letters, digits and `-`.
  private static func isHint(_ part: Substring) -> Bool {
    !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
  }
}
