import AnalyticsHub
import TagscopeVendors

/// The fields of one Adobe Analytics hit (`ndh=1&pageName=…&c.&a.&action=X&.a&k=v&.c&mid=…`):
/// its variables, and its context data, whose nested levels (`&a.&action=X&.a`) become dotted
/// keys (`a.action`) as the SDK's `ContextDataUtil` wrote them from them.
///
/// A level opens with a key ending in `.` (`c.`, `a.`, `p.`) and closes with `.` and its name
/// (`.a`); what sits under `c.` is context data, anything else a variable (`p.debug`). A close
/// that matches no open level, a level left open and a repeated name are kept as read and
/// reported with their place (``problems``), never fatal; a variable Tagscope does not know is
/// kept apart (``unread``) for the record's `unread`.
struct AdobeHitFields: Sendable {
  /// The variables (`pageName`, `pe`, `pev2`, `mid`…), in order, each once (a repeat's last value).
  var variables: Properties = [:]
  /// The context data by dotted key (`a.action`, `k1`), in order.
  var contextData: Properties = [:]
  /// The variables neither Tagscope reads nor the SDKs send as their own transport
  /// (``isKnownVariable(_:)``), by name with their values: not understood (``FieldAccount``).
  var unread: Properties = [:]
  /// What did not read as the SDK writes it, each with its place (`field 7 (.x)`), the first
  /// ``problemLimit``; then how many more.
  var problems: [String] = []
  /// Where the hit nests its levels deeper than ``depthLimit``, or its dotted keys grow past
  /// their bound (``keyBytesRatio``), or `nil`: such a hit is refused (the SDK nests by the dots
  /// of a key; each key under a level is made whole, so a long level under it costs its length
  /// each).
  var tooDeep: String?
  /// The deepest nesting of levels read (JSON's limit in ``JSONParser``).
  static let depthLimit = 64
  /// The most bytes the dotted keys of one hit may take together: this many times its names, at
  /// least 64 KiB (a real hit's keys are its names and a few levels; a hostile one's 500 KB level
  /// over 250,000 fields was 125 GB of keys).
  static let keyBytesRatio = 8
  /// The least bytes the dotted keys of one hit may take together.
  static let smallestKeyBytes = 64 * 1024
  /// How many problems are listed, each with its place; past it, they are counted.
  static let problemLimit = 50
  private var unlisted = 0

  /// The fields of a hit's `pairs` (its form-decoded body or query).
  init(_ pairs: [(name: String, value: String)]) {
    var levels: [String] = []
    var variablePairs: [(String, PropertyValue)] = []
    var contextPairs: [(String, PropertyValue)] = []
    var seenVariables: Set<String> = []
    var seenContext: Set<String> = []
    let keyBytesLimit = max(
      Self.smallestKeyBytes, Self.keyBytesRatio * pairs.reduce(0) { $0 + $1.name.utf8.count })
    var keyBytes = 0
    for (index, pair) in pairs.enumerated() {
      let name = pair.name
      let place = "field \(index + 1) (\(Payload.excerpt(name)))"
      if name.count > 1, name.hasSuffix("."), !name.hasPrefix(".") {
        guard levels.count < Self.depthLimit else {
          tooDeep = "\(place): nested deeper than \(Self.depthLimit) levels"
          break
        }
        levels.append(String(name.dropLast()))
        if !pair.value.isEmpty { note("\(place): a level that opens has a value, dropped by Adobe") }
        continue
      }
      if name.count > 1, name.hasPrefix("."), !name.hasSuffix(".") {
        if levels.last == String(name.dropFirst()) {
          levels.removeLast()
        } else {
          note(
            "\(place): closes a level that is not open (innermost open: \(Payload.excerpt(levels.last ?? "none")))"
          )
        }
        continue
      }
      keyBytes += levels.reduce(name.utf8.count) { $0 + $1.utf8.count + 1 }
      guard keyBytes <= keyBytesLimit else {
        tooDeep = "\(place): its dotted keys take more than \(keyBytesLimit) bytes together"
        break
      }
      if levels.first == "c" {
        let key = Self.path(Array(levels.dropFirst()), name) ?? name
        if !seenContext.insert(key).inserted {
          note("\(place): context data \(Payload.excerpt(key)) repeated")
        }
        contextPairs.append((key, .string(pair.value)))
      } else {
        let key = Self.path(levels, name) ?? name
        if !seenVariables.insert(key).inserted { note("\(place): variable \(Payload.excerpt(key)) repeated") }
        variablePairs.append((key, .string(pair.value)))
      }
    }
    if !levels.isEmpty {
      note("end of hit: level \(Payload.excerpt(levels.joined(separator: "."))) is not closed")
    }
    var known: [(String, PropertyValue)] = []
    var unknown: [(String, PropertyValue)] = []
    for pair in variablePairs {
      if Self.isKnownVariable(pair.0) { known.append(pair) } else { unknown.append(pair) }
    }
    variables = Properties(known)
    unread = Properties(unknown)
    contextData = Properties(contextPairs)
    if unlisted > 0 { problems.append("and \(unlisted) more problems") }
  }

  /// Lists `problem`, or counts it past ``problemLimit``: a hit of 100,000 stray closes makes 50
  /// lines and a count, not 100,000 lines.
  private mutating func note(_ problem: String) {
    if problems.count < Self.problemLimit { problems.append(problem) } else { unlisted += 1 }
  }

  /// `levels` and `leaf` joined with dots (`a.action`); `nil` for no level and no leaf.
  private static func path(_ levels: [String], _ leaf: String) -> String? {
    let parts = leaf.isEmpty ? levels : levels + [leaf]
    return parts.isEmpty ? nil : parts.joined(separator: ".")
  }

  /// The variable named `name` as text.
  func variable(_ name: String) -> String? { Payload.string(variables[name]) }

  /// The variables an Adobe Analytics hit is documented to carry (the mobile extension's
  /// `AnalyticsConstants`/`AnalyticsExtension`, AppMeasurement's variable reference), the SDKs'
  /// own transport fields (``Vendor/TransportFields/adobe``) and the numbered families (`v1`
  /// eVars, `c1` props, `h1` hierarchies, `l1` list variables) an app's `&&` context data lifts to
  /// the top: any other is not understood. A set lookup per variable.
  static func isKnownVariable(_ name: String) -> Bool {
    if knownVariables.contains(name) || transport.contains(name) || name.hasPrefix("p.") { return true }
    // The customer ids the app synced (`cid.<type>.id`, `.as`): aepsdk-analytics-android
    // `AnalyticsRequestSerializer.kt`.
    if name.hasPrefix("cid."), name.hasSuffix(".id") || name.hasSuffix(".as") { return true }
    guard let first = name.first, "vchl".contains(first) else { return false }
    let digits = name.dropFirst()
    return !digits.isEmpty && digits.allSatisfy(\.isASCIIDigit)
  }

  /// The variables Tagscope reads or keeps as the call's: its time, page, link, ids, commerce.
  private static let knownVariables: Set<String> = [
    "ts", "pageName", "pe", "pev1", "pev2", "pev3", "mid", "aid", "vid", "aamb", "aamlh", "cid", "cp",
    "events", "products", "purchaseID", "xact", "state", "zip", "server", "channel", "ch", "g", "r", "cc",
    "debug",
  ]

  /// Adobe's transport fields at the hit's root (``Vendor/TransportFields/adobe``).
  private static let transport = Vendor.adobe.transportFields.names(at: "")
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
