// The umbrella: every provider module and their shared core, so `import AnalyticsProviders`
// keeps offering every call model, adapter protocol and rule set.
@_exported import AdobeProvider
@_exported import AmplitudeProvider
@_exported import AnalyticsProvidersCore
@_exported import BatchProvider
@_exported import BrazeProvider
@_exported import FPTIProvider
@_exported import FirebaseProvider
@_exported import MixpanelProvider
@_exported import PianoProvider
@_exported import SegmentProvider
@_exported import TagscopeVendors
