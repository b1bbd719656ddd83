import AdobeProvider
import AmplitudeProvider
import AnalyticsHub
import BatchProvider
import BrazeProvider
import FPTIProvider
import FirebaseProvider
import MixpanelProvider
import PianoProvider
import SegmentProvider
import TagscopeVendors

/// Every analytics vendor Tagscope knows: the one list plans are checked against (a provider id a
/// plan names must be one of these, or one the plan declares under `customProviders:`), and the
/// ids and aliases the rules, `listen` and the proxy use.
public enum Vendors {
  /// The vendors, in-app providers first.
  public static let all: [Vendor] = [
    Vendor(
      id: FirebaseRules.providerID, name: "Firebase (Google Analytics)",
      aliases: ["google-analytics", "googleanalytics"], paths: [.inApp, .log]),
    Vendor(id: AmplitudeRules.providerID, name: "Amplitude", paths: [.inApp, .sdk]),
    Vendor(id: SegmentRules.providerID, name: "Segment", paths: [.inApp, .sdk]),
    Vendor(
      id: PianoRules.providerID, name: "Piano Analytics (AT Internet)",
      aliases: ["at-internet", "atinternet", "piano-analytics"], paths: [.inApp]),
    Vendor(id: BrazeRules.providerID, name: "Braze", aliases: ["appboy"], paths: [.inApp]),
    Vendor(id: AdobeRules.providerID, name: "Adobe Analytics", aliases: ["adobe-analytics"], paths: [.inApp]),
    Vendor(id: BatchRules.providerID, name: "Batch", paths: [.inApp]),
    Vendor(id: MixpanelRules.providerID, name: "Mixpanel", paths: [.inApp, .sdk]),
    Vendor(
      id: FPTIRules.providerID, name: "PayPal FPTI", aliases: ["paypal", "paypal-fpti"], paths: [.inApp]),
    Vendor(id: ga4, name: "Google Analytics 4 (Measurement Protocol, gtag)", paths: [.sdk]),
    Vendor(id: rudderstack, name: "RudderStack", paths: [.sdk]),
    Vendor(id: mparticle, name: "mParticle", paths: [.sdk]),
    Vendor(id: posthog, name: "PostHog", paths: [.sdk]),
    Vendor(id: snowplow, name: "Snowplow", paths: [.sdk]),
  ]

  /// Google Analytics 4 as its web and Measurement Protocol requests reach `listen`; its rules
  /// are Firebase's (the same Google Analytics).
  public static let ga4: ProviderID = "ga4"
  /// RudderStack (Segment's API, told apart by its messages).
  public static let rudderstack: ProviderID = "rudderstack"
  /// mParticle (its Events API, web and mobile SDKs).
  public static let mparticle: ProviderID = "mparticle"
  /// PostHog.
  public static let posthog: ProviderID = "posthog"
  /// Snowplow (tracker protocol 2).
  public static let snowplow: ProviderID = "snowplow"
  /// Segment, in-app and from its SDKs.
  public static let segment = SegmentRules.providerID
  /// Amplitude, in-app and from its SDKs.
  public static let amplitude = AmplitudeRules.providerID
  /// Mixpanel, in-app and from its SDKs.
  public static let mixpanel = MixpanelRules.providerID
  /// Firebase, in-app and from its debug log.
  public static let firebase = FirebaseRules.providerID

  /// The vendor with id or alias `name` (any case).
  public static func vendor(named name: String) -> Vendor? {
    let key = name.lowercased()
    return byName[key]
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
