import AdobeProvider
import AmplitudeProvider
import AnalyticsHub
import AnalyticsProvidersCore
import BatchProvider
import BrazeProvider
import FPTIProvider
import FirebaseProvider
import MixpanelProvider
import PianoProvider
import SegmentProvider

extension ProviderRules {
  /// Every rule the rule sets check, with its source; for the tagging plan's documentation, the
  /// debugger's help and reviews of the rules themselves.
  public static let catalogue: [RuleDescription] =
    FirebaseRules.catalogue + AmplitudeRules.catalogue + SegmentRules.catalogue + PianoRules.catalogue
    + BrazeRules.catalogue + AdobeRules.catalogue + BatchRules.catalogue + MixpanelRules.catalogue
    + FPTIRules.catalogue

  /// The description of a rule identifier.
  public static func describe(_ rule: String) -> RuleDescription? { catalogue.first { $0.id == rule } }
}
