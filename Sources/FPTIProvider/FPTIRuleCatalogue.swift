import AnalyticsHub
import AnalyticsProvidersCore

extension FPTIRules {
  /// Every rule ``FPTIRules`` checks, with its source (listed by `ProviderRules.catalogue`).
  package static let catalogue: [RuleDescription] = [
    rule(
      "fpti.event-name-missing", "events have a name", .degraded, Source.seed004, confirmed: false,
      note: "FPTI is PayPal-internal; its collector's behaviour is not public"),
    rule(
      "fpti.event-type-invalid", "e is ac, cl, im, rd or ua", .degraded, Source.seed004, confirmed: false,
      note: "FPTI is PayPal-internal; its collector's behaviour is not public"),
  ]
}

private enum Source {
  static let seed004 =
    "seeds/004: gist hyperspacemark/93716aedcf40948a62d039d444c86326 (PayPal FPTI event types)"
}
