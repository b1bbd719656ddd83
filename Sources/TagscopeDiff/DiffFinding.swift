/// One difference between a base and a new recording.
public struct DiffFinding: Sendable, Hashable {
  /// What changed.
  public var change: DiffChange
  /// The tag it concerns.
  public var tag: TagSignature
  /// The provider, for provider, call, parameter and status changes.
  public var provider: String?
  /// The call name (the new one for a rename), for call and parameter changes.
  public var call: String?
  /// The property or parameter path (`products[].price`), for their changes.
  public var path: String?
  /// What the base recording had (a call name, types, statuses), when it had it.
  public var base: String?
  /// What the new recording has, when it has it.
  public var new: String?
  /// How often the tag (or the call) occurred in each recording.
  public var baseCount: Int
  public var newCount: Int

  /// `keys past the first 256 paths or 8 levels, not compared by name: 19744 → 9744`.
  private var uncompared: String {
    "keys past the first \(PathTypes.pathLimit) paths or \(PathTypes.depthLimit) levels, not compared by name: "
      + "\(base ?? "") → \(new ?? "")"
  }

  /// One plain sentence.
  public var message: String {
    let provider = self.provider ?? ""
    let call = self.call ?? ""
    let path = self.path ?? ""
    switch change {
    case .removed: return "no longer fires (\(baseCount)× in base)"
    case .added: return "newly fires (\(newCount)× in new)"
    case .providerRemoved: return "\(provider) no longer receives it (\(baseCount)× in base: \(base ?? ""))"
    case .providerAdded: return "\(provider) newly receives it (\(newCount)× in new: \(new ?? ""))"
    case .renamed: return "\(provider) call renamed: \(base ?? "") → \(new ?? "")"
    case .method: return "\(provider) \(call): SDK method \(base ?? "") → \(new ?? "")"
    case .callRemoved: return "\(provider) no longer calls \(call) (\(baseCount)× in base)"
    case .callAdded: return "\(provider) newly calls \(call) (\(newCount)× in new)"
    case .paramRemoved: return "\(provider) \(call): parameter \(path) is gone (was \(base ?? ""))"
    case .paramAdded: return "\(provider) \(call): new parameter \(path) (\(new ?? ""))"
    case .paramType: return "\(provider) \(call): parameter \(path) type \(base ?? "") → \(new ?? "")"
    case .paramUncompared:
      return "\(provider) \(call): parameter \(uncompared)"
    case .status: return "\(provider) status \(base ?? "") → \(new ?? "")"
    case .propertyRemoved: return "property \(path) is gone (was \(base ?? ""))"
    case .propertyAdded: return "new property \(path) (\(new ?? ""))"
    case .propertyType: return "property \(path) type \(base ?? "") → \(new ?? "")"
    case .propertyUncompared: return "property \(uncompared)"
    }
  }
}
