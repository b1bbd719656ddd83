import TaggingPlan

/// A place in a document as keys and indices from its root, written as messages show it:
/// `rules.events[2].rules.properties`, `$defs["Order Completed"]`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
  /// One step: a member's key or an element's index.
  public enum Component: Sendable, Hashable {
    /// An object member.
    case key(String)
    /// An array element (from 0).
    case index(Int)
  }

  /// The steps from the root.
  public var components: [Component]

  /// The root, or the place `components` lead to.
  public init(_ components: [Component] = []) {
    self.components = components
  }

  /// The root of a document.
  public static let root = JSONPath()

  /// This path followed by the member `key`.
  public func key(_ key: String) -> JSONPath { appending(.key(key)) }

  /// This path followed by the element `index`.
  public func index(_ index: Int) -> JSONPath { appending(.index(index)) }

  /// This path followed by `step`, in one allocation (`components + [step]` made two: importers
  /// make a path for every key they read).
  private func appending(_ step: Component) -> JSONPath {
    var steps: [Component] = []
    steps.reserveCapacity(components.count + 1)
    steps.append(contentsOf: components)
    steps.append(step)
    return JSONPath(steps)
  }

  /// This path followed by `keys`, one member after the other.
  public func keys(_ keys: String...) -> JSONPath { JSONPath(components + keys.map(Component.key)) }

  public var description: String {
    var out = ""
    for component in components {
      switch component {
      case .key(let key):
        if Self.isPlain(key) {
          out += out.isEmpty ? key : ".\(key)"
        } else {
          out += "[\(YAMLText.doubleQuoted(key))]"
        }
      case .index(let index): out += "[\(index)]"
      }
    }
    return out.isEmpty ? "(root)" : out
  }

  /// A key written as is: letters, digits, `_`, `$` and `-`, not starting with a digit or `-`.
  private static func isPlain(_ key: String) -> Bool {
    guard let first = key.unicodeScalars.first, !("0"..."9").contains(first), first != "-" else {
      return false
    }
    return key.unicodeScalars.allSatisfy {
      $0.isASCII
        && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_$-".unicodeScalars.contains($0))
    }
  }
}
