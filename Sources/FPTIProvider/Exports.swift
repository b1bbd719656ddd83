// What an app that links FPTIProvider uses with it: the shared provider helpers (naming,
// sessions, timed events, Foundation bridge, environment switches, rule sets).
@_exported import AnalyticsProvidersCore
