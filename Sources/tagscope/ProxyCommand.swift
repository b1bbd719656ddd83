import ArgumentParser
import Foundation
import TagscopeBasics
import TagscopeServer
import TagscopeTimeline
import TagscopeVendors

/// `tagscope proxy`: watch a build that cannot be changed, through an intercepting HTTP(S) proxy.
struct ProxyCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "proxy",
    abstract: "Watch any build unchanged: an HTTP(S) proxy that decodes the analytics SDKs' own traffic.",
    discussion: """
      tagscope proxy run --help: every option of the proxy; tagscope proxy ca: where its CA is and \
      how to trust it on each device; tagscope help proxy: the hosts it decrypts and Firebase's log.
      """,
    subcommands: [ProxyRun.self, ProxyCA.self],
    defaultSubcommand: ProxyRun.self
  )
}

/// `tagscope proxy [run]`: the proxy beside a `listen` session.
struct ProxyRun: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Run the proxy (the default): records, plan checks and the debugger as with listen.",
    discussion: """
      Set a device's (or the Mac's) HTTP and HTTPS proxy to this machine's --proxy-port and trust \
      the proxy's CA on it (tagscope proxy ca says how, per device). For the hosts of the SDKs \
      listen decodes (\(InterceptedHosts.builtIn.map(\.pattern).joined(separator: ", ")), and those \
      added with \(Vendors.selfHosted.map { "--" + $0.hosting.option }.joined(separator: ", ")) and \
      --intercept), the \
      proxy decrypts each request with a certificate its CA mints for the host, decodes it as \
      listen does (same records, device sources, plan checks, debugger and reports), forwards it \
      unchanged to the vendor over verified TLS once the records are stored and relays the \
      vendor's answer; a vendor's refusal (4xx, 5xx) is reported beside the records. A request \
      past listen's limits (body size, events, encoding) gets listen's answer and is not \
      forwarded, nor is one whose records are not stored within the request timeout (503 with \
      Retry-After, as listen answers). Every other host \
      is tunnelled byte for byte, never decrypted. --no-forward answers locally as listen does \
      (offline QA). The listen port (--port) stays open for apps and the query API. Bound off \
      loopback (--bind 0.0.0.0) the proxy needs --token, its password (or --allow-no-token on a \
      network you trust). It never connects to loopback, link-local or unspecified addresses (nor \
      to a name resolving to one) unless --allow-loopback-upstream, nor ever to its own ports.
      """
  )

  @OptionGroup var session: ListenArguments

  @Option(name: .customLong("proxy-port"), help: "The proxy's TCP port.")
  var proxyPort: Int = ProxyConfiguration.defaultPort

  @Flag(
    name: .customLong("no-forward"), help: "Answer intercepted requests locally instead of forwarding them.")
  var noForward = false

  @Option(name: .customLong("ca-dir"), help: "The CA's directory (default: the user's config directory).")
  var caDirectory: String?

  @Flag(
    name: .customLong("allow-no-token"),
    help: "Run bound off loopback without --token: anyone who reaches the proxy can relay through it.")
  var allowNoToken = false

  @Flag(
    name: .customLong("allow-loopback-upstream"),
    help: "Let clients reach loopback, link-local and unspecified addresses (services of this machine).")
  var allowLoopbackUpstream = false

  @Option(name: selfHostedName(.rudderstack), help: selfHostedHelp(.rudderstack))
  var rudderStackHosts: [String] = []

  @Option(name: selfHostedName(.posthog), help: selfHostedHelp(.posthog))
  var postHogHosts: [String] = []

  @Option(name: selfHostedName(.snowplow), help: selfHostedHelp(.snowplow))
  var snowplowCollectors: [String] = []

  @Option(
    name: .customLong("intercept"), help: "Any other host whose SDK traffic listen decodes (repeatable).")
  var otherHosts: [String] = []

  @Option(
    name: .customLong("resolve"),
    help: ArgumentHelp(
      "Connect to ADDRESS:PORT for HOST (HOST=ADDRESS:PORT; * for every host).", visibility: .hidden)
  )
  var resolve: [String] = []

  @Option(
    name: .customLong("upstream-ca"),
    help: ArgumentHelp("Verify vendors against this PEM file's roots, not the system's.", visibility: .hidden)
  )
  var upstreamCA: String?

  func validate() throws {
    guard (0...65_535).contains(proxyPort) else {
      throw ValidationError("--proxy-port must be between 0 and 65535")
    }
    let options = [
      ("--" + Self.selfHosted(.rudderstack).option, rudderStackHosts),
      ("--" + Self.selfHosted(.posthog).option, postHogHosts),
      ("--" + Self.selfHosted(.snowplow).option, snowplowCollectors), ("--intercept", otherHosts),
    ]
    for (option, hosts) in options {
      for host in hosts {
        if let problem = InterceptedHosts.hostNameProblem(host) {
          throw ValidationError("\(option) \(TerminalText.sanitize(host)): \(problem)")
        }
      }
    }
    let hasToken = !(session.token ?? "").isEmpty
    if let refusal = proxyConfiguration(resolve: [:]).startRefusal(
      bindAddress: session.bind, hasToken: hasToken)
    {
      throw ValidationError(refusal)
    }
    _ = try resolveTable()
  }

  private func resolveTable() throws -> [String: UpstreamAddress] {
    var table: [String: UpstreamAddress] = [:]
    for entry in resolve {
      let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, parts[0] == "*" || InterceptedHosts.isHostName(parts[0]),
        let address = UpstreamAddress(parsing: parts[1])
      else {
        throw ValidationError("--resolve takes HOST=ADDRESS:PORT, not \(TerminalText.sanitize(entry))")
      }
      table[parts[0].lowercased()] = address
    }
    return table
  }

  private func proxyConfiguration(resolve: [String: UpstreamAddress]) -> ProxyConfiguration {
    let hosts = InterceptedHosts(extra: rudderStackHosts + postHogHosts + snowplowCollectors + otherHosts)
    var configuration = ProxyConfiguration(
      port: proxyPort, hosts: hosts, forward: !noForward,
      authorityDirectory: caDirectory.map { URL(fileURLWithPath: $0) }
        ?? ProxyConfiguration.defaultAuthorityDirectory,
      resolve: resolve, upstreamTrustRoots: upstreamCA)
    configuration.allowsNoToken = allowNoToken
    configuration.allowsLoopbackUpstream = allowLoopbackUpstream
    return configuration
  }

  func run() async throws {
    try await session.run(proxy: proxyConfiguration(resolve: try resolveTable()))
  }
}

/// `tagscope proxy ca`: where the CA is and how to trust it on each kind of device.
struct ProxyCA: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ca",
    abstract: "Print where the proxy's CA is (creating it on first use) and how to trust it on each device.")

  @Option(name: .customLong("ca-dir"), help: "The CA's directory (default: the user's config directory).")
  var caDirectory: String?

  @Option(name: .customLong("proxy-port"), help: "The proxy port the instructions name.")
  var proxyPort: Int = ProxyConfiguration.defaultPort

  func run() throws {
    let directory =
      caDirectory.map { URL(fileURLWithPath: $0) } ?? ProxyConfiguration.defaultAuthorityDirectory
    do {
      let authority = try CertificateAuthority(directory: directory)
      try ProxyTrustGuide.writeAndroidCopy(of: authority)
      let pointers = ProxyTrustGuide.Pointers(
        hosts: HelpTopics.pointer(to: HelpTopics.hostsHeading),
        firebaseLog: HelpTopics.pointer(to: HelpTopics.firebaseLogHeading))
      print(
        TerminalText.sanitizeLines(
          ProxyTrustGuide.text(authority: authority, port: proxyPort, pointers: pointers)))
    } catch {
      StandardError.write("tagscope: \(TerminalText.sanitizeLines("\(error)"))\n")
      throw ExitCode(2)
    }
  }
}

extension ProxyRun {
  /// How the proxy is told `vendor`'s self-hosted collectors (its descriptor's ``Vendor/selfHosted``).
  static func selfHosted(_ vendor: Vendor) -> Vendor.SelfHosting {
    guard let hosting = vendor.selfHosted else {
      preconditionFailure("\(vendor.id.rawValue)'s descriptor names no self-hosted option")
    }
    return hosting
  }

  static func selfHostedName(_ vendor: Vendor) -> NameSpecification {
    .customLong(selfHosted(vendor).option)
  }

  static func selfHostedHelp(_ vendor: Vendor) -> ArgumentHelp {
    ArgumentHelp("\(selfHosted(vendor).host) to intercept (repeatable).")
  }
}
