/// `listen`'s own bound on one SDK event, whatever the request's limit: an event is recorded as
/// one line holding its name, its properties and the call as received (and the message itself,
/// `raw`, where the call does not hold it whole: ``IngestedEvent/recordsRaw``), so an event of a
/// few MiB makes a line of about twice its size (three times where `raw` is kept), and a line past
/// the readers' 64 MiB line limit would be skipped by `validate`, `diff` and `plan infer`. The
/// vendors' own, smaller bounds on one event are the registry's (`Vendors.limits`). The bound is a native line's (``ListenConfiguration/maximumLineBytes``
/// default, 4 MiB): a request carrying a larger event is refused whole, with the endpoint's
/// "too large" reply (the SDK keeps its events), and counted as `eventTooLarge`.
enum EventSizeLimit {
  /// The most bytes of one event as received.
  static let bytes = 4 * 1024 * 1024

  /// Whether an event `reply` accepted is past ``bytes``.
  static func isExceeded(by reply: SDKReply) -> Bool {
    if let batch = reply.batch, batch.largestEventBytes > bytes { return true }
    return reply.events.contains { event in
      event.raw.utf8.count > bytes || event.name.utf8.count > bytes
    }
  }
}
