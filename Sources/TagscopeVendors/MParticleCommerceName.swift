import AnalyticsHub

extension Vendor {
  /// The names `listen` gives mParticle commerce events without a product action, and a data
  /// plan's `promotion_action` and `product_impression` data points import under: mParticle's own
  /// match keys for them (mParticle/mparticle-web-sdk @ b99ac81 `src/kitBlocking.ts`,
  /// `getMatchKey`: `promotion_action:<action>`, `product_impression`), so a promotion `click` is
  /// not the product action `click`. A commerce event with a product action is named by the
  /// action alone.
  public enum MParticleCommerceName {
    /// The name of a commerce event promoting with `action` (`view`, `click`).
    public static func promotion(_ action: String) -> String { "promotion_action:\(action)" }

    /// The name of a commerce event of product impressions.
    public static let impression = "product_impression"

    /// The name of the Events API commerce event `data`: its product action's, else its promotion
    /// action's, else ``impression`` when it lists impressions; `nil` for none of them.
    public static func of(_ data: Properties) -> String? {
      if case .object(let action)? = data["product_action"], case .string(let name)? = action["action"] {
        return name
      }
      if case .object(let action)? = data["promotion_action"], case .string(let name)? = action["action"] {
        return promotion(name)
      }
      return data["product_impressions"] == nil ? nil : impression
    }
  }
}
