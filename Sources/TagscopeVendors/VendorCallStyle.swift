extension Vendor {
  /// How code generated from a plan calls the vendor's in-app provider module: the call type,
  /// the namespace whose `provider(…)` attaches its rules, and per SDK method the expression that
  /// records that method.
  public struct CallStyle: Sendable, Hashable {
    /// `FirebaseCall`.
    public let callType: String
    /// `Firebase`: the namespace with `provider(environment:adapter:mapping:)`.
    public let namespace: String
    /// The method a planned call without one gets.
    public let defaultMethod: String
    /// The call expressions by SDK method.
    public let calls: [CallTemplate]
    /// Parameters of a planned call that the call's own arguments carry (FPTI's envelope `e`,
    /// `category`), left out of its properties.
    public let envelopeParameters: [String]

    /// A call style.
    public init(
      callType: String, namespace: String, defaultMethod: String, calls: [CallTemplate],
      envelopeParameters: [String] = []
    ) {
      self.callType = callType
      self.namespace = namespace
      self.defaultMethod = defaultMethod
      self.calls = calls
      self.envelopeParameters = envelopeParameters
    }
  }

  /// One method's call expression, its parts as placeholders: `{name}` (the name literal),
  /// `{parameters}`, `{value}` (a one-value call's value), `{eventType}`, `{category}`.
  public struct CallTemplate: Sendable, Hashable {
    /// Whether the planned call has a name.
    public enum Name: Sendable, Hashable {
      /// It must (the expression uses `{name}`).
      case required
      /// It must not.
      case absent
      /// Either.
      case any
    }

    /// The SDK method (`logEvent`).
    public let method: String
    /// The expression (`.logEvent({name}, {parameters})`).
    public let expression: String
    /// Whether the planned call's name is required, refused, or either.
    public let name: Name

    /// A template.
    public init(_ method: String, _ expression: String, name: Name = .required) {
      self.method = method
      self.expression = expression
      self.name = name
    }
  }
}

extension Vendor.CallTemplate {
  /// The expression with its placeholders replaced by `values` (`name` → the name literal…), in
  /// one pass: a value's own text is never read as a placeholder. `nil` when the template needs a
  /// name `values` lacks, or refuses one it has.
  public func render(_ values: [String: String]) -> String? {
    switch name {
    case .required where values["name"] == nil: return nil
    case .absent where values["name"] != nil: return nil
    default: break
    }
    var output = ""
    var rest = expression[...]
    while let open = rest.firstIndex(of: "{") {
      guard let close = rest[open...].firstIndex(of: "}") else { break }
      output += rest[..<open]
      let key = String(rest[rest.index(after: open)..<close])
      if let value = values[key] {
        output += value
      } else {
        output += rest[open...close]
      }
      rest = rest[rest.index(after: close)...]
    }
    return output + rest
  }
}
