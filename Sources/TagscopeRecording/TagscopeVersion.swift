/// This tagscope's version: what `tagscope --version` prints and every report names.
public enum TagscopeVersion {
  /// `0.1.0`.
  public static let current = "0.1.0"
}
