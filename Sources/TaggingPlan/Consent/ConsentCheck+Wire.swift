import AnalyticsHub
import TagscopeRecording

extension ConsentTracker {
  /// A `consent` record an SDK sent on the wire (Adobe Edge's `privacy/set-consent`): its decision
  /// applies to the later wire calls of its source, the device that sent it, over the in-app
  /// device's; it is not a call itself.
  mutating func applyWire(_ record: Record, consent: PlanConsent, _ findings: inout Findings) {
    let source = record.source ?? ""
    var device =
      wireDevices.removeValue(forKey: source)
      ?? Device(state: ConsentState(defaultGranted: consent.defaultGranted))
    Self.apply(record, consent: consent, to: &device, &findings)
    if wireDevices.count >= Self.deviceLimit { wireDevices.removeAll() }
    wireDevices[source] = device
  }
}

extension ConsentTracker.Device {
  /// The device with the decisions `own` made laid over its own (a wire source's over the in-app
  /// device it joins).
  mutating func overlay(_ own: Self) {
    state.categories.merge(own.state.categories) { $1 }
    state.providers.merge(own.state.providers) { $1 }
    decisions.merge(own.decisions) { $1 }
  }
}
