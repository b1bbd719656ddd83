import AnalyticsHub

/// Builds a hub ``Provider`` with a provider's rules attached; each provider namespace
/// (`Firebase`, `Amplitude`…) wraps this with its own defaults.
package enum ProviderFactory {
  package static func make<T: Taxonomy, Adapter: SDKAdapter>(
    id: ProviderID,
    category: ConsentCategory,
    environment: EnvironmentSwitch,
    adapter: Adapter,
    rules: @escaping RuleCheck<Adapter.Call>,
    mapping: @escaping Mapping<T, Adapter.Call>
  ) -> Provider<T> {
    Provider(
      id: id, category: category, enabled: environment.isEnabled, adapter: adapter, rules: rules,
      mapping: mapping)
  }
}
