import AnalyticsHub
import TagscopeRecording

/// Personal data found in a value a provider received: its kind and its place, never the value.
public struct PrivacyFinding: Sendable, Hashable {
  /// What was found.
  public var kind: PIIKind
  /// The provider that received it.
  public var provider: String
  /// The output's position in the record's `outputs`.
  public var output: Int
  /// The call's position in the output's `calls`.
  public var call: Int
  /// The call's method and name (`logEvent sign_up`).
  public var callLabel: String
  /// The parameter's path in the call's parameters (`email`, `user.contacts[1]`).
  public var path: String
  /// The value's length in characters (what a masked value shows).
  public var length: Int

  /// `outputs[0].calls[1].parameters.email`: the place in the record.
  public var place: String { "outputs[\(output)].calls[\(call)].parameters.\(path)" }
}

extension PIIKind {
  /// `an email address`, for messages.
  public var phrase: String {
    switch self {
    case .email: return "an email address"
    case .phone: return "a phone number"
    case .advertisingID: return "an advertising id"
    case .ip: return "an IP address"
    case .card: return "a payment card number"
    case .geo: return "a precise geolocation"
    case .token: return "a credential (token)"
    }
  }
}

/// Finds personal data in the values a record's providers received (the calls of every output not
/// `blocked`): strings by every detector, integers as card numbers (and as phone numbers under a
/// phone key), and latitude/longitude key pairs of one object with 4 or more decimals each.
public enum PrivacyScan {
  /// The findings of `kinds` in `record`'s provider calls, one per kind per value.
  public static func findings(in record: Record, kinds: PIIKinds = .all) -> [PrivacyFinding] {
    var found: [PrivacyFinding] = []
    for (outputIndex, output) in record.outputs.enumerated() where output.status != .blocked {
      for (callIndex, call) in output.calls.enumerated() {
        let label = call.name.map { "\(call.method) \($0)" } ?? call.method
        walk(object: call.parameters, path: "", kinds: kinds) { kind, path, length in
          found.append(
            PrivacyFinding(
              kind: kind, provider: output.provider, output: outputIndex, call: callIndex, callLabel: label,
              path: path, length: length))
        }
      }
    }
    return found
  }

  /// Reports each kind found in `value` (named `key`, at `path`) with its path and its length.
  public static func walk(
    _ value: PropertyValue, key: PIIKeyContext, path: String, kinds: PIIKinds = .all,
    report: (PIIKind, String, Int) -> Void
  ) {
    var trail = Trail(base: path)
    walk(value, key: key, trail: &trail, kinds: kinds, report: report)
  }

  /// The path to the value being walked, made into text only for a finding.
  struct Trail {
    enum Step {
      case key(String)
      case index(Int)
    }
    let base: String
    var steps: [Step] = []

    var text: String {
      var text = base
      for step in steps {
        switch step {
        case .key(let name): text += text.isEmpty ? name : ".\(name)"
        case .index(let index): text += "[\(index)]"
        }
      }
      return text
    }
  }

  static func walk(
    _ value: PropertyValue, key: PIIKeyContext, trail: inout Trail, kinds: PIIKinds,
    report: (PIIKind, String, Int) -> Void
  ) {
    switch value {
    case .string(let text):
      reportKinds(in: text, key: key, kinds: kinds.subtracting(.geolocation), trail: trail, report: report)
      if kinds.contains(.geo) {
        reportKinds(in: text, key: key, kinds: [PIIKinds(.geo)], trail: trail, report: report)
      }
    case .int(let number) where key.phone || abs(number) >= 1_000_000_000_000:
      reportKinds(
        in: String(number), key: key, kinds: kinds.intersection(.numbers), trail: trail, report: report)
    case .largeInteger(let number):
      reportKinds(
        in: number.text, key: key, kinds: kinds.intersection(.numbers), trail: trail, report: report)
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        trail.steps.append(.index(index))
        walk(element, key: key, trail: &trail, kinds: kinds, report: report)
        trail.steps.removeLast()
      }
    case .object(let object):
      walk(object: object, trail: &trail, kinds: kinds, report: report)
    default:
      break
    }
  }

  static func walk(
    object: Properties, path: String, kinds: PIIKinds, report: (PIIKind, String, Int) -> Void
  ) {
    var trail = Trail(base: path)
    walk(object: object, trail: &trail, kinds: kinds, report: report)
  }

  static func walk(
    object: Properties, trail: inout Trail, kinds: PIIKinds, report: (PIIKind, String, Int) -> Void
  ) {
    var latitude: (path: String, length: Int)?
    var longitude = false
    for (name, value) in object {
      let key = PIIKeyContext(key: name)
      trail.steps.append(.key(name))
      if kinds.contains(.geo), key.latitude || key.longitude, let text = coordinateText(value),
        isPrecise(text, limit: key.latitude ? 90 : 180)
      {
        if key.latitude { latitude = (trail.text, text.count) } else { longitude = true }
      }
      walk(value, key: key, trail: &trail, kinds: kinds, report: report)
      trail.steps.removeLast()
    }
    if let latitude, longitude { report(.geo, latitude.path, latitude.length) }
  }

  private static func coordinateText(_ value: PropertyValue) -> String? {
    switch value {
    case .double(let number): return "\(number)"
    case .string(let text): return text
    default: return nil
    }
  }

  private static func isPrecise(_ text: String, limit: Double) -> Bool {
    var text = text
    return text.withUTF8 { PIIScan.isPreciseCoordinate($0, limit: limit) }
  }

  private static func reportKinds(
    in text: String, key: PIIKeyContext, kinds: PIIKinds, trail: Trail, report: (PIIKind, String, Int) -> Void
  ) {
    guard !kinds.isEmpty else { return }
    var reported: PIIKinds = []
    for match in PIIScanner.scan(text, key: key, kinds: kinds) where !reported.contains(match.kind) {
      reported.insert(PIIKinds(match.kind))
      report(match.kind, trail.text, text.count)
    }
  }
}

extension PIIKinds {
  /// The kinds an integer can be.
  static let numbers: PIIKinds = [PIIKinds(.card), PIIKinds(.phone)]
  /// Geolocation, scanned apart so a pair's match does not hide another kind's.
  static let geolocation = PIIKinds(.geo)
}
