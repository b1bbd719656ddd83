/// Snowplow's SchemaVer (`model-revision-addition`, `1-0-2`) and the Iglu URIs that end with one
/// (`iglu:com.acme/add_to_cart/jsonschema/1-0-2`).
public enum SchemaVer {
  /// `[1, 0, 2]` for `1-0-2`; `nil` unless three non-negative integers joined by `-`.
  public static func parts(_ text: some StringProtocol) -> [Int]? {
    let pieces = text.split(separator: "-", omittingEmptySubsequences: false)
    guard pieces.count == 3 else { return nil }
    var numbers: [Int] = []
    for piece in pieces {
      guard !piece.isEmpty, piece.allSatisfy(\.isASCII), let number = Int(piece), number >= 0 else {
        return nil
      }
      numbers.append(number)
    }
    return numbers
  }

  /// `iglu:com.acme/add_to_cart/jsonschema/1-0-2` → (`iglu:com.acme/add_to_cart/jsonschema/`,
  /// `[1, 0, 2]`): the URI without its version, and the version; `nil` for a name that does not end
  /// with `/` and a SchemaVer.
  public static func split(_ name: String) -> (stem: Substring, version: [Int])? {
    guard let slash = name.lastIndex(of: "/"), let version = parts(name[name.index(after: slash)...]) else {
      return nil
    }
    return (name[...slash], version)
  }
}
