import AnalyticsHub
import TagscopeVendors

extension CatalogueCall {
  /// What `object`, the properties of a call an SDK sent, is checked as when this entry allows no
  /// parameter it does not list: without the properties the SDK adds itself (`sdk`, the
  /// catalogue's ``CallCatalogue/sdkProperties``: Mixpanel's `mp_lib`, `$os`, `time`) that the
  /// entry does not list, so a closed entry judges the SDK's traffic as it judges the app's call
  /// (the hub's in-app call carries none of them). A listed one is checked as planned.
  func leavingOutUnlistedSDKProperties(_ sdk: Vendor.SDKProperties, in object: Properties) -> Properties {
    guard !additionalParams, !sdk.isEmpty else { return object }
    let listed = params
    var kept = Properties()
    for (key, value) in object where !sdk.contains(key) || listed.contains(where: { $0.name == key }) {
      kept.appendUnchecked(key, value)
    }
    return kept
  }
}
