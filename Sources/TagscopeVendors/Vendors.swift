import AnalyticsHub

/// Every analytics vendor Tagscope knows: the one list plans are checked against (a provider id a
/// plan names must be one of these, or one the plan declares under `customProviders:`), and what
/// `listen`, the proxy, import, validate, codegen and the help pages know of each vendor.
public enum Vendors {
  /// The vendors, in-app providers first: one line per vendor, its descriptor in its own file.
  public static let all: [Vendor] = [
    .firebase,
    .amplitude,
    .segment,
    .piano,
    .braze,
    .adobe,
    .batch,
    .mixpanel,
    .fpti,
    .ga4,
    .rudderstack,
    .mparticle,
    .posthog,
    .snowplow,
  ]

  /// Firebase, in-app and from its debug log.
  public static let firebase = Vendor.firebase.id
  /// Amplitude, in-app and from its SDKs.
  public static let amplitude = Vendor.amplitude.id
  /// Segment, in-app and from its SDKs.
  public static let segment = Vendor.segment.id
  /// Piano Analytics (AT Internet), in-app.
  public static let piano = Vendor.piano.id
  /// Braze, in-app.
  public static let braze = Vendor.braze.id
  /// Adobe Analytics, in-app.
  public static let adobe = Vendor.adobe.id
  /// Batch, in-app.
  public static let batch = Vendor.batch.id
  /// Mixpanel, in-app and from its SDKs.
  public static let mixpanel = Vendor.mixpanel.id
  /// PayPal FPTI, in-app.
  public static let fpti = Vendor.fpti.id
  /// Google Analytics 4 as its web and Measurement Protocol requests reach `listen`; its rules
  /// are Firebase's (the same Google Analytics).
  public static let ga4 = Vendor.ga4.id
  /// RudderStack (Segment's API, told apart by its messages).
  public static let rudderstack = Vendor.rudderstack.id
  /// mParticle (its Events API, web and mobile SDKs).
  public static let mparticle = Vendor.mparticle.id
  /// PostHog.
  public static let posthog = Vendor.posthog.id
  /// Snowplow (tracker protocol 2).
  public static let snowplow = Vendor.snowplow.id

  /// The vendor with id or alias `name` (any case).
  public static func vendor(named name: String) -> Vendor? {
    byName[name.lowercased()]
  }

  /// The vendor with id `id` (not an alias), or `nil`.
  public static func vendor(_ id: ProviderID) -> Vendor? {
    all.first { $0.id == id }
  }

  private static let byName: [String: Vendor] = {
    var table: [String: Vendor] = [:]
    for vendor in all {
      for name in [vendor.id.rawValue] + vendor.aliases where table[name] == nil { table[name] = vendor }
    }
    return table
  }()

  /// Every id and alias, sorted: for messages.
  public static var names: [String] { byName.keys.sorted() }

  /// Every SDK path `listen` serves, vendor by vendor, each path once (a path two vendors' SDKs
  /// share, `/v1/identify`, is listed by the first).
  public static var endpoints: [Vendor.Endpoint] {
    var seen: Set<String> = []
    return all.flatMap(\.endpoints).filter { seen.insert($0.path).inserted }
  }

  /// Every host `tagscope proxy` decrypts, vendor by vendor.
  public static var proxyHosts: [Vendor.ProxyHost] { all.flatMap(\.proxyHosts) }

  /// The vendor whose tracking-plan format `plan import --from` calls `name`, with the format.
  public static func importFormat(named name: String) -> (vendor: Vendor, format: Vendor.ImportFormatFacts)? {
    for vendor in all {
      if let format = vendor.importFormats.first(where: { $0.name == name }) { return (vendor, format) }
    }
    return nil
  }

  /// The known id or alias closest to `name` when it is a near miss (a typo: at most two edits,
  /// fewer than a third of its length), for "did you mean".
  public static func suggestion(for name: String) -> String? {
    let key = Array(name.lowercased().unicodeScalars)
    let limit = min(2, max(1, key.count / 3))
    var best: (name: String, distance: Int)?
    for candidate in names {
      let distance = editDistance(key, Array(candidate.unicodeScalars), limit: limit)
      if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
    }
    return best?.name
  }

  /// Levenshtein distance with adjacent swaps counted as one edit, or `limit + 1` once past it.
  static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
    guard abs(a.count - b.count) <= limit else { return limit + 1 }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previousRow: [Int] = []
    var row = Array(0...b.count)
    for i in 1...a.count {
      let beforeRow = previousRow
      previousRow = row
      row = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        row[j] = min(previousRow[j] + 1, row[j - 1] + 1, previousRow[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          row[j] = min(row[j], beforeRow[j - 2] + 1)
        }
      }
      if row.min()! > limit { return limit + 1 }
    }
    return row[b.count]
  }
}

extension Vendors {
  /// Each vendor whose SDKs add properties of their own among an event's, with them, for help
  /// pages: `Mixpanel's $…, mp_…, distinct_id…; PostHog's $……`.
  public static var sdkPropertiesSummary: String {
    all.compactMap { vendor in
      guard let sdk = vendor.messages?.sdkProperties, !sdk.isEmpty else { return nil }
      return "\(vendor.name)'s \(sdk.summary)"
    }.joined(separator: "; ")
  }
}
