extension Vendor {
  /// A vendor whose collector can run on its customer's own host (a RudderStack data plane, a
  /// Snowplow collector), which `tagscope proxy` decrypts when given with ``option``.
  public struct SelfHosting: Sendable, Hashable {
    /// The proxy's option naming such a host, without dashes (`snowplow-collector`).
    public let option: String
    /// What the option's value is, for its help (`A Snowplow collector host`).
    public let host: String

    /// A self-hosted collector.
    public init(option: String, host: String) {
      self.option = option
      self.host = host
    }
  }
}

extension Vendors {
  /// The vendors that can be self-hosted, in registry order, with how the proxy is told their hosts.
  public static let selfHosted: [(vendor: Vendor, hosting: Vendor.SelfHosting)] = all.compactMap { vendor in
    vendor.selfHosted.map { (vendor, $0) }
  }
}
