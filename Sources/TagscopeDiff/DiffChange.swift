/// A kind of difference between two recordings; its raw value is the id `--fail-on` takes.
public enum DiffChange: String, Sendable, Hashable, CaseIterable, Comparable {
  /// A tag that no longer fires.
  case removed
  /// A tag that newly fires.
  case added
  /// A provider that no longer receives a tag.
  case providerRemoved = "provider-removed"
  /// A provider that newly receives a tag.
  case providerAdded = "provider-added"
  /// A provider's call for a tag has a new name.
  case renamed
  /// A provider's call for a tag goes through another SDK method (`logEvent` → `setUserProperty`).
  case method
  /// A provider call a tag no longer makes.
  case callRemoved = "call-removed"
  /// A provider call a tag newly makes.
  case callAdded = "call-added"
  /// A call parameter that is gone.
  case paramRemoved = "param-removed"
  /// A new call parameter.
  case paramAdded = "param-added"
  /// A call parameter whose value type changed.
  case paramType = "param-type"
  /// Another count of a call's parameter keys past the paths compared (``PathTypes/pathLimit``,
  /// ``PathTypes/depthLimit``): keys were removed or added where they are not compared by name.
  case paramUncompared = "param-uncompared"
  /// A provider's statuses for a tag changed (sent → dropped, blocked, failed…).
  case status
  /// A tag property that is gone.
  case propertyRemoved = "property-removed"
  /// A new tag property.
  case propertyAdded = "property-added"
  /// A tag property whose value type changed.
  case propertyType = "property-type"
  /// Another count of a tag's property keys past the paths compared.
  case propertyUncompared = "property-uncompared"

  /// What fails a diff unless `--fail-on` says otherwise: everything but additions.
  public static let regressions: Set<DiffChange> = Set(allCases).subtracting([
    .added, .providerAdded, .callAdded, .paramAdded, .propertyAdded,
  ])

  public static func < (lhs: DiffChange, rhs: DiffChange) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }

  /// Parses `--fail-on`: ids separated by commas, `regressions` (the default set), `all` or
  /// `none`; a failure names the first unknown id.
  public static func parseList(_ text: String) -> Result<Set<DiffChange>, DiffOptionError> {
    var result: Set<DiffChange> = []
    for part in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
    where !part.isEmpty {
      switch part {
      case "all": result.formUnion(allCases)
      case "none": break
      case "regressions": result.formUnion(regressions)
      default:
        guard let change = DiffChange(rawValue: part) else {
          return .failure(DiffOptionError(value: part))
        }
        result.insert(change)
      }
    }
    return .success(result)
  }
}

/// An unknown change id given to `--fail-on`.
public struct DiffOptionError: Error, Sendable, CustomStringConvertible {
  /// The id as given.
  public var value: String

  public var description: String {
    "--fail-on: unknown change '\(value)' (known: \(DiffChange.allCases.map(\.rawValue).joined(separator: ", ")), regressions, all, none)"
  }
}
