/// The delivery ledger as the debugger reads it (the `delivery:` filter key): supplied by the
/// live session that follows each provider call to the wire (the CLI wires it in); the UI does
/// not depend on how calls are matched.
public protocol DeliveryFeed: AnyObject, Sendable {
  /// The delivery state of each record's provider calls now, by timeline position, as
  /// ``Filter/deliveryStateWords`` names them (`delivered`, `queued`, `lost`…).
  func statesByPosition() -> [Int: [String]]
}
